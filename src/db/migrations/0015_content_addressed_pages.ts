import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

// Shipped migrations are never edited: a change to the schema is a new numbered file. This one
// imports nothing from the content module: the serialization below is frozen here, and must give
// the hashes that module gives (content/storage/node.ts; test/http/content-storage.test.ts compares
// them), so that the nodes and bodies moved here are shared with those written afterwards.

/**
 * Content-addressed pages (docs/content.md, "Storage"). A revision stored its whole page tree,
 * Markdown included, as one JSON text, so storage grew with the square of the edits. Now page
 * bodies (Markdown) are rows of `page_bodies` keyed by the hash of their text, and pages without
 * their bodies and children are rows of `page_nodes` keyed by the hash of their canonical JSON,
 * which names the body's hash and the children's node hashes: a Merkle tree, so revisions share
 * every unchanged page. A revision keeps the node hashes of its top-level pages, in the column
 * `pages` renamed `page_nodes`.
 *
 * Both tables belong to a space and go with it (ON DELETE CASCADE, as revisions): revisions are
 * never deleted otherwise, so a row is never unreferenced while its space exists. Neither
 * announces its changes (db/change-notifications.ts): rows never change, and what caches them is
 * keyed by hash.
 *
 * Every existing revision is moved, a space at a time and at most BATCH_BYTES of revisions in
 * memory at a time, in the migration's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Bodies are large: an ordinary table (the row's Markdown in overflow pages on SQLite), its key
  // in the primary-key index.
  await db.schema
    .createTable('page_bodies')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('markdown', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_bodies_pk', ['space_id', 'hash'])
    .execute();
  // Nodes are small: clustered by their key on SQLite (WITHOUT ROWID), one B-tree.
  await db.schema
    .createTable('page_nodes')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('node', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_nodes_pk', ['space_id', 'hash'])
    .modifyEnd(isPostgres(db) ? sql`` : sql`without rowid`)
    .execute();
  await eachRevision(db as Kysely<Tables>, async (trx, spaceId, rows, seen) => {
    const nodes = new Map<string, string>();
    const bodies = new Map<string, string>();
    for (const row of rows) {
      const tree = JSON.parse(row.pages) as OldPage[];
      const roots = tree.map((page) => encodePage(page, nodes, bodies));
      await trx
        .updateTable('revisions')
        .set({ pages: JSON.stringify(roots) })
        .where('id', '=', row.id)
        .execute();
    }
    await insertNew(trx, 'page_bodies', 'markdown', spaceId, bodies, seen);
    await insertNew(trx, 'page_nodes', 'node', spaceId, nodes, seen);
  });
  await db.schema.alterTable('revisions').renameColumn('pages', 'page_nodes').execute();
}

/** Back to whole trees in the revision rows (tests go down and up again). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('revisions').renameColumn('page_nodes', 'pages').execute();
  await eachRevision(db as Kysely<Tables>, async (trx, spaceId, rows) => {
    for (const row of rows) {
      const roots = JSON.parse(row.pages) as string[];
      const tree = await readTree(trx, spaceId, roots);
      await trx
        .updateTable('revisions')
        .set({ pages: JSON.stringify(tree) })
        .where('id', '=', row.id)
        .execute();
    }
  });
  await db.schema.dropTable('page_nodes').execute();
  await db.schema.dropTable('page_bodies').execute();
}

interface Tables {
  revisions: { id: string; space_id: string; pages: string };
  page_nodes: { space_id: string; hash: string; node: string };
  page_bodies: { space_id: string; hash: string; markdown: string };
}

/** A page as revisions stored it before (content/tree.ts StoredPage of that release). */
interface OldPage {
  markdown?: string;
  pages?: OldPage[];
  [field: string]: unknown;
}

/** Revisions read into memory at once, by the length of their `pages` (at least one). */
const BATCH_BYTES = 16 * 1024 * 1024;
const IDS = 500;
/** Rows per multi-row insert or `IN (…)` lookup. */
const ROWS = 250;
/** Hashes remembered per space as written, past which conflicts do the remembering. */
const SEEN = 1_000_000;

type Batch = (
  trx: Kysely<Tables>,
  spaceId: string,
  rows: { id: string; pages: string }[],
  seen: Set<string>,
) => Promise<void>;

/** Every revision, a space at a time, in batches of at most BATCH_BYTES (or one revision). */
async function eachRevision(db: Kysely<Tables>, batch: Batch): Promise<void> {
  for (let after = ''; ; ) {
    const spaces = await db
      .selectFrom('revisions')
      .select('space_id')
      .distinct()
      .where('space_id', '>', after)
      .orderBy('space_id')
      .limit(IDS)
      .execute();
    for (const { space_id: spaceId } of spaces) {
      const seen = new Set<string>();
      for (let afterId = ''; ; ) {
        const ids = await db
          .selectFrom('revisions')
          .select(['id', sql<number>`length(pages)`.as('size')])
          .where('space_id', '=', spaceId)
          .where('id', '>', afterId)
          .orderBy('id')
          .limit(IDS)
          .execute();
        for (let start = 0; start < ids.length; ) {
          let end = start + 1;
          let bytes = Number(ids[start]?.size ?? 0);
          while (end < ids.length && bytes + Number(ids[end]?.size ?? 0) <= BATCH_BYTES) {
            bytes += Number(ids[end]?.size ?? 0);
            end += 1;
          }
          const wanted = ids.slice(start, end).map((row) => row.id);
          const rows = await db
            .selectFrom('revisions')
            .select(['id', 'pages'])
            .where('id', 'in', wanted)
            .execute();
          await batch(db, spaceId, rows, seen);
          if (seen.size > SEEN) seen.clear();
          start = end;
        }
        if (ids.length < IDS) break;
        afterId = ids[ids.length - 1]?.id ?? afterId;
      }
    }
    if (spaces.length < IDS) break;
    after = spaces[spaces.length - 1]?.space_id ?? after;
  }
}

async function insertNew(
  db: Kysely<Tables>,
  table: 'page_bodies' | 'page_nodes',
  column: 'markdown' | 'node',
  spaceId: string,
  rows: Map<string, string>,
  seen: Set<string>,
): Promise<void> {
  const fresh = [...rows].filter(([hash]) => !seen.has(hash));
  for (let start = 0; start < fresh.length; start += ROWS) {
    const values = fresh
      .slice(start, start + ROWS)
      .map(([hash, text]) => ({ space_id: spaceId, hash, [column]: text }));
    await db
      .insertInto(table)
      .values(values as never)
      .onConflict((oc) => oc.columns(['space_id', 'hash']).doNothing())
      .execute();
  }
  for (const [hash] of fresh) seen.add(hash);
}

// The serialization, frozen (content/storage/node.ts as of this migration).

function encodePage(page: OldPage, nodes: Map<string, string>, bodies: Map<string, string>) {
  const { markdown, pages, ...fields } = page;
  const children = (pages ?? []).map((child) => encodePage(child, nodes, bodies));
  let body: string | undefined;
  if (markdown !== undefined) {
    body = sha256(markdown);
    bodies.set(body, markdown);
  }
  const json = canonicalJson({ ...fields, body, pages: children });
  const hash = sha256(json);
  nodes.set(hash, json);
  return hash;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64url');

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** (down) A revision's tree rebuilt from its nodes and bodies. */
async function readTree(db: Kysely<Tables>, spaceId: string, roots: string[]) {
  const nodes = new Map<string, { body?: string; pages: string[] } & Record<string, unknown>>();
  for (let level = roots; level.length > 0; ) {
    for (let start = 0; start < level.length; start += ROWS) {
      const rows = await db
        .selectFrom('page_nodes')
        .select(['hash', 'node'])
        .where('space_id', '=', spaceId)
        .where('hash', 'in', level.slice(start, start + ROWS))
        .execute();
      for (const row of rows) nodes.set(row.hash, JSON.parse(row.node));
    }
    level = level.flatMap((hash) => nodes.get(hash)?.pages ?? []);
  }
  const wanted = [...new Set([...nodes.values()].flatMap((node) => node.body ?? []))];
  const bodies = new Map<string, string>();
  for (let start = 0; start < wanted.length; start += ROWS) {
    const rows = await db
      .selectFrom('page_bodies')
      .select(['hash', 'markdown'])
      .where('space_id', '=', spaceId)
      .where('hash', 'in', wanted.slice(start, start + ROWS))
      .execute();
    for (const row of rows) bodies.set(row.hash, row.markdown);
  }
  const build = (hash: string): OldPage => {
    const node = nodes.get(hash);
    if (node === undefined) throw new Error(`page node ${hash} of space ${spaceId} is missing`);
    const { body, pages, ...fields } = node;
    const markdown = body === undefined ? undefined : bodies.get(body);
    if (body !== undefined && markdown === undefined) {
      throw new Error(`page body ${body} of space ${spaceId} is missing`);
    }
    return { ...fields, ...(markdown === undefined ? {} : { markdown }), pages: pages.map(build) };
  };
  return roots.map(build);
}
