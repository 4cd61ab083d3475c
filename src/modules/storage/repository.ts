import type { Db } from '../../db/database.js';
import type { StorageObjectRow, StorageUploadRow } from '../../db/schema.js';

/** A day after a URL expires, its row goes (an answer of 410 needs it only while it could be tried). */
const PRUNE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Upload URLs and stored objects (migration 0024); the bytes go to `file_blobs` (0016). */
export class StorageRepository {
  constructor(private readonly db: Db) {}

  async insertUpload(row: StorageUploadRow): Promise<void> {
    await this.db.insertInto('storage_uploads').values(row).execute();
  }

  upload(id: string): Promise<StorageUploadRow | undefined> {
    return this.db
      .selectFrom('storage_uploads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Deletes the rows of URLs that expired more than a day before `at`. */
  async pruneUploads(at: Date): Promise<void> {
    const before = new Date(at.getTime() - PRUNE_AFTER_MS).toISOString();
    await this.db.deleteFrom('storage_uploads').where('expires_at', '<', before).execute();
  }

  /**
   * Stores an upload in one transaction: marks its URL used (only if unused and unexpired at
   * `at`), writes the bytes unless stored already, and records the object. False, and nothing
   * written, when the URL was used (or expired) meanwhile: by another request or process.
   */
  async store(
    upload: StorageUploadRow,
    object: StorageObjectRow,
    data: Buffer,
    at: string,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('storage_uploads')
        .set({ used_at: at })
        .where('id', '=', upload.id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', at)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false;
      await trx
        .insertInto('file_blobs')
        .values({ hash: object.hash, size: data.length, data })
        .onConflict((oc) => oc.column('hash').doNothing())
        .execute();
      await trx.insertInto('storage_objects').values(object).execute();
      return true;
    });
  }

  object(organizationId: string, key: string): Promise<StorageObjectRow | undefined> {
    return this.db
      .selectFrom('storage_objects')
      .selectAll()
      .where('key', '=', key)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
  }
}
