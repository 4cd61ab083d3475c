import { isUniqueViolation } from '../../db/errors.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import { roleAtLeast } from '../access/permissions.js';
import type { Actor } from '../audit/actor.js';
import type { MembersService } from '../members/service.js';
import type { TeamsRepository, TeamWithCount } from './repository.js';
import type { CreateTeam, Team, UpdateTeamMembers } from './schemas.js';

/**
 * Who is asking: their user id and organization role (team permissions depend on both), and the
 * token they use (with the user id, the actor of what they change).
 */
export interface Caller {
  userId: string;
  tokenId: string | null;
  role: string;
}

const actorOf = ({ userId, tokenId }: Caller): Actor => ({ userId, tokenId });

/**
 * Teams of an organization. Titles are unique in the organization ignoring case (409). Team
 * members must be members of the organization. Organization admins manage every team; a team's
 * owners manage its members.
 */
export class TeamsService {
  constructor(
    private readonly repo: TeamsRepository,
    private readonly members: MembersService,
  ) {}

  async list(
    organizationId: string,
    caller: Caller,
    filters: { owner?: string | undefined; title?: string | undefined },
    page: PageRequest,
  ): Promise<Page<Team>> {
    const { rows, count } = await this.repo.list(organizationId, filters, page);
    const owned = await this.repo.ownedBy(organizationId, caller.userId);
    return toPage(rows, page.limit, count, (row) =>
      present(row, caller, owned.has(row.id) ? 'owner' : undefined),
    );
  }

  async create(organizationId: string, caller: Caller, input: CreateTeam): Promise<Team> {
    const refs = input.members ?? [];
    const found = await this.repo.resolveMembers(organizationId, [...new Set(refs)]);
    refs.forEach((ref, index) => {
      if (!found.has(ref)) throw notAMember(`body.members[${index}]`, ref);
    });
    const at = now();
    const team = {
      id: newId('team_'),
      organization_id: organizationId,
      title: input.title,
      title_key: input.title.toLowerCase(),
      created_at: at,
    };
    const userIds = [...new Set(refs.map((ref) => found.get(ref) as string))];
    try {
      await this.repo.insert(
        team,
        userIds.map((userId) => ({
          team_id: team.id,
          user_id: userId,
          role: 'member',
          added_at: at,
        })),
        actorOf(caller),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw titleTaken(input.title);
      throw error;
    }
    return this.get(organizationId, caller, team.id);
  }

  async get(organizationId: string, caller: Caller, teamId: string): Promise<Team> {
    const team = await this.require(organizationId, teamId);
    return present(team, caller, await this.repo.roleIn(teamId, caller.userId));
  }

  async rename(organizationId: string, caller: Caller, teamId: string, title: string) {
    let renamed: boolean;
    try {
      renamed = await this.repo.rename(organizationId, teamId, title, actorOf(caller));
    } catch (error) {
      if (isUniqueViolation(error)) throw titleTaken(title);
      throw error;
    }
    if (!renamed) throw notFound('team', teamId);
    return this.get(organizationId, caller, teamId);
  }

  /** True when the team existed (205), false when not (204). */
  delete(organizationId: string, caller: Caller, teamId: string): Promise<boolean> {
    return this.repo.delete(organizationId, teamId, actorOf(caller));
  }

  async listMembers(organizationId: string, teamId: string, page: PageRequest) {
    await this.require(organizationId, teamId);
    const { rows, count } = await this.repo.listMembers(teamId, page);
    const members = await this.members.presentMany(
      organizationId,
      rows.map((row) => row.user_id),
    );
    return toPage(
      rows.flatMap((row) => {
        const member = members.get(row.user_id);
        return member === undefined ? [] : [{ ...row, id: row.user_id, member }];
      }),
      page.limit,
      count,
      (row) => ({
        organization: row.member,
        team: { role: row.role },
        permissions: { view: true },
      }),
      (row) => row.added_at,
    );
  }

  /**
   * updateMembersInOrganizationTeam: adds, re-roles and removes in one transaction. A user both
   * added and removed is removed (GitBook's rule). Every user must be an organization member.
   */
  async updateMembers(
    organizationId: string,
    caller: Caller,
    teamId: string,
    input: UpdateTeamMembers,
  ): Promise<void> {
    await this.requireManager(organizationId, caller, teamId);
    const add = input.add ?? [];
    const remove = input.remove ?? [];
    const roles = Object.entries(input.memberships ?? {});
    const found = await this.repo.resolveMembers(organizationId, [
      ...add,
      ...remove,
      ...roles.map(([ref]) => ref),
    ]);
    const resolve = (ref: string, field: string) => {
      const userId = found.get(ref);
      if (userId === undefined) throw notAMember(field, ref);
      return userId;
    };
    const removed = new Set(remove.map((ref, i) => resolve(ref, `body.remove[${i}]`)));
    const upsert = new Map<string, string | undefined>();
    add.forEach((ref, i) => {
      upsert.set(resolve(ref, `body.add[${i}]`), undefined);
    });
    for (const [ref, { role }] of roles) upsert.set(resolve(ref, `body.memberships.${ref}`), role);
    await this.apply(
      organizationId,
      teamId,
      [...upsert]
        .filter(([userId]) => !removed.has(userId))
        .map(([userId, role]) => ({ userId, role })),
      [...removed],
      now(),
      actorOf(caller),
    );
  }

  async addMember(
    organizationId: string,
    caller: Caller,
    teamId: string,
    userId: string,
    role: string | undefined,
  ): Promise<void> {
    await this.requireManager(organizationId, caller, teamId);
    const found = await this.repo.resolveMembers(organizationId, [userId]);
    if (!found.has(userId)) throw notFound('member', userId);
    await this.apply(organizationId, teamId, [{ userId, role }], [], now(), actorOf(caller));
  }

  /** True when the user was in the team (205), false when not (204). */
  async removeMember(organizationId: string, caller: Caller, teamId: string, userId: string) {
    await this.requireManager(organizationId, caller, teamId);
    return this.repo.removeMember(organizationId, teamId, userId, actorOf(caller));
  }

  /** The teams a member is in, each with their team role. */
  async teamsOf(
    organizationId: string,
    caller: Caller,
    userId: string,
    title: string | undefined,
    page: PageRequest,
  ) {
    await this.members.get(organizationId, userId); // 404 for a non-member
    const { rows, count } = await this.repo.list(organizationId, { title, member: userId }, page);
    const owned = await this.repo.ownedBy(organizationId, caller.userId);
    const items = await Promise.all(
      rows.map(async (row) => ({
        row,
        role: (await this.repo.roleIn(row.id, userId)) ?? 'member',
      })),
    );
    return toPage(
      items.map((item) => ({ ...item, id: item.row.id, created_at: item.row.created_at })),
      page.limit,
      count,
      ({ row, role }) => ({
        team: present(row, caller, owned.has(row.id) ? 'owner' : undefined),
        member: { role },
      }),
    );
  }

  /** Applies member changes; the team and the users are checked again inside the write. */
  private async apply(...args: Parameters<TeamsRepository['applyMembers']>): Promise<void> {
    const outcome = await this.repo.applyMembers(...args);
    if (outcome === 'missing-team') throw notFound('team', args[1]);
    if (outcome !== 'done') throw notFound('member', outcome.notMember);
  }

  private async require(organizationId: string, teamId: string): Promise<TeamWithCount> {
    const team = await this.repo.find(organizationId, teamId);
    if (team === undefined) throw notFound('team', teamId);
    return team;
  }

  /** Organization admins manage every team; a team's owners manage its members. */
  private async requireManager(organizationId: string, caller: Caller, teamId: string) {
    await this.require(organizationId, teamId);
    if (roleAtLeast(caller.role, 'admin')) return;
    if ((await this.repo.roleIn(teamId, caller.userId)) === 'owner') return;
    throw forbidden(
      "Managing a team's members needs the admin role in this organization or the team's owner role",
    );
  }
}

function present(row: TeamWithCount, caller: Caller, callerTeamRole: string | undefined): Team {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    members: row.member_count,
    spaces: 0,
    createdAt: row.created_at,
    permissions: {
      admin: roleAtLeast(caller.role, 'admin') || callerTeamRole === 'owner',
      view: true,
    },
  };
}

const titleTaken = (title: string) =>
  conflict(
    `body.title: a team titled ${JSON.stringify(title)} already exists in this organization`,
  );

const notAMember = (field: string, ref: string) =>
  badRequest(`${field}: ${JSON.stringify(ref)} is not a member of this organization`);
