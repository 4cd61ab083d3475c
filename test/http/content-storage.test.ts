/**
 * How revisions are stored (docs/content.md, "Storage"): page bodies and page nodes shared between
 * revisions by content, so that storage grows with what changed, not with the size of the space
 * times the number of edits. Real HTTP, real database, either backend.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { isPostgres } from '../../src/db/dialect.js';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const post = async (url: string, payload: Record<string, unknown>, status = 200) =>
  expectStatus(await t.request({ method: 'POST', url, payload }), status);
const get = async (url: string) => expectStatus(await t.request({ method: 'GET', url }), 200);

async function newChangeRequest(title: string) {
  const space = (await post(`/v1/orgs/${t.orgId}/spaces`, { title }, 201)).id as string;
  const cr = (await post(`/v1/spaces/${space}/change-requests`, {}, 201)).id as string;
  return { space, cr, content: `/v1/spaces/${space}/change-requests/${cr}/content` };
}

/** Text that compresses about as badly as prose compresses well: no backend can make it small. */
const incompressible = (bytes: number) =>
  randomBytes(Math.ceil((bytes * 3) / 4))
    .toString('base64')
    .slice(0, bytes)
    .replace(/(.{79})./g, '$1\n');

/** The database's size in bytes: SQLite's pages, or every relation of the schema (PostgreSQL). */
async function databaseBytes(): Promise<number> {
  if (isPostgres(t.db)) {
    const { rows } = await sql<{ bytes: string }>`
      select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(t.db);
    return Number(rows[0]?.bytes);
  }
  const count = await sql<{ page_count: number }>`pragma page_count`.execute(t.db);
  const size = await sql<{ page_size: number }>`pragma page_size`.execute(t.db);
  return Number(count.rows[0]?.page_count) * Number(size.rows[0]?.page_size);
}

const rowCount = async (table: 'page_nodes' | 'page_bodies', space: string) =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('space_id', '=', space)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(`storage proportional to change (${BACKEND})`, () => {
  test('30 page inserts grow the database by at most 1.5x the Markdown written', async (context) => {
    // The case: 30 inserts of 14 MB of Markdown in all grew the database by 227 MB (16x)
    // when every revision stored the whole tree again.
    const { content } = await newChangeRequest('Thirty');
    const inserts = 30;
    const perPage = Math.floor((14 * 1024 * 1024) / inserts);
    const before = await databaseBytes();
    let written = 0;
    for (let i = 0; i < inserts; i++) {
      const markdown = `# Page ${i}\n\n${incompressible(perPage)}`;
      written += Buffer.byteLength(markdown);
      await post(content, {
        changes: [{ operation: 'insert_page', title: `Page ${i}`, document: { markdown } }],
      });
    }
    const growth = (await databaseBytes()) - before;
    const ratio = growth / written;
    const figures = `${(growth / 1024 / 1024).toFixed(1)} MiB of growth for ${(written / 1024 / 1024).toFixed(1)} MiB of Markdown: ${ratio.toFixed(2)}x`;
    context.diagnostic(figures);
    assert.ok(ratio <= 1.5, figures);
  });

  test('an edit stores the new body, the page node and its ancestors only', async () => {
    const { space, content } = await newChangeRequest('Deep');
    const doc = (title: string, into?: string) => ({
      operation: 'insert_page',
      title,
      document: { markdown: `# ${title}\n\nAbout ${title}.` },
      ...(into === undefined ? {} : { into }),
    });
    await post(content, { changes: [doc('A'), doc('B'), doc('C')] });
    const tops = (await get(`${content}/pages`)).pages as { id: string }[];
    await post(content, { changes: tops.map((top) => doc('Child', top.id)) });
    const withChildren = (await get(`${content}/pages`)).pages as {
      id: string;
      pages: { id: string }[];
    }[];
    const parent = withChildren[1]?.id ?? '';
    const child = withChildren[1]?.pages[0]?.id ?? '';
    await post(content, { changes: [doc('Grandchild', child)] });
    const grandchild =
      (
        (await get(`${content}/page/${child}`)) as {
          pages: { id: string }[];
        }
      ).pages[0]?.id ?? '';
    assert.ok(parent && child && grandchild);

    const counts = async () => [
      await rowCount('page_nodes', space),
      await rowCount('page_bodies', space),
    ];
    const start = await counts();
    // New Markdown for the grandchild: its body, its node, and the nodes of its two ancestors.
    const markdown = 'Rewritten.';
    await post(content, {
      changes: [{ operation: 'update_page', page: grandchild, document: { markdown } }],
    });
    assert.deepEqual(await counts(), [(start[0] ?? 0) + 3, (start[1] ?? 0) + 1]);
    // A top-level page's title: no body, one node (it has no ancestors).
    await post(content, { changes: [{ operation: 'update_page', page: parent, title: 'Bee' }] });
    assert.deepEqual(await counts(), [(start[0] ?? 0) + 4, (start[1] ?? 0) + 1]);
    // Markdown some page already has: no new body.
    await post(content, {
      changes: [{ operation: 'update_page', page: tops[2]?.id, document: { markdown } }],
    });
    assert.deepEqual(await counts(), [(start[0] ?? 0) + 5, (start[1] ?? 0) + 1]);
    const page = (await get(`${content}/page/${grandchild}?format=markdown`)) as {
      markdown: string;
    };
    assert.equal(page.markdown, markdown);
  });
});
