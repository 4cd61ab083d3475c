import type { Db } from '../../../db/database.js';
import type { GitBranchPreviewRow, GitLinkRow } from '../../../db/schema.js';

/**
 * Linked spaces and their branch previews (migration 0017). The link of a space in the trash is
 * absent (docs/content.md): no webhook, poll or sync reaches it until it is restored.
 */
export class GitLinksRepository {
  constructor(private readonly db: Db) {}

  get(spaceId: string): Promise<GitLinkRow | undefined> {
    return this.links().where('space_id', '=', spaceId).executeTakeFirst();
  }

  all(): Promise<GitLinkRow[]> {
    return this.links().execute();
  }

  /** The links of live spaces. */
  private links() {
    return this.db
      .selectFrom('git_links')
      .selectAll()
      .where('space_id', 'in', (eb) =>
        eb.selectFrom('spaces').select('id').where('deleted_at', 'is', null),
      );
  }

  async put(row: GitLinkRow): Promise<void> {
    const { space_id: _, created_at: __, created_by: ___, ...changed } = row;
    await this.db
      .insertInto('git_links')
      .values(row)
      .onConflict((oc) => oc.column('space_id').doUpdateSet(changed))
      .execute();
  }

  async delete(spaceId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('git_links')
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    await this.db.deleteFrom('git_branch_previews').where('space_id', '=', spaceId).execute();
    return result.numDeletedRows === 1n;
  }

  /** The remote is fetched at the next look (null) or was just fetched (a time). */
  async polled(spaceId: string, at: string | null): Promise<void> {
    await this.db
      .updateTable('git_links')
      .set({ polled_at: at })
      .where('space_id', '=', spaceId)
      .execute();
  }

  previews(spaceId: string): Promise<GitBranchPreviewRow[]> {
    return this.db
      .selectFrom('git_branch_previews')
      .selectAll()
      .where('space_id', '=', spaceId)
      .orderBy('branch')
      .execute();
  }

  async putPreview(row: GitBranchPreviewRow): Promise<void> {
    await this.db
      .insertInto('git_branch_previews')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['space_id', 'branch']).doUpdateSet({
          change_request_id: row.change_request_id,
          commit_oid: row.commit_oid,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  async deletePreview(spaceId: string, branch: string): Promise<void> {
    await this.db
      .deleteFrom('git_branch_previews')
      .where('space_id', '=', spaceId)
      .where('branch', '=', branch)
      .execute();
  }
}
