import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * What Kysely's migrator asks of introspection (does the schema exist, do the migration tables
 * exist), answered from the catalog for the connection's own schemas only.
 *
 * Kysely's PostgresIntrospector lists every table of every schema and calls name-based functions
 * (`has_schema_privilege(nspname, …)`, `pg_get_serial_sequence(…)`) on each row: when another
 * client drops a schema while that query runs, it fails with "schema … does not exist", and so
 * did Livery's start-up (seen when test runs on one server create and drop schemas in
 * parallel; it would be the same for several Livery installations sharing a database). This one
 * reads catalog columns only, of the schemas on the `search_path`.
 */
export class OwnSchemaIntrospector implements DatabaseIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: introspection queries catalog tables outside Livery's schema type
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string; kind: string }>`
      select n.nspname as schema, c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any (current_schemas(false)) and c.relkind in ('r', 'p', 'v')
      order by n.nspname, c.relname`.execute(this.db);
    return rows.map((row) => ({
      schema: row.schema,
      name: row.name,
      isView: row.kind === 'v',
      columns: [], // the migrator needs names only
    }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
