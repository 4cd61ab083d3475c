import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { prepareCached } from '../../db/prepared.js';
import type { SiteTokenKeyRow } from '../../db/schema.js';

export interface SigningKey {
  id: string;
  secret: Uint8Array;
  createdAt: number;
  /** When it stopped signing (ms); it verifies the tokens it signed before then. */
  retiredAt: number | null;
}

/**
 * The keys that sign site tokens, in the database so that every Livery process of it signs and
 * verifies alike (migration 0012). Read through prepareCached: a read costs a map lookup until
 * anything is written, so a rotation by another process (the CLI) is seen on the next request.
 */
export class SiteTokenKeys {
  private readonly all;

  constructor(private readonly db: Db) {
    this.all = prepareCached(
      db,
      () => db.selectFrom('site_token_keys').selectAll().orderBy('created_at', 'desc'),
      (rows: SiteTokenKeyRow[]) => rows.map(toKey),
    );
  }

  /** The key that signs new tokens: the newest not retired. */
  async current(): Promise<SigningKey> {
    const key = (await this.all()).find((k) => k.retiredAt === null);
    if (key === undefined) throw new Error('No site-token signing key (migration 0012 makes one)');
    return key;
  }

  async byId(id: string): Promise<SigningKey | undefined> {
    return (await this.all()).find((k) => k.id === id);
  }

  /**
   * A new signing key; the current one retires (its tokens keep working until they expire).
   * Returns the new key's id: the secret is never shown.
   */
  async rotate(): Promise<string> {
    const at = new Date().toISOString();
    const id = `k${randomBytes(6).toString('hex')}`;
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('site_token_keys')
        .set({ retired_at: at })
        .where('retired_at', 'is', null)
        .execute();
      await tx
        .insertInto('site_token_keys')
        .values({ id, secret: newSecret(), created_at: at, retired_at: null })
        .execute();
    });
    return id;
  }

  /** Ids and dates, for the CLI: never the secrets. */
  async list(): Promise<{ id: string; createdAt: string; retiredAt: string | null }[]> {
    return (await this.all()).map((k) => ({
      id: k.id,
      createdAt: new Date(k.createdAt).toISOString(),
      retiredAt: k.retiredAt === null ? null : new Date(k.retiredAt).toISOString(),
    }));
  }
}

const newSecret = () => randomBytes(32).toString('base64url');

function toKey(row: SiteTokenKeyRow): SigningKey {
  return {
    id: row.id,
    secret: new Uint8Array(Buffer.from(row.secret, 'base64url')),
    createdAt: Date.parse(row.created_at),
    retiredAt: row.retired_at === null ? null : Date.parse(row.retired_at),
  };
}
