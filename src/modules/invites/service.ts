import type { InviteRow } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import type { Urls } from '../../urls.js';
import { roleAtLeast } from '../access/permissions.js';
import type { Actor } from '../audit/actor.js';
import type { IdentityService } from '../identity/service.js';
import { newTokenRow } from '../identity/service.js';
import type { InvitesRepository, JoinOutcome } from './repository.js';
import type { CreateUser, InviteUsers, LinkInvite, UpdateLinkInvite } from './schemas.js';

const GUEST = 'guest';
const DAY_MS = 86_400_000;
// Deliberately simple: one @, something on each side, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const gone = (message: string) => new AppError(410, message);
const storedRole = (role: string | null | undefined, fallback: string) =>
  role === undefined ? fallback : (role ?? GUEST);
const shownRole = (role: string) => (role === GUEST ? null : role);

/**
 * Invites. Email invites are pending until the invited user accepts (Livery sends no mail: the
 * admin gets each invite's id and acceptance URL); single-use, expiring after INVITE_TTL_DAYS,
 * and only for the user whose email is the invited address (ignoring case). Link invites are
 * reusable until disabled or deleted. `POST /v1/users` (Livery extension) creates an account:
 * through an invite without a token, or by an admin of the organization.
 */
export class InvitesService {
  constructor(
    private readonly repo: InvitesRepository,
    private readonly identity: IdentityService,
    private readonly urls: Urls,
    private readonly ttlDays: number,
  ) {}

  async inviteByEmail(organizationId: string, actor: Actor, input: InviteUsers) {
    if (input.sso === true) throw badRequest('body.sso: Livery has no SSO; leave it out or false');
    const fallback = storedRole(input.role, 'read');
    const wanted = new Map<string, string>();
    input.emails.forEach((entry, index) => {
      const email = (typeof entry === 'string' ? entry : entry.email).trim().toLowerCase();
      if (!EMAIL.test(email)) {
        throw badRequest(`body.emails[${index}]: ${JSON.stringify(email)} is not an email address`);
      }
      wanted.set(email, typeof entry === 'string' ? fallback : storedRole(entry.role, fallback));
    });
    const members = await this.repo.memberEmails(organizationId, [...wanted.keys()]);
    for (const email of wanted.keys()) {
      if (members.has(email)) throw conflict(`${email} is already a member of this organization`);
    }
    const at = new Date();
    const rows: InviteRow[] = [...wanted].map(([email, role]) => ({
      id: newId('inv_'),
      organization_id: organizationId,
      kind: 'email',
      email,
      role,
      enabled: 1,
      created_by: actor.userId,
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + this.ttlDays * DAY_MS).toISOString(),
      used_at: null,
      used_by: null,
    }));
    await this.repo.insertMany(rows, actor);
    return {
      users: [],
      invited: rows.length,
      invites: rows.map((row) => ({
        object: 'invite' as const,
        id: row.id,
        email: row.email ?? '',
        role: shownRole(row.role),
        expiresAt: row.expires_at ?? '',
        urls: { accept: this.acceptUrl(row) },
      })),
    };
  }

  /**
   * joinOrganizationWithInvite: the caller joins with the invite's role. They are the audit
   * entry's actor, with the token they joined with (`tokenId`).
   */
  async join(
    organizationId: string,
    userId: string,
    inviteId: string,
    at = Date.now(),
    tokenId: string | null = null,
  ) {
    const actor = { userId, tokenId };
    const invite = await this.usable(organizationId, inviteId, at);
    const user = await this.identity.currentUser(userId);
    // An invite sent to an address is for the user with that address only: a user without an
    // email cannot show it is theirs, and gets the same answer as one with another address.
    if (invite.kind === 'email' && user.email?.toLowerCase() !== invite.email) {
      throw forbidden('This invite is for another email address');
    }
    this.joined(await this.repo.join(invite, userId, new Date(at).toISOString(), actor));
    return { organization: organizationId, role: shownRole(invite.role) };
  }

  async listLinks(organizationId: string, callerRole: string, page: PageRequest) {
    const { rows, count } = await this.repo.listLinks(organizationId, page);
    return toPage(rows, page.limit, count, (row) => this.presentLink(row, callerRole));
  }

  async createLink(
    organizationId: string,
    caller: { actor: Actor; role: string },
    role: string | null,
  ): Promise<LinkInvite> {
    const row: InviteRow = {
      id: newId('inv_'),
      organization_id: organizationId,
      kind: 'link',
      email: null,
      role: role ?? GUEST,
      enabled: 1,
      created_by: caller.actor.userId,
      created_at: now(),
      expires_at: null,
      used_at: null,
      used_by: null,
    };
    await this.repo.insertMany([row], caller.actor);
    return this.presentLink(row, caller.role);
  }

  async getLink(organizationId: string, callerRole: string, id: string): Promise<LinkInvite> {
    const row = await this.repo.find(organizationId, id);
    if (row?.kind !== 'link') throw notFound('invite link', id);
    return this.presentLink(row, callerRole);
  }

  async updateLink(
    organizationId: string,
    caller: { actor: Actor; role: string },
    id: string,
    input: UpdateLinkInvite,
  ) {
    const change = {
      ...(input.role === undefined ? {} : { role: input.role ?? GUEST }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled ? 1 : 0 }),
    };
    const row = await this.repo.updateLink(organizationId, id, change, caller.actor);
    if (row === undefined) throw notFound('invite link', id);
    return this.presentLink(row, caller.role);
  }

  deleteLink(organizationId: string, id: string, actor: Actor): Promise<boolean> {
    return this.repo.deleteLink(organizationId, id, actor);
  }

  /**
   * POST /v1/users. With `inviteId` (no token needed): the new user joins through the invite.
   * Without: the caller must be an admin of the organization; the user joins with `role`.
   * Either way the answer holds the user's first API token. `caller` (with their token) is the
   * actor of the admin's `member.added`.
   */
  async createUser(input: CreateUser, caller: Actor | null, callerRole?: string) {
    const user = this.identity.newUserRow({
      displayName: input.displayName,
      email: input.email?.trim().toLowerCase(),
    });
    if (user.email !== null && !EMAIL.test(user.email)) {
      throw badRequest(`body.email: ${JSON.stringify(user.email)} is not an email address`);
    }
    const { token, row } = newTokenRow(user.id, { label: 'first token' });
    if (input.inviteId !== undefined) {
      if (input.role !== undefined) throw badRequest('body.role: the invite decides the role');
      const invite = await this.usable(input.organizationId, input.inviteId, Date.now());
      if (invite.kind === 'email' && user.email !== invite.email) {
        throw forbidden('body.email: this invite is for another email address');
      }
      // The new user joins by themself, without a token: the request had none.
      const actor = { userId: user.id, tokenId: null };
      const newUser = { user, token: row };
      this.joined(await this.repo.join(invite, user.id, user.created_at, actor, newUser));
    } else {
      if (caller === null) {
        throw new AppError(401, 'Creating a user without an invite needs an admin’s API token', {
          'www-authenticate': 'Bearer realm="livery"',
        });
      }
      if (callerRole === undefined) throw notFound('organization', input.organizationId);
      if (!roleAtLeast(callerRole, 'admin')) {
        throw forbidden(
          'Creating a user without an invite needs the admin role in the organization',
        );
      }
      const role = storedRole(input.role, 'read');
      await this.repo.createMember(user, row, input.organizationId, role, caller);
    }
    return {
      user: this.identity.toUser(user),
      organization: input.organizationId,
      tokenId: row.id,
      token,
    };
  }

  /** An invite that can still be used at `at`: else 404 (unknown), 410 (used, expired, disabled). */
  private async usable(organizationId: string, inviteId: string, at: number): Promise<InviteRow> {
    const invite = await this.repo.find(organizationId, inviteId);
    if (invite === undefined) throw notFound('invite', inviteId);
    if (invite.kind === 'link' && invite.enabled !== 1) {
      throw gone('This invite link has been disabled; ask an admin for a new one');
    }
    if (invite.used_at !== null)
      throw gone('This invite has already been used; invites are single-use');
    if (invite.expires_at !== null && Date.parse(invite.expires_at) <= at) {
      throw gone(`This invite expired at ${invite.expires_at}; ask an admin for a new one`);
    }
    return invite;
  }

  private joined(outcome: JoinOutcome): void {
    if (outcome === 'already-member')
      throw conflict('You are already a member of this organization');
    if (outcome === 'used') throw gone('This invite has already been used; invites are single-use');
  }

  linkLocation(organizationId: string, id: string): string {
    return `${this.urls.organization(organizationId)}/link-invites/${id}`;
  }

  private acceptUrl(row: InviteRow): string {
    return `${this.urls.organization(row.organization_id)}/invites/${row.id}`;
  }

  private presentLink(row: InviteRow, callerRole: string): LinkInvite {
    return {
      object: 'invite',
      id: row.id,
      role: shownRole(row.role),
      redundant: roleAtLeast(callerRole, row.role === GUEST ? 'guest' : (row.role as 'read')),
      enabled: row.enabled === 1,
      urls: { accept: this.acceptUrl(row) },
    };
  }
}
