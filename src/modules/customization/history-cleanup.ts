import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';

/**
 * Customization history has no foreign keys (migration 0013: they cost every write a lookup), so
 * whoever deletes a site or a variant deletes its history, in the same transaction.
 */

/** The history of a site of `organizationId` and of each of its variants; call it before the site goes. */
export async function deleteSiteHistory(
  trx: Kysely<DatabaseSchema>,
  organizationId: string,
  siteId: string,
): Promise<void> {
  await trx
    .deleteFrom('customization_revisions')
    .where((eb) =>
      eb.or([
        eb(
          'scope',
          'in',
          eb
            .selectFrom('sites')
            .select('id')
            .where('id', '=', siteId)
            .where('organization_id', '=', organizationId),
        ),
        eb(
          'scope',
          'in',
          eb
            .selectFrom('site_spaces as ss')
            .innerJoin('sites as s', 's.id', 'ss.site_id')
            .select('ss.id')
            .where('s.id', '=', siteId)
            .where('s.organization_id', '=', organizationId),
        ),
      ]),
    )
    .execute();
}

/** The history of one variant (its site-space id is its history's scope). */
export async function deleteVariantHistory(
  trx: Kysely<DatabaseSchema>,
  siteSpaceId: string,
): Promise<void> {
  await trx.deleteFrom('customization_revisions').where('scope', '=', siteSpaceId).execute();
}
