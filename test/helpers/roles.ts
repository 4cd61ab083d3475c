import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { OrgRole } from '../../src/modules/access/permissions.js';
import type { TestContext } from './app.js';

export interface Member {
  id: string;
  token: string;
}

/** A new user, made a member of the test organization with `role` (`guest`: no role), with a token. */
export async function memberWithRole(t: TestContext, role: OrgRole): Promise<Member> {
  const user = await t.services.identity.createUser({ displayName: `A ${role} member` });
  await t.services.identity.setMemberRole(t.orgId, user.id, role);
  const { token } = await t.services.identity.createToken(user.id, { label: 'test' });
  return { id: user.id, token };
}

/** Sends a request with `member`'s token instead of the owner's. */
export function requestAs(
  t: TestContext,
  member: Member,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  return t.request({
    ...options,
    headers: { ...options.headers, authorization: `Bearer ${member.token}` },
  });
}
