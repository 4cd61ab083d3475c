import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ChangeRequestPreviewRow, ChangeRequestRow } from '../../db/schema.js';

/** Change request preview links (migration 0018): at most one open per change request. */
export class PreviewsRepository {
  constructor(private readonly db: Db) {}

  changeRequest(id: string): Promise<ChangeRequestRow | undefined> {
    return this.db
      .selectFrom('change_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async spaceTitle(spaceId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('spaces')
      .select('title')
      .where('id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.title;
  }

  byId(id: string): Promise<ChangeRequestPreviewRow | undefined> {
    return this.db
      .selectFrom('change_request_previews')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  openOf(changeRequestId: string): Promise<ChangeRequestPreviewRow | undefined> {
    return this.db
      .selectFrom('change_request_previews')
      .selectAll()
      .where('change_request_id', '=', changeRequestId)
      .where('closed_at', 'is', null)
      .executeTakeFirst();
  }

  /** The space's open links of change requests still open (or draft), oldest first. */
  openInSpace(spaceId: string): Promise<ChangeRequestPreviewRow[]> {
    return this.db
      .selectFrom('change_request_previews as p')
      .innerJoin('change_requests as c', 'c.id', 'p.change_request_id')
      .selectAll('p')
      .where('p.space_id', '=', spaceId)
      .where('p.closed_at', 'is', null)
      .where('c.status', 'in', ['open', 'draft'])
      .orderBy('p.created_at')
      .orderBy('p.id')
      .execute();
  }

  /**
   * Inserts `row` unless the change request has an open link already, and answers the open link
   * either way: two callers racing get the same one (the partial unique index decides).
   */
  async insertOrOpen(row: ChangeRequestPreviewRow): Promise<ChangeRequestPreviewRow> {
    for (let attempt = 0; ; attempt++) {
      const open = await this.openOf(row.change_request_id);
      if (open !== undefined) return open;
      try {
        await this.db.insertInto('change_request_previews').values(row).execute();
        return row;
      } catch (error) {
        // Another open won the race (then it is read above), or was closed again meanwhile.
        if (!isUniqueViolation(error) || attempt === 2) throw error;
      }
    }
  }

  /** Closes the change request's open link; false when it had none. */
  async close(changeRequestId: string, at: string, reason: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('change_request_previews')
      .set({ closed_at: at, closed_reason: reason })
      .where('change_request_id', '=', changeRequestId)
      .where('closed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
