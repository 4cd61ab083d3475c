import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

/** The channel on which every committed change to Livery's tables is announced (PostgreSQL). */
export const CHANGES_CHANNEL = 'livery_changes';

/**
 * For migrations: every statement that changes one of these tables announces, at commit, a
 * notification on CHANGES_CHANNEL whose payload is the schema. Other Livery processes on the same
 * database drop their cached reads when it arrives (db/postgres.ts). Triggers, rather than
 * notifications sent by Livery's code, also cover the CLI, psql and any other writer.
 * PostgreSQL folds identical notifications of one transaction into one. No-op on SQLite, where
 * `data_version` gives the same information.
 */
export async function announceChanges(db: Kysely<unknown>, tables: string[]): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create or replace function livery_announce_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(CHANGES_CHANNEL)}, tg_table_schema);
      return null;
    end $$`.execute(db);
  for (const table of tables) {
    await sql`
      create trigger ${sql.id(`${table}_announce_change`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function livery_announce_change()`.execute(db);
  }
}
