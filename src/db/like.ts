import { type RawBuilder, sql } from 'kysely';

/**
 * `lower(column) LIKE '%text%'`: case-insensitive "contains" on both dialects (LIKE is
 * case-insensitive in SQLite but not in PostgreSQL, hence lower() on both sides), with `%` and
 * `_` in the text matched literally.
 */
export function containsIgnoringCase(column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}
