import { BoundedCache } from '../../bounded-cache.js';
import type { Db } from '../../db/database.js';
import { canonicalJson, hashOf } from '../content/storage/node.js';

/** A revision file (GitBook's RevisionFile), as a revision's file set stores it. */
export interface StoredFile {
  id: string;
  name: string;
  /** Its path in the space's root (`.gitbook/assets/a b.png`). */
  path: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes (base64url): the key of `file_blobs`. */
  hash: string;
  /** The Git blob it came from, and its path in the repository. */
  oid?: string;
  gitPath?: string;
  width?: number;
  height?: number;
}

/** A reusable content (GitBook's RevisionReusableContent), with its body as Markdown. */
export interface StoredReusableContent {
  id: string;
  title: string;
  path: string;
  oid?: string;
  gitPath?: string;
  markdown: string;
  frontMatter?: string;
}

/** putBlobs' transactions: rows (3 parameters each, far under SQLite's limit) and bytes. */
const BLOB_ROWS = 100;
const BLOB_BYTES = 8 * 1024 * 1024;

/** Sets kept parsed, by the size of their JSON: a revision's files are read for every file link. */
const SETS_BYTES = 16 * 1024 * 1024;

/**
 * File bytes and the sets of files and reusable contents revisions name (migration 0016). Both
 * never change once written: bytes are keyed by their hash, sets by the hash of their JSON, so
 * writes are `ON CONFLICT DO NOTHING` (two processes writing the same row write the same bytes)
 * and what is read is cached without ever going stale.
 */
export class FilesRepository {
  private readonly sets = new BoundedCache<readonly unknown[]>(SETS_BYTES);

  constructor(private readonly db: Db) {}

  /** Stores bytes not stored yet; the hashes are the caller's (SHA-256, base64url). */
  async putBlob(hash: string, data: Buffer): Promise<void> {
    await this.db
      .insertInto('file_blobs')
      .values({ hash, size: data.length, data })
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }

  /**
   * Stores many blobs in few transactions (at most BLOB_ROWS rows or BLOB_BYTES bytes each, so
   * that none holds SQLite's one connection long): one commit, one fsync, per transaction
   * rather than per file; 1,000 images written one by one took 2–7 s of fsyncs on SQLite.
   */
  async putBlobs(blobs: readonly { hash: string; data: Buffer }[]): Promise<void> {
    let start = 0;
    while (start < blobs.length) {
      let end = start;
      let bytes = 0;
      while (end < blobs.length && end - start < BLOB_ROWS && bytes < BLOB_BYTES) {
        bytes += blobs[end]?.data.length ?? 0;
        end += 1;
      }
      const rows = blobs
        .slice(start, end)
        .map(({ hash, data }) => ({ hash, size: data.length, data }));
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('file_blobs')
          .values(rows)
          .onConflict((oc) => oc.column('hash').doNothing())
          .execute();
      });
      start = end;
    }
  }

  /** Which of these hashes are stored already. */
  async storedBlobs(hashes: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < hashes.length; i += 256) {
      const rows = await this.db
        .selectFrom('file_blobs')
        .select('hash')
        .where('hash', 'in', hashes.slice(i, i + 256))
        .execute();
      for (const row of rows) found.add(row.hash);
    }
    return found;
  }

  async blob(hash: string): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('file_blobs')
      .select('data')
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row === undefined ? undefined : Buffer.from(row.data);
  }

  /** A set's hash and JSON (canonical, so equal sets have one hash). */
  static setOf(items: readonly unknown[]): { hash: string; json: string } {
    const json = canonicalJson(items);
    return { hash: hashOf(json), json };
  }

  /** Writes a set (inside the caller's transaction, with the revision that names it). */
  async putSet(trx: Db, spaceId: string, set: { hash: string; json: string }): Promise<void> {
    await trx
      .insertInto('content_sets')
      .values({ space_id: spaceId, hash: set.hash, json: set.json })
      .onConflict((oc) => oc.columns(['space_id', 'hash']).doNothing())
      .execute();
  }

  async files(spaceId: string, hash: string | undefined): Promise<readonly StoredFile[]> {
    return (await this.readSet(spaceId, hash)) as readonly StoredFile[];
  }

  async reusableContents(
    spaceId: string,
    hash: string | undefined,
  ): Promise<readonly StoredReusableContent[]> {
    return (await this.readSet(spaceId, hash)) as readonly StoredReusableContent[];
  }

  private async readSet(spaceId: string, hash: string | undefined): Promise<readonly unknown[]> {
    if (hash === undefined) return [];
    const key = `${spaceId}/${hash}`;
    const cached = this.sets.get(key);
    if (cached !== undefined) return cached;
    const row = await this.db
      .selectFrom('content_sets')
      .select('json')
      .where('space_id', '=', spaceId)
      .where('hash', '=', hash)
      .executeTakeFirst();
    const items = Object.freeze(row === undefined ? [] : (JSON.parse(row.json) as unknown[]));
    this.sets.set(key, items, (row?.json.length ?? 0) + 64);
    return items;
  }
}
