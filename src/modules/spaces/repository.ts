import type { Db } from '../../db/database.js';
import type { SpaceRow } from '../../db/schema.js';

export class SpacesRepository {
  constructor(private readonly db: Db) {}

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
}
