import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { Type } from 'typebox';
import { badRequest } from '../errors.js';
import { isWellFormedText } from '../well-formed-text.js';
import { INT32_MAX, INT32_MIN } from './strict-integers.js';

/**
 * GitBook's list convention: `?page=<opaque cursor>&limit=<1..1000>` in, `{items, next?: {page},
 * count}` out, `next` absent on the last page. Cursors are keyset positions (the list's sort key,
 * usually the creation time, then the id), so a page never skips or repeats an item when others
 * are added meanwhile.
 */

export const DEFAULT_PAGE_SIZE = 100;

export const PageQuery = {
  page: Type.Optional(Type.String({ description: 'Identifier of the page results to fetch.' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'The number of results per page' }),
  ),
};

export interface Cursor {
  key: string | number;
  id: string;
}

/**
 * What a list sorts by, so what its cursors' keys must be: text (a creation time, an ISO date)
 * or an integer within PostgreSQL's 32-bit `integer` (a revision number, a position).
 */
export type CursorKey = 'text' | 'integer';

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString('base64url');
}

/**
 * A list's `?page`, decoded and checked before it reaches any query: a forged cursor must get the
 * same 400 on both backends, where PostgreSQL would fail (a NUL in its text, a key of the wrong
 * type, an integer beyond 32 bits) and SQLite would not.
 */
export function decodeCursor(
  page: string | undefined,
  key: CursorKey = 'text',
): Cursor | undefined {
  if (page === undefined) return undefined;
  const cursor = parseCursor(page);
  if (cursor !== undefined && isWellFormedText(cursor.id) && keyFits(cursor.key, key)) {
    return cursor;
  }
  throw badRequest('querystring.page is not a page cursor returned by this list');
}

function parseCursor(page: string): Cursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      (typeof value[0] === 'string' || typeof value[0] === 'number') &&
      typeof value[1] === 'string'
    ) {
      return { key: value[0], id: value[1] };
    }
  } catch {
    // not JSON: not a cursor this server issued
  }
  return undefined;
}

function keyFits(value: string | number, key: CursorKey): boolean {
  return key === 'text'
    ? typeof value === 'string' && isWellFormedText(value)
    : Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX;
}

/** `(t.key, t.id) > (cursor)`: a row-value comparison both SQLite and PostgreSQL run. */
export function afterCursor(
  table: string,
  cursor: Cursor,
  keyColumn = 'created_at',
): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${table}.${keyColumn}`)}, ${sql.ref(`${table}.id`)}) > (${cursor.key}, ${cursor.id})`;
}

export interface PageRequest {
  cursor: Cursor | undefined;
  limit: number;
}

/**
 * One page of a list ordered by creation time (or `keyColumn`) then id: the count of every row
 * `query` matches, and up to `limit + 1` rows after the cursor (for toPage). `alias` is the
 * listed table's alias in `query`; `select` picks the columns.
 */
export async function keysetPage<DB, TB extends keyof DB, O>(
  // biome-ignore lint/complexity/noBannedTypes: Kysely's type for a query with nothing selected yet
  query: SelectQueryBuilder<DB, TB, {}>,
  alias: string,
  { cursor, limit }: PageRequest,
  // biome-ignore lint/complexity/noBannedTypes: as above
  select: (query: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
  keyColumn = 'created_at',
): Promise<{ rows: O[]; count: number }> {
  const counted = await query.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
  const listed = cursor === undefined ? query : query.where(afterCursor(alias, cursor, keyColumn));
  const rows = await select(listed)
    .orderBy(sql.ref(`${alias}.${keyColumn}`))
    .orderBy(sql.ref(`${alias}.id`))
    .limit(limit + 1)
    .execute();
  return { rows: rows as O[], count: Number((counted as { count: number }).count) };
}

/**
 * Reads `?page` and `?limit` (already validated by PageQuery); an unknown cursor is a 400. `key`
 * is what the list sorts by (decodeCursor).
 */
export function pageRequest(
  query: { page?: string | undefined; limit?: number | undefined },
  key: CursorKey = 'text',
) {
  return { cursor: decodeCursor(query.page, key), limit: query.limit ?? DEFAULT_PAGE_SIZE };
}

export interface Page<T> {
  items: T[];
  next?: { page: string };
  count: number;
}

/**
 * Rows were fetched with `limit + 1`: the extra row only says that another page exists.
 * `keyOf` gives a row's sort key (its creation time unless the list sorts otherwise).
 */
export function toPage<R extends { id: string }, T>(
  rows: R[],
  limit: number,
  count: number,
  toItem: (row: R) => T,
  keyOf: (row: R) => string | number = (row) => (row as R & { created_at: string }).created_at,
): Page<T> {
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  const page: Page<T> = { items: pageRows.map(toItem), count };
  if (rows.length > limit && last !== undefined) {
    page.next = { page: encodeCursor({ key: keyOf(last), id: last.id }) };
  }
  return page;
}

export const ListSchema = <T extends Parameters<typeof Type.Array>[0]>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    next: Type.Optional(
      Type.Object({
        page: Type.String({ description: 'Unique identifier to query the next results page' }),
      }),
    ),
    count: Type.Optional(Type.Number({ description: 'Total count of objects in the list' })),
  });
