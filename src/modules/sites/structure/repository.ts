import type { Db } from '../../../db/database.js';
import { lockRows } from '../../../db/dialect.js';
import { prepareCached } from '../../../db/prepared.js';
import type {
  SiteExternalLinkRow,
  SiteSectionGroupRow,
  SiteSectionRow,
  SiteSpaceRow,
  SpaceRow,
} from '../../../db/schema.js';
import { type AuditEntry, recordAudit } from '../../audit/record.js';
import { deleteVariantHistory } from '../../customization/history-cleanup.js';
import { copySpaceContent } from '../../spaces/copy.js';
import { initialRevisionRow } from '../../spaces/service.js';
import type { Executor } from '../repository.js';
import type { NodeKind, StructureRows } from './tree.js';

/** What SiteStructureRepository.change answers when the site no longer exists. */
export const SITE_GONE: unique symbol = Symbol('site gone');

/** The table of each kind of structure node. */
export const NODE_TABLES = {
  'site-section': 'site_sections',
  'site-section-group': 'site_section_groups',
  'site-external-link': 'site_external_links',
} as const satisfies Record<NodeKind, string>;

type NodeTable = (typeof NODE_TABLES)[NodeKind];

/**
 * A site's structure as one transaction sees it: the site's row is locked first (as every change
 * of a site's variants does, site-spaces-repository.ts), so two changes of one site's structure
 * never interleave, and what is read stays true until commit.
 */
export class StructureTx {
  constructor(
    readonly trx: Executor,
    readonly siteId: string,
  ) {}

  async rows(): Promise<StructureRows> {
    const [sections, groups, links] = await Promise.all([
      this.trx.selectFrom('site_sections').selectAll().where('site_id', '=', this.siteId).execute(),
      this.trx
        .selectFrom('site_section_groups')
        .selectAll()
        .where('site_id', '=', this.siteId)
        .execute(),
      this.trx
        .selectFrom('site_external_links')
        .selectAll()
        .where('site_id', '=', this.siteId)
        .execute(),
    ]);
    return { sections, groups, links };
  }

  variants(): Promise<SiteSpaceRow[]> {
    return this.trx
      .selectFrom('site_spaces')
      .selectAll()
      .where('site_id', '=', this.siteId)
      .execute();
  }

  insertSection(row: SiteSectionRow) {
    return this.trx.insertInto('site_sections').values(row).execute();
  }

  insertGroup(row: SiteSectionGroupRow) {
    return this.trx.insertInto('site_section_groups').values(row).execute();
  }

  insertLink(row: SiteExternalLinkRow) {
    return this.trx.insertInto('site_external_links').values(row).execute();
  }

  /** Inserts a variant; with `newSpace`, the space it shows too (and its empty revision). */
  async insertVariant(row: SiteSpaceRow, newSpace?: SpaceRow): Promise<void> {
    if (newSpace !== undefined) {
      await this.trx.insertInto('spaces').values(newSpace).execute();
      await this.trx.insertInto('revisions').values(initialRevisionRow(newSpace)).execute();
    }
    await this.trx.insertInto('site_spaces').values(row).execute();
  }

  /** Makes `copy` a copy of `source` as it is now (spaces/copy.ts). */
  copySpace(source: SpaceRow, copy: SpaceRow): Promise<void> {
    return copySpaceContent(this.trx, source, copy);
  }

  /** Whether the space exists, locked until commit so that it cannot be deleted meanwhile. */
  async lockSpace(spaceId: string): Promise<boolean> {
    const space = await lockRows(
      this.trx,
      this.trx
        .selectFrom('spaces')
        .select('id')
        .where('id', '=', spaceId)
        .where('deleted_at', 'is', null),
      'spaces',
    ).executeTakeFirst();
    return space !== undefined;
  }

  async updateNode<K extends NodeKind>(
    kind: K,
    id: string,
    change: Partial<SiteSectionRow & SiteExternalLinkRow>,
  ): Promise<void> {
    if (Object.keys(change).length === 0) return;
    const table: NodeTable = NODE_TABLES[kind];
    await this.trx
      .updateTable(table as 'site_sections')
      .set(change as Partial<SiteSectionRow>)
      .where('id', '=', id)
      .where('site_id', '=', this.siteId)
      .execute();
  }

  async updateVariant(id: string, change: Partial<SiteSpaceRow>): Promise<void> {
    if (Object.keys(change).length === 0) return;
    await this.trx
      .updateTable('site_spaces')
      .set(change)
      .where('id', '=', id)
      .where('site_id', '=', this.siteId)
      .execute();
  }

  /** Sets the positions of siblings (of any kinds) to 1, 2, … in the order given. */
  async renumber(order: readonly { kind: NodeKind; id: string }[]): Promise<void> {
    for (const [index, node] of order.entries()) {
      await this.updateNode(node.kind, node.id, { position: index + 1 });
    }
  }

  /** Sets the positions of a section's (or a site's) variants to 1, 2, … in the order given. */
  async renumberVariants(order: readonly string[]): Promise<void> {
    for (const [index, id] of order.entries())
      await this.updateVariant(id, { position: index + 1 });
  }

  /** Makes one section the site's default (the others not), in one consistent change. */
  async makeDefaultSection(sectionId: string): Promise<void> {
    await this.trx
      .updateTable('site_sections')
      .set({ is_default: 0 })
      .where('site_id', '=', this.siteId)
      .where('is_default', '=', 1)
      .where('id', '!=', sectionId)
      .execute();
    await this.updateNode('site-section', sectionId, { is_default: 1 });
  }

  /** Makes one variant the default of its section (or of a site without sections). */
  async makeDefaultVariant(variant: Pick<SiteSpaceRow, 'id' | 'section_id'>): Promise<void> {
    let others = this.trx
      .updateTable('site_spaces')
      .set({ is_default: 0 })
      .where('site_id', '=', this.siteId)
      .where('is_default', '=', 1)
      .where('id', '!=', variant.id);
    others =
      variant.section_id === null
        ? others.where('section_id', 'is', null)
        : others.where('section_id', '=', variant.section_id);
    await others.execute();
    await this.updateVariant(variant.id, { is_default: 1 });
  }

  /** Deletes a variant and its customization history. */
  async deleteVariant(id: string): Promise<void> {
    await deleteVariantHistory(this.trx, id);
    await this.trx
      .deleteFrom('site_spaces')
      .where('id', '=', id)
      .where('site_id', '=', this.siteId)
      .execute();
  }

  async deleteNode(kind: NodeKind, id: string): Promise<void> {
    const table: NodeTable = NODE_TABLES[kind];
    await this.trx
      .deleteFrom(table as 'site_sections')
      .where('id', '=', id)
      .where('site_id', '=', this.siteId)
      .execute();
  }

  /** Moves a site's top-level variants (a site without sections) into a section. */
  async moveTopLevelVariantsInto(sectionId: string): Promise<void> {
    await this.trx
      .updateTable('site_spaces')
      .set({ section_id: sectionId })
      .where('site_id', '=', this.siteId)
      .where('section_id', 'is', null)
      .execute();
  }

  audit(...entries: AuditEntry[]): Promise<void> {
    return recordAudit(this.trx, ...entries);
  }
}

/** Reads and writes of sites' structure: sections, section groups, external links. */
export class SiteStructureRepository {
  private readonly sections;
  private readonly groups;
  private readonly links;

  constructor(private readonly db: Db) {
    // Kept while the database is unchanged (db/prepared.ts): every published page reads them.
    this.sections = prepareCached(
      db,
      (siteId: string) => db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId),
      (rows) => rows,
      1_000,
    );
    this.groups = prepareCached(
      db,
      (siteId: string) =>
        db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId),
      (rows) => rows,
      1_000,
    );
    this.links = prepareCached(
      db,
      (siteId: string) =>
        db.selectFrom('site_external_links').selectAll().where('site_id', '=', siteId),
      (rows) => rows,
      1_000,
    );
  }

  /** A site's structure rows (cached; callers must not change them). */
  async rowsOf(siteId: string): Promise<StructureRows> {
    const [sections, groups, links] = await Promise.all([
      this.sections(siteId),
      this.groups(siteId),
      this.links(siteId),
    ]);
    return { sections, groups, links };
  }

  /** The sections of a site (cached). */
  sectionsOf(siteId: string): Promise<SiteSectionRow[]> {
    return this.sections(siteId);
  }

  /**
   * Runs `change` in one transaction holding the site's lock. SITE_GONE when the site is gone;
   * a throw rolls everything back.
   */
  async change<T>(
    siteId: string,
    change: (tx: StructureTx) => Promise<T>,
  ): Promise<T | typeof SITE_GONE> {
    return this.db.transaction().execute(async (trx) => {
      const site = await lockRows(
        trx,
        trx.selectFrom('sites').select('id').where('id', '=', siteId),
        'sites',
      ).executeTakeFirst();
      if (site === undefined) return SITE_GONE;
      return change(new StructureTx(trx, siteId));
    });
  }
}
