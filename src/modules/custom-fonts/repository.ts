import type { Db } from '../../db/database.js';
import { containsIgnoringCase } from '../../db/like.js';
import type { CustomFontRow } from '../../db/schema.js';
import { type AuditEntry, recordAudit } from '../audit/record.js';
import { customFontIds } from './faces.js';

/** A site, as a refusal to delete a font names it. */
export interface SiteUsing {
  id: string;
  title: string;
}

/** An organization's custom fonts (docs/customization.md, "Custom fonts"). */
export class CustomFontsRepository {
  constructor(private readonly db: Db) {}

  /** Every font of the organization, oldest first (a few dozen at most: MAX_FONTS). */
  list(organizationId: string): Promise<CustomFontRow[]> {
    return this.db
      .selectFrom('custom_fonts')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('custom_fonts')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  find(organizationId: string, id: string): Promise<CustomFontRow | undefined> {
    return this.db
      .selectFrom('custom_fonts')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Writes a font (new or changed) with its audit entry, in one transaction. */
  async save(row: CustomFontRow, isNew: boolean, audit: AuditEntry): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (isNew) await trx.insertInto('custom_fonts').values(row).execute();
      else {
        const { id, organization_id: _org, created_at: _created, ...fields } = row;
        await trx.updateTable('custom_fonts').set(fields).where('id', '=', id).execute();
      }
      await recordAudit(trx, audit);
    });
  }

  /** Deletes a font with its audit entry; false when it was not there. */
  async remove(organizationId: string, id: string, audit: AuditEntry): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('custom_fonts')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return false;
      await recordAudit(trx, audit);
      return true;
    });
  }

  /**
   * The sites of the organization whose customization, or one of whose variants' overrides,
   * chooses the font in `styling.font`, `monospaceFont` or `headingFont`. The text search only
   * narrows the rows to parse; the parsed font fields decide.
   */
  async sitesUsing(organizationId: string, fontId: string): Promise<SiteUsing[]> {
    const [sites, variants] = await Promise.all([
      this.db
        .selectFrom('sites')
        .select(['id', 'title', 'customization as json'])
        .where('organization_id', '=', organizationId)
        .where(containsIgnoringCase('customization', fontId))
        .execute(),
      this.db
        .selectFrom('site_spaces')
        .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
        .select(['sites.id as id', 'sites.title as title', 'site_spaces.override as json'])
        .where('sites.organization_id', '=', organizationId)
        .where(containsIgnoringCase('site_spaces.override', fontId))
        .execute(),
    ]);
    const using = new Map<string, SiteUsing>();
    for (const row of [...sites, ...variants]) {
      if (customFontIds(row.json).includes(fontId))
        using.set(row.id, { id: row.id, title: row.title });
    }
    return [...using.values()].sort(
      (a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id),
    );
  }
}
