import type { Db } from '../../db/database.js';
import type { SpaceRow } from '../../db/schema.js';

/**
 * Makes `copy` (a new space row) a copy of `source` as it is now, in the caller's transaction:
 * its current revision's pages, files and reusable content, under new ids of space and revision
 * (duplicateSpace, duplicateSiteSpace). The copy starts its own history: its one revision has no
 * parents. Content is stored by hash per space (content/storage/), so copying is copying the
 * space's stored nodes, bodies and content sets under the new space's id; the revision points at
 * the same hashes, and file bytes (file_blobs, keyed by hash alone) are shared, not copied.
 */
export async function copySpaceContent(trx: Db, source: SpaceRow, copy: SpaceRow): Promise<void> {
  const revision = await trx
    .selectFrom('revisions')
    .selectAll()
    .where('id', '=', source.revision_id)
    .executeTakeFirstOrThrow();
  await trx.insertInto('spaces').values(copy).execute();
  await trx
    .insertInto('revisions')
    .values({
      ...revision,
      id: copy.revision_id,
      space_id: copy.id,
      type: 'edits',
      parents: '[]',
      merged_from: null,
      touched: '[]',
      created_by: null,
      created_at: copy.created_at,
      git: null,
    })
    .execute();
  for (const table of ['page_nodes', 'page_bodies', 'content_sets'] as const) {
    const columns = table === 'page_nodes' ? 'node' : table === 'page_bodies' ? 'markdown' : 'json';
    await trx
      .insertInto(table as 'page_nodes')
      .columns(['space_id', 'hash', columns as 'node'])
      .expression((eb) =>
        eb
          .selectFrom(table as 'page_nodes')
          .select([eb.val(copy.id).as('space_id'), 'hash', columns as 'node'])
          .where('space_id', '=', source.id),
      )
      .execute();
  }
}

/** A copy's title: "<title> (copy)", within `max` characters. */
export function copyTitle(title: string, max: number): string {
  const suffix = ' (copy)';
  return `${title.slice(0, max - suffix.length)}${suffix}`;
}
