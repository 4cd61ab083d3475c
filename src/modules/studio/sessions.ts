import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { invalidToken } from '../../errors.js';
import type { IdentityService, Principal } from '../identity/service.js';
import { hashToken } from '../identity/tokens.js';

export interface SessionOfToken {
  /** The session's token, by its stored hash: requests authenticate as that token. */
  tokenHash: string;
  expiresAt: string;
}

/**
 * Studio sessions: an API token exchanged once for a random session secret. Only the secret's
 * SHA-256 is stored; a session acts exactly as its token (same user, same scopes), so revoking
 * the token or deleting the user ends it (ON DELETE CASCADE, and the token check of every
 * request). Sessions are read from the database on every request and never cached, so a
 * sign-out in one process is seen at once by all.
 */
export class StudioSessions {
  constructor(
    private readonly db: Db,
    private readonly identity: IdentityService,
    private readonly hours: number,
  ) {}

  /** A new session for a valid API token; 401 for an unknown, revoked or expired token. */
  async signIn(
    token: string,
  ): Promise<{ secret: string; principal: Principal; expiresAt: string }> {
    const found = await this.identity.authenticate(token);
    if (found === undefined) throw invalidToken();
    const secret = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.hours * 3_600_000).toISOString();
    // Expired sessions are deleted here: signing in is rare, and nothing else needs them gone.
    await this.db
      .deleteFrom('studio_sessions')
      .where('expires_at', '<=', now.toISOString())
      .execute();
    await this.db
      .insertInto('studio_sessions')
      .values({
        id_hash: hashToken(secret),
        token_id: found.principal.tokenId,
        created_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .execute();
    return { secret, principal: found.principal, expiresAt };
  }

  /** The live session of a cookie's secret, or undefined (unknown, expired, token revoked). */
  async find(secret: string): Promise<SessionOfToken | undefined> {
    const row = await this.db
      .selectFrom('studio_sessions as s')
      .innerJoin('api_tokens as t', 't.id', 's.token_id')
      .select(['t.token_hash', 's.expires_at'])
      .where('s.id_hash', '=', hashToken(secret))
      .where('s.expires_at', '>', new Date().toISOString())
      .where('t.revoked_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? undefined : { tokenHash: row.token_hash, expiresAt: row.expires_at };
  }

  async signOut(secret: string): Promise<void> {
    await this.db.deleteFrom('studio_sessions').where('id_hash', '=', hashToken(secret)).execute();
  }
}
