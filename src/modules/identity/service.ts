import { MISS } from '../../db/prepared.js';
import type { ApiTokenRow, OrganizationRow, UserRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { type Page, type PageRequest, toPage } from '../../http/pagination.js';
import { newId, now } from '../../ids.js';
import type { Urls } from '../../urls.js';
import { roleMayCall } from '../access/record-permissions.js';
import type { Actor } from '../audit/actor.js';
import type { ActiveToken, IdentityRepository } from './repository.js';
import type { Organization, User } from './schemas.js';
import { generateToken, hashToken, sameHash } from './tokens.js';

/** Who is calling: the user behind a valid API token. */
export interface Principal {
  userId: string;
  tokenId: string;
  /** The token's scopes; null: all of its user's rights (docs/permissions.md). */
  scopes: readonly string[] | null;
}

export interface NewToken {
  label?: string | undefined;
  scopes?: readonly string[] | undefined;
  /** ISO-8601 time after which the token is refused. */
  expiresAt?: string | undefined;
}

/** An authenticated token: its principal and the role asked about. Shared: do not modify. */
export interface Authenticated {
  readonly principal: Principal;
  readonly role: string | undefined;
}

/** A token's last use is written at most this often (not a write per request). */
const LAST_USE_PRECISION_MS = 60_000;

export interface CreatedOrganization {
  organization: Organization;
  user: User;
  tokenId: string;
  /** The new token in clear; never stored, shown once. */
  token: string;
}

interface NewOrganization {
  title: string;
  ownerName: string;
  token?: string | undefined;
}

export class IdentityService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly urls: Urls,
  ) {}

  /**
   * The principal of a presented token (undefined if it is unknown or revoked) and, when an
   * organization is named, the principal's role in it (undefined for a non-member). One query.
   */
  async authenticate(token: string, organizationId?: string): Promise<Authenticated | undefined> {
    return this.authenticateHash(hashToken(token), organizationId);
  }

  /** `authenticate` for a token known by its stored hash (a studio session's token). */
  async authenticateHash(
    hash: string,
    organizationId?: string,
  ): Promise<Authenticated | undefined> {
    return this.admit(hash, await this.repo.findActiveToken(hash, organizationId));
  }

  /**
   * `authenticate`, answered without waiting when the token's row is kept and current in memory
   * (the same checks: a revoked token's row changes the database generation, so it is read
   * again); MISS when it would have to be read, then call `authenticate`.
   */
  authenticateCached(
    token: string,
    organizationId?: string,
  ): Authenticated | undefined | typeof MISS {
    const hash = hashToken(token);
    const found = this.repo.peekActiveToken(hash, organizationId);
    return found === MISS ? MISS : this.admit(hash, found);
  }

  /** The principal of a kept row, one object per row: made once, not on every request. */
  private readonly principals = new WeakMap<ActiveToken, Authenticated>();

  private admit(hash: string, found: ActiveToken | undefined): Authenticated | undefined {
    // The lookup is by hash already; the constant-time check keeps the comparison itself from
    // ever depending on how much of a guess was right.
    if (found === undefined || !sameHash(found.hash, hash)) return undefined;
    const at = Date.now();
    if (found.expiresAt !== null && found.expiresAt <= at) return undefined;
    this.recordUse(found.id, found.lastUsedAt, at);
    let authenticated = this.principals.get(found);
    if (authenticated === undefined) {
      authenticated = Object.freeze({
        principal: Object.freeze({ userId: found.userId, tokenId: found.id, scopes: found.scopes }),
        role: found.role,
      });
      this.principals.set(found, authenticated);
    }
    return authenticated;
  }

  /** When this process last wrote each token's use (the stored time lags until that commits). */
  private readonly usesWritten = new Map<string, number>();

  /**
   * Records a token's use at most once a minute, without making the request wait: it is
   * bookkeeping, and a read must never queue behind a write (on PostgreSQL every commit that
   * announces a change takes the server's notification lock in turn). A failed write is retried
   * with a later use.
   */
  private recordUse(tokenId: string, stored: string | null, at: number): void {
    const last = Math.max(
      stored === null ? 0 : Date.parse(stored),
      this.usesWritten.get(tokenId) ?? 0,
    );
    if (last > at - LAST_USE_PRECISION_MS) return;
    if (this.usesWritten.size >= 100_000) this.usesWritten.clear(); // bounded memory
    this.usesWritten.set(tokenId, at);
    this.repo.recordTokenUse(tokenId, new Date(at).toISOString()).catch(() => {
      this.usesWritten.delete(tokenId);
    });
  }

  /**
   * The caller's role in an organization. Non-members get the same 404 as for an organization
   * that does not exist, so ids of other organizations are never confirmed.
   */
  async requireMember(userId: string, organizationId: string): Promise<string> {
    const role = await this.repo.memberRole(userId, organizationId);
    if (role === undefined) throw notFound('organization', organizationId);
    return role;
  }

  /** 404 unless `userId` is the caller or shares an organization with them. */
  async requireSharedUser(callerId: string, userId: string): Promise<void> {
    if (userId !== callerId && !(await this.repo.sharesOrganization(callerId, userId))) {
      throw notFound('user', userId);
    }
  }

  async currentUser(userId: string): Promise<User> {
    const row = await this.repo.findUser(userId);
    if (row === undefined) throw notFound('user', userId);
    return this.toUser(row);
  }

  async listOrganizations(userId: string, page: PageRequest): Promise<Page<Organization>> {
    const { rows, count } = await this.repo.listOrganizations(userId, page);
    return toPage(rows, page.limit, count, (row) =>
      this.toOrganization(row, row.role, Boolean(row.owns_team)),
    );
  }

  /** The organization as `userId`, a member with `role`, sees it. */
  async getOrganization(
    organizationId: string,
    userId: string,
    role: string,
  ): Promise<Organization> {
    const row = await this.repo.findOrganization(organizationId);
    if (row === undefined) throw notFound('organization', organizationId);
    return this.toOrganization(row, role, await this.repo.ownsTeam(userId, organizationId));
  }

  /**
   * A new organization with a new owner user (role admin) and an API token for that user.
   * `token` makes a chosen value the token (the bootstrap's LIVERY_BOOTSTRAP_TOKEN).
   */
  async createOrganizationWithOwner(input: NewOrganization): Promise<CreatedOrganization> {
    const { rows, created } = this.newOrganization(input);
    await this.repo.createOrganizationWithOwner(rows, { onlyIfEmpty: false });
    return created;
  }

  /**
   * The first start's organization: created only if the database holds none, atomically, so
   * that processes starting together on an empty database bootstrap once between them.
   */
  async createFirstOrganization(input: NewOrganization): Promise<CreatedOrganization | undefined> {
    const { rows, created } = this.newOrganization(input);
    return (await this.repo.createOrganizationWithOwner(rows, { onlyIfEmpty: true }))
      ? created
      : undefined;
  }

  private newOrganization(input: NewOrganization) {
    const at = now();
    const organization: OrganizationRow = { id: newId(), title: input.title, created_at: at };
    const owner: UserRow = {
      id: newId(),
      display_name: input.ownerName,
      email: null,
      created_at: at,
    };
    const token = input.token ?? generateToken();
    const tokenId = newId('tok_');
    const rows = {
      organization,
      owner,
      token: {
        id: tokenId,
        user_id: owner.id,
        token_hash: hashToken(token),
        label: 'owner',
        created_at: at,
        revoked_at: null,
        scopes: null,
        expires_at: null,
        last_used_at: null,
      },
    };
    const created: CreatedOrganization = {
      // A new organization has no teams yet, so its owner owns none.
      organization: this.toOrganization(organization, 'admin', false),
      user: this.toUser(owner),
      tokenId,
      token,
    };
    return { rows, created };
  }

  /**
   * A new token of `userId`, recorded in each of their organizations' audit logs as made by
   * `actor`: by default the user themself without a token (the command line, tests).
   */
  async createToken(
    userId: string,
    input: NewToken = {},
    actor: Actor = { userId, tokenId: null },
  ): Promise<{ id: string; token: string; row: ApiTokenRow }> {
    if ((await this.repo.findUser(userId)) === undefined) throw notFound('user', userId);
    const { token, row } = newTokenRow(userId, input);
    await this.repo.insertToken(row, actor);
    return { id: row.id, token, row };
  }

  /** A new user's row (not stored). */
  newUserRow(input: { displayName: string; email?: string | undefined }): UserRow {
    return {
      id: newId(),
      display_name: input.displayName,
      email: input.email ?? null,
      created_at: now(),
    };
  }

  /**
   * Revocation is immediate: tokens are checked against the database on every request. With a
   * user, only that user's token is revoked. Without an actor (the command line), the audit
   * entries name the token's own user, without a token.
   */
  async revokeToken(tokenId: string, userId?: string, actor?: Actor): Promise<boolean> {
    return this.repo.revokeToken(tokenId, now(), userId, actor);
  }

  /** One of a user's working tokens, by id. */
  findActiveTokenOf(userId: string, tokenId: string) {
    return this.repo.findActiveTokenOf(userId, tokenId, now());
  }

  /** A user's working tokens (not revoked, not expired), without their secrets. */
  listActiveTokens(userId: string, page: PageRequest) {
    return this.repo.listActiveTokens(userId, now(), page);
  }

  /** A user without organization (members and invites add them to one). */
  async createUser(input: { displayName: string; email?: string }): Promise<User> {
    const row: UserRow = {
      id: newId(),
      display_name: input.displayName,
      email: input.email ?? null,
      created_at: now(),
    };
    await this.repo.insertUser(row);
    return this.toUser(row);
  }

  /** Makes the user a member with that role (or changes their role). */
  async setMemberRole(organizationId: string, userId: string, role: string): Promise<void> {
    await this.repo.setMembership({
      organization_id: organizationId,
      user_id: userId,
      role,
      joined_at: now(),
    });
  }

  async isEmpty(): Promise<boolean> {
    return (await this.repo.countOrganizations()) === 0;
  }

  listTokens(userId?: string) {
    return this.repo.listTokens(userId);
  }

  listOrganizationsWithOwners() {
    return this.repo.listOrganizationsWithOwners();
  }

  /** A user as the API shows them. */
  toUser(row: UserRow): User {
    return {
      object: 'user',
      id: row.id,
      displayName: row.display_name,
      ...(row.email === null ? {} : { email: row.email }),
      urls: { location: this.urls.user(row.id) },
    };
  }

  /** `ownsTeam`: the caller is the owner of at least one of the organization's teams. */
  private toOrganization(row: OrganizationRow, role: string, ownsTeam: boolean): Organization {
    const admin = role === 'admin';
    return {
      object: 'organization',
      id: row.id,
      title: row.title,
      createdAt: row.created_at,
      plan: 'free',
      type: 'business',
      inviteLinks: true,
      emailDomains: [],
      // Change requests merge without review (docs/content.md): GitBook's "no merge rules".
      mergeRules: { type: 'none' },
      trial: { status: 'notapplicable', count: 0 },
      // Livery has no separate web application: the app URL is the API resource itself.
      urls: { location: this.urls.organization(row.id), app: this.urls.organization(row.id) },
      permissions: {
        view: true,
        access: true,
        admin,
        ownTeam: ownsTeam,
        createContent: roleMayCall(role, 'createSpace') && roleMayCall(role, 'createSite'),
        // Livery has no OpenAPI specifications, no conversations and no billing.
        createOpenAPISpec: false,
        ingestConversations: false,
        viewBilling: false,
        listMembers: roleMayCall(role, 'listMembersInOrganizationById'),
        listTeams: roleMayCall(role, 'listTeamsInOrganizationById'),
        // Livery has no integrations: nothing to list or install.
        listIntegrations: false,
        listInstallations: false,
        installIntegration: false,
      },
    };
  }
}

/** A new API token and its row (only the hash is stored); the secret is shown once. */
export function newTokenRow(
  userId: string,
  input: NewToken = {},
): { token: string; row: ApiTokenRow } {
  const token = generateToken();
  return {
    token,
    row: {
      id: newId('tok_'),
      user_id: userId,
      token_hash: hashToken(token),
      label: input.label ?? null,
      created_at: now(),
      revoked_at: null,
      scopes: input.scopes === undefined ? null : JSON.stringify([...new Set(input.scopes)]),
      expires_at: input.expiresAt ?? null,
      last_used_at: null,
    },
  };
}
