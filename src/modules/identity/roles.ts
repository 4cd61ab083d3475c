import type { MEMBER_ROLES } from './schemas.js';

export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Organization roles, lowest to highest. */
const RANK: Record<string, number> = {
  read: 1,
  comment: 2,
  review: 3,
  edit: 4,
  create: 5,
  admin: 6,
};

export function atLeast(role: string, minimum: MemberRole): boolean {
  return (RANK[role] ?? 0) >= (RANK[minimum] ?? Number.POSITIVE_INFINITY);
}
