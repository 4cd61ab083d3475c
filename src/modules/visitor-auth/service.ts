import { randomBytes } from 'node:crypto';
import type { PublishingAuthRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { headerUrl } from '../../http-origin.js';
import { now } from '../../ids.js';
import { refuseUnsupported } from '../../unsupported-inputs.js';
import type { Actor } from '../audit/actor.js';
import type { AuditEntry } from '../audit/record.js';
import { hashToken } from '../identity/tokens.js';
import type { SitesService } from '../sites/service.js';
import { type VisitorClaims, VisitorTokenError, verifyVisitorToken } from './jwt.js';
import type { PublishingAuthRepository } from './repository.js';
import { BACKEND_INPUT, type PublishingAuth, type UpdatePublishingAuth } from './schemas.js';

/** 32 random bytes (256 bits, the HS256 block's worth), base64url. */
export function generatePrivateKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Visitor authentication of a site: the key that signs visitor JWTs and where to send visitors
 * without a valid one. The settings exist from their first read on (backend `custom`, a fresh
 * key); `regenerate` replaces the key, and `verify` only accepts tokens signed with the current one.
 */
export class PublishingAuthService {
  constructor(
    private readonly repo: PublishingAuthRepository,
    private readonly sites: SitesService,
  ) {}

  async get(organizationId: string, siteId: string): Promise<PublishingAuth> {
    await this.sites.requireSite(organizationId, siteId);
    return present(await this.ensure(siteId));
  }

  /** `backend` is required; `fallbackURL` and `logoutURL`: absent = unchanged, null = removed. */
  async update(
    organizationId: string,
    siteId: string,
    input: UpdatePublishingAuth,
    actor: Actor,
  ): Promise<PublishingAuth> {
    refuseUnsupported(input, [BACKEND_INPUT]);
    await this.sites.requireSite(organizationId, siteId);
    await this.ensure(siteId);
    const change = {
      backend: input.backend,
      ...(input.fallbackURL === undefined ? {} : { fallback_url: input.fallbackURL }),
      ...(input.logoutURL === undefined ? {} : { logout_url: input.logoutURL }),
    };
    const row = await this.repo.update(siteId, { ...change, updated_at: now() }, (before) => {
      // The names of the fields that really change (as the API spells them), never their values.
      const changed = (Object.keys(change) as (keyof typeof change)[])
        .filter((column) => change[column] !== before[column])
        .map((column) => API_FIELDS[column]);
      if (changed.length === 0) return [];
      return [siteEntry(organizationId, siteId, actor, 'visitor-auth.updated', { changed })];
    });
    if (row === undefined) throw notFound('site', siteId);
    return present(row);
  }

  /** A new private key: tokens signed with the old one stop verifying at once. */
  async regenerate(organizationId: string, siteId: string, actor: Actor): Promise<PublishingAuth> {
    await this.sites.requireSite(organizationId, siteId);
    await this.ensure(siteId);
    const row = await this.repo.update(
      siteId,
      { private_key: generatePrivateKey(), updated_at: now() },
      () => [siteEntry(organizationId, siteId, actor, 'visitor-auth.key.regenerated', {})],
    );
    if (row === undefined) throw notFound('site', siteId);
    return present(row);
  }

  /**
   * The claims of a visitor token for this site, checked against the site's current key (the
   * published site uses this). Throws VisitorTokenError saying why a token is refused.
   */
  async verify(siteId: string, token: string, at?: number): Promise<VisitorClaims> {
    const row = await this.repo.find(siteId);
    if (row === undefined) {
      throw new VisitorTokenError('signature', 'The site has no visitor-authentication key yet');
    }
    return verifyVisitorToken(token, {
      key: row.private_key,
      audience: siteId,
      ...(at === undefined ? {} : { now: at }),
    });
  }

  /**
   * A fingerprint of the site's current key (a prefix of its hash): site tokens minted for a
   * visitor carry it, so that regenerating the key closes them too. Undefined: no key yet.
   */
  async keyFingerprint(siteId: string): Promise<string | undefined> {
    const row = await this.repo.find(siteId);
    return row === undefined ? undefined : hashToken(row.private_key).slice(0, 32);
  }

  /**
   * Where visitors without a valid token go (the published site), if anywhere. It becomes a
   * `Location` header: written from its parsed parts, and none when what is stored is not an
   * http(s) URL (written before validation said so, or straight into the database).
   */
  async fallbackURL(siteId: string): Promise<string | undefined> {
    const stored = (await this.repo.find(siteId))?.fallback_url;
    return stored == null ? undefined : headerUrl(stored);
  }

  private ensure(siteId: string): Promise<PublishingAuthRow> {
    const at = now();
    // The key is drawn even when the row exists: 32 random bytes cost far less than a query.
    return this.repo.ensure({
      site_id: siteId,
      backend: 'custom',
      private_key: generatePrivateKey(),
      fallback_url: null,
      logout_url: null,
      created_at: at,
      updated_at: at,
    });
  }
}

const API_FIELDS = { backend: 'backend', fallback_url: 'fallbackURL', logout_url: 'logoutURL' };

/** An audit entry about a site's visitor authentication: never its key. */
function siteEntry(
  organizationId: string,
  siteId: string,
  actor: Actor,
  action: 'visitor-auth.updated' | 'visitor-auth.key.regenerated',
  details: Record<string, unknown>,
): AuditEntry {
  return { organizationId, actor, action, target: { kind: 'site', id: siteId }, details };
}

function present(row: PublishingAuthRow): PublishingAuth {
  return {
    object: 'publishing-auth',
    backend: row.backend,
    privateKey: row.private_key,
    ...(row.fallback_url === null ? {} : { fallbackURL: row.fallback_url }),
    ...(row.logout_url === null ? {} : { logoutURL: row.logout_url }),
  };
}
