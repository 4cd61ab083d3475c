import type { Db } from '../../db/database.js';
import { prepareCached } from '../../db/prepared.js';
import type { SpaceRow } from '../../db/schema.js';
import { afterCursor, type PageRequest } from '../../http/pagination.js';

export class SpacesRepository {
  /** A space's organization, on every space-keyed request (cached while nothing changes). */
  private readonly organization;

  constructor(private readonly db: Db) {
    this.organization = prepareCached(
      db,
      (id: string) => db.selectFrom('spaces').select('organization_id').where('id', '=', id),
      ([row]) => row?.organization_id,
    );
  }

  organizationOf(id: string): Promise<string | undefined> {
    return this.organization(id);
  }

  async insert(row: SpaceRow): Promise<void> {
    await this.db.insertInto('spaces').values(row).execute();
  }

  async find(id: string): Promise<SpaceRow | undefined> {
    return this.db.selectFrom('spaces').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findInOrganization(id: string, organizationId: string): Promise<SpaceRow | undefined> {
    return this.db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
  }

  async update(id: string, change: Partial<SpaceRow>): Promise<SpaceRow | undefined> {
    return this.db
      .updateTable('spaces')
      .set(change)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** One page of an organization's spaces, oldest first. */
  async listInOrganization(organizationId: string, { cursor, limit }: PageRequest) {
    let query = this.db.selectFrom('spaces as s').where('s.organization_id', '=', organizationId);
    const { count } = await query
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (cursor) query = query.where(afterCursor('s', cursor));
    const rows = await query
      .selectAll('s')
      .orderBy('s.created_at')
      .orderBy('s.id')
      .limit(limit + 1)
      .execute();
    return { rows, count: Number(count) };
  }
}
