import { conflict, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { roleMayCall } from '../access/record-permissions.js';
import type { Actor } from '../audit/actor.js';
import type { User } from '../identity/schemas.js';
import type { IdentityService } from '../identity/service.js';
import type { SpacesService } from '../spaces/service.js';
import type { MemberRow, MembersRepository } from './repository.js';
import type { Member, MemberFilters, UpdateMember } from './schemas.js';

/** The organization's spaces and sites: all of them are open to a member with a role. */
interface Reach {
  spaces: number;
  sites: number;
}

/** A guest is a member with no organization-wide role (GitBook: `role: null`). */
const GUEST = 'guest';

/**
 * Organization members: listing, reading, changing roles, removing. An organization always keeps
 * an admin: demoting or removing the last one is a 409. Removing a member only ends that
 * membership: the user's tokens keep working in their other organizations.
 */
export class MembersService {
  constructor(
    private readonly repo: MembersRepository,
    private readonly identity: IdentityService,
    private readonly spaces: SpacesService,
  ) {}

  async list(
    organizationId: string,
    filters: MemberFilters,
    page: PageRequest,
  ): Promise<Page<Member>> {
    const { rows, count } = await this.repo.list(organizationId, filters, page);
    const reach = await this.reachOf(organizationId);
    const byLastSeen = filters.sort === 'lastSeenAt';
    return toPage(
      rows.map((row) => ({ ...row, id: row.user.id })),
      page.limit,
      count,
      (row) => this.present(row, reach),
      (row) => (byLastSeen ? (row.lastSeenAt ?? '') : row.joinedAt),
    );
  }

  async get(organizationId: string, userId: string): Promise<Member> {
    const row = await this.requireMember(organizationId, userId);
    return this.present(row, await this.reachOf(organizationId));
  }

  /** `role: null` makes the member a guest; an absent role changes nothing. */
  async update(
    organizationId: string,
    userId: string,
    input: UpdateMember,
    actor: Actor,
  ): Promise<Member> {
    if (input.role !== undefined) {
      const outcome = await this.repo.change(organizationId, userId, input.role ?? GUEST, actor);
      this.check(outcome, userId, 'demoted');
    }
    return this.get(organizationId, userId);
  }

  /** True when the user was a member (205), false when not (204). */
  async remove(organizationId: string, userId: string, actor: Actor): Promise<boolean> {
    const outcome = await this.repo.change(organizationId, userId, undefined, actor);
    if (outcome === 'missing') return false;
    this.check(outcome, userId, 'removed');
    return true;
  }

  /** The organization's spaces the member can access, each with the member's permission. */
  async spacesOf(organizationId: string, userId: string, page: PageRequest) {
    const member = await this.requireMember(organizationId, userId);
    if (member.role === GUEST) return { items: [], count: 0 };
    const listed = await this.spaces.listInOrganization(organizationId, member.role, page);
    return {
      ...listed,
      items: listed.items.map((space) => ({ permission: member.role, space })),
    };
  }

  /** Members by user id, presented (for team listings). */
  async presentMany(organizationId: string, userIds: string[]): Promise<Map<string, Member>> {
    const rows = await this.repo.findMany(organizationId, userIds);
    const reach = await this.reachOf(organizationId);
    return new Map([...rows].map(([id, row]) => [id, this.present(row, reach)]));
  }

  /** A user the caller shares an organization with (or the caller); others are a 404. */
  async getUser(callerId: string, userId: string): Promise<User> {
    await this.identity.requireSharedUser(callerId, userId);
    return this.identity.currentUser(userId);
  }

  private async requireMember(organizationId: string, userId: string): Promise<MemberRow> {
    const row = await this.repo.find(organizationId, userId);
    if (row === undefined) throw notFound('member', userId);
    return row;
  }

  private check(outcome: 'missing' | 'last-admin' | 'done', userId: string, verb: string) {
    if (outcome === 'missing') throw notFound('member', userId);
    if (outcome === 'last-admin') {
      throw conflict(
        `User ${userId} is the last admin of this organization and cannot be ${verb}; make another member admin first`,
      );
    }
  }

  /** How many spaces and sites the organization has: what a member with a role can reach. */
  private async reachOf(organizationId: string): Promise<Reach> {
    const [spaces, sites] = await Promise.all([
      this.repo.countSpaces(organizationId),
      this.repo.countSites(organizationId),
    ]);
    return { spaces, sites };
  }

  present(row: MemberRow, { spaces, sites }: Reach): Member {
    const guest = row.role === GUEST;
    return {
      object: 'member',
      id: row.user.id,
      role: guest ? null : row.role,
      user: this.identity.toUser(row.user),
      disabled: false,
      joinedAt: row.joinedAt,
      ...(row.lastSeenAt === null ? {} : { lastSeenAt: row.lastSeenAt }),
      sso: false,
      spaces: guest ? 0 : spaces,
      teams: row.teams,
      // Every site of the organization, for whoever may read sites (docs/members.md).
      sites: roleMayCall(row.role, 'getSiteById') ? sites : 0,
    };
  }
}
