import type { Db } from '../../db/database.js';

/** What a write's tags are looked up from: which sites show a space, which spaces a site shows. */
export interface TagLookups {
  sitesShowing(spaceId: string): Promise<string[]>;
  spacesShownBy(siteId: string): Promise<string[]>;
}

export function tagLookups(db: Db): TagLookups {
  return {
    sitesShowing: async (spaceId) =>
      (
        await db
          .selectFrom('site_spaces')
          .select('site_id')
          .distinct()
          .where('space_id', '=', spaceId)
          .execute()
      ).map((row) => row.site_id),
    spacesShownBy: async (siteId) =>
      (
        await db
          .selectFrom('site_spaces')
          .select('space_id')
          .distinct()
          .where('site_id', '=', siteId)
          .execute()
      ).map((row) => row.space_id),
  };
}
