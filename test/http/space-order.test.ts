import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { createMigrator } from '../../src/db/migrate.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';

/**
 * moveSpace and the order it makes (docs/content.md, "The order of an organization's spaces"):
 * the organization's lists show it, page by page, new spaces go last, a move that changes
 * nothing is a 409, concurrent moves lose no space, and each move is in the audit log.
 */

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const post = (url: string, payload: object): InjectOptions => ({ method: 'POST', url, payload });
const pointer = (space: string) => ({ type: 'space', space });

async function newSpace(title: string): Promise<string> {
  const res = await t.request(post(`/v1/orgs/${t.orgId}/spaces`, { title }));
  return expectStatus(res, 201).id as string;
}

/** Every page of a list, `limit` at a time: the ids in order. */
async function walk(url: string, limit: number, idOf: (item: never) => string): Promise<string[]> {
  const ids: string[] = [];
  let page: string | undefined;
  do {
    const query = `limit=${limit}${page === undefined ? '' : `&page=${page}`}`;
    const body = expectStatus(await t.request({ url: `${url}?${query}` }), 200);
    ids.push(...(body.items as never[]).map(idOf));
    page = (body.next as { page: string } | undefined)?.page;
  } while (page !== undefined);
  return ids;
}

const listed = (limit = 2) =>
  walk(`/v1/orgs/${t.orgId}/spaces`, limit, (item: { id: string }) => item.id);
const listedForUser = (limit = 2) =>
  walk(`/v1/users/${t.userId}/spaces`, limit, (item: { space: { id: string } }) => item.space.id);

async function move(id: string, position: object): Promise<Record<string, unknown>> {
  return expectStatus(await t.request(post(`/v1/spaces/${id}/move`, { position })), 200);
}

test('a move puts the space there in every list, page after page; new spaces go last', async () => {
  const [a, b, c, d] = [
    await newSpace('A'),
    await newSpace('B'),
    await newSpace('C'),
    await newSpace('D'),
  ];
  assert.deepEqual(await listed(), [a, b, c, d]);

  const moved = await move(c, { before: pointer(a) });
  assert.equal(moved.object, 'space');
  assert.equal(moved.id, c);
  assert.equal(moved.title, 'C');
  for (const limit of [1, 2, 3, 100]) assert.deepEqual(await listed(limit), [c, a, b, d]);
  assert.deepEqual(await listedForUser(1), [c, a, b, d]);

  await move(a, { after: pointer(d) });
  assert.deepEqual(await listed(), [c, b, d, a]);
  await move(d, { before: pointer(c) });
  assert.deepEqual(await listed(3), [d, c, b, a]);

  const e = await newSpace('E');
  assert.deepEqual(await listed(), [d, c, b, a, e]);

  // Already there: GitBook's 409, and nothing changes.
  for (const [id, position] of [
    [d, { before: pointer(c) }],
    [c, { after: pointer(d) }],
  ] as const) {
    const message = expectError(await t.request(post(`/v1/spaces/${id}/move`, { position })), 409);
    assert.match(message, /would not result in any update/);
  }
  assert.deepEqual(await listed(), [d, c, b, a, e]);

  // A deleted space leaves the order; moved next to, it is not there.
  expectStatus(await t.request({ method: 'DELETE', url: `/v1/spaces/${b}` }), 205);
  assert.deepEqual(await listed(), [d, c, a, e]);
  const gone = expectError(
    await t.request(post(`/v1/spaces/${a}/move`, { position: { before: pointer(b) } })),
    400,
  );
  assert.match(gone, /^body\.position\.before\.space: /);
  await move(e, { before: pointer(d) });
  assert.deepEqual(await listed(), [e, d, c, a]);

  // The audit log records each move, with the space it was put next to.
  const log = expectStatus(
    await t.request({ url: `/v1/orgs/${t.orgId}/audit-log?action=space.moved&limit=100` }),
    200,
  );
  const entries = (log.items as { target: { id: string }; details: object }[]).reverse();
  assert.deepEqual(
    entries.map((entry) => [entry.target.id, entry.details]),
    [
      [c, { before: a }],
      [a, { after: d }],
      [d, { before: c }],
      [e, { before: d }],
    ],
  );
});

test('concurrent moves lose no space and leave one order', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 8; i += 1) ids.push(await newSpace(`Concurrent ${i}`));
  const before = await listed(100);
  const moves = ids.map((id, i) => {
    const target = ids[(i + 3) % ids.length] as string;
    return t.request(
      post(`/v1/spaces/${id}/move`, {
        position: i % 2 ? { after: pointer(target) } : { before: pointer(target) },
      }),
    );
  });
  for (const res of await Promise.all(moves))
    assert.ok([200, 409].includes(res.statusCode), res.body);
  const afterMoves = await listed(3);
  assert.deepEqual([...afterMoves].sort(), [...before].sort());
  assert.deepEqual(await listed(100), afterMoves);
});

test('migration 0029, down and up: existing spaces get their creation order back, moves work', async () => {
  const created = await listed(100);
  const [first, second] = created as [string, string];
  await move(first, { after: pointer(second) });
  const migrator = await createMigrator(t.db);
  const down = await migrator.migrateTo('0028_space_trash');
  assert.equal(down.error, undefined);
  assert.ok(down.results?.some((r) => r.migrationName === '0029_space_order'));
  assert.equal((await migrator.migrateToLatest()).error, undefined);

  const byCreation = await t.db
    .selectFrom('spaces')
    .select('id')
    .where('organization_id', '=', t.orgId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  assert.deepEqual(
    await listed(3),
    byCreation.map((row) => row.id),
  );
  const last = byCreation.at(-1)?.id as string;
  await move(last, { before: pointer(byCreation[0]?.id as string) });
  assert.deepEqual(await listed(3), [last, ...byCreation.slice(0, -1).map((row) => row.id)]);
});
