import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKEND, createTestDatabase } from '../helpers/backend.js';
import { call, type Reply } from '../helpers/load.js';
import {
  bootstrapEnv,
  run,
  type ServerProcess,
  startTogether,
  startTwoOnFreshDatabase,
  type TwoProcesses,
} from '../helpers/process.js';

const TOKEN = 'gb_multi-process-test-token-0123456789';

/**
 * Two Livery processes on one database, started at the same moment on an empty one: the way
 * several processes run behind a load balancer on PostgreSQL (on SQLite, two processes on one
 * host share a file the same way).
 */
describe(`two processes, one database (${BACKEND})`, () => {
  let two: TwoProcesses;
  let a: ServerProcess;
  let b: ServerProcess;
  let orgId: string;
  before(async () => {
    two = await startTwoOnFreshDatabase(TOKEN);
    ({ a, b, orgId } = two);
  });
  after(async () => two?.close());

  test('starting together on an empty database: migrated once, bootstrapped once', async () => {
    const orgs = await call(b.url, TOKEN, 'GET', '/v1/orgs');
    assert.equal(orgs.status, 200);
    assert.equal(orgs.body.count, 1, 'one organization, not one per process');
    const banners = [a, b].filter((p) => p.stdout().includes('Livery first start')).length;
    assert.equal(banners, 1, 'exactly one process bootstrapped');
  });

  async function newVariant(server: ServerProcess): Promise<string> {
    const site = await call(server.url, TOKEN, 'POST', `/v1/orgs/${orgId}/sites`, {
      title: 'Docs',
      spaces: 'empty',
    });
    assert.equal(site.status, 201);
    const siteId = site.body.id as string;
    const list = await call(
      server.url,
      TOKEN,
      'GET',
      `/v1/orgs/${orgId}/sites/${siteId}/site-spaces`,
    );
    const variant = (list.body.items as { id: string }[])[0]?.id;
    return `/v1/orgs/${orgId}/sites/${siteId}/site-spaces/${variant}/customization`;
  }

  test('a write through one process is what the other answers on the very next request', async () => {
    const path = await newVariant(a);
    // Warm both caches, so a stale cached answer would show.
    await call(a.url, TOKEN, 'GET', path);
    await call(b.url, TOKEN, 'GET', path);
    for (let i = 0; i < 100; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const written = await call(writer.url, TOKEN, 'PATCH', path, { title: `write ${i}` });
      assert.equal(written.status, 200);
      const read = await call(reader.url, TOKEN, 'GET', path);
      assert.equal(read.body.title, `write ${i}`, `read ${i} through the other process`);
      assert.equal(read.etag, written.etag, 'both processes give the same ETag for it');
    }
  });

  test('a token revoked by another process (the CLI) is refused by both at once', async () => {
    const user = await call(a.url, TOKEN, 'GET', '/v1/user');
    const cli = (...args: string[]) =>
      run(['--import', 'tsx', 'src/cli.ts', ...args], { DATABASE_URL: two.databaseUrl });
    const created = await cli('tokens', 'create', '--user', user.body.id as string);
    assert.equal(created.code, 0, created.stderr);
    const token = /(gb_\S+)/.exec(created.stdout)?.[1] ?? '';
    const id = /(tok_\w+)/.exec(created.stdout)?.[1] ?? '';
    assert.equal((await call(a.url, token, 'GET', '/v1/user')).status, 200);
    assert.equal((await call(b.url, token, 'GET', '/v1/user')).status, 200);
    assert.equal((await cli('tokens', 'revoke', id)).code, 0);
    assert.equal((await call(a.url, token, 'GET', '/v1/user')).status, 401);
    assert.equal((await call(b.url, token, 'GET', '/v1/user')).status, 401);
  });

  test('ETag and If-Match hold across processes', async () => {
    const path = await newVariant(a);
    const seen = await call(a.url, TOKEN, 'GET', path);
    const fromB = await call(b.url, TOKEN, 'GET', path, undefined, {
      'if-none-match': seen.etag ?? '',
    });
    assert.equal(fromB.status, 304, 'the ETag of one process is current for the other');
    const updated = await call(
      b.url,
      TOKEN,
      'PATCH',
      path,
      { title: 'From B' },
      { 'if-match': seen.etag ?? '' },
    );
    assert.equal(updated.status, 200);
    const stale = await call(
      a.url,
      TOKEN,
      'PATCH',
      path,
      { title: 'From A' },
      { 'if-match': seen.etag ?? '' },
    );
    assert.equal(stale.status, 412, 'the other process knows the ETag is stale');
    assert.equal(stale.etag, updated.etag, 'and answers the current one');

    // Racing writers spread over both processes, all with the same If-Match: one wins.
    const current = await call(a.url, TOKEN, 'GET', path);
    const racers: Promise<Reply>[] = [];
    for (let i = 0; i < 16; i++) {
      const server = i % 2 === 0 ? a : b;
      racers.push(
        call(
          server.url,
          TOKEN,
          'PATCH',
          path,
          { title: `racer ${i}` },
          { 'if-match': current.etag ?? '' },
        ),
      );
    }
    const statuses = (await Promise.all(racers)).map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array(15).fill(412)]);
  });
});

// Kysely's SQLite adapter once ran migrations outside a transaction, under a lock that is a
// no-op on SQLite: of two processes starting on a new file, one could fail with "table already
// exists", now and then (db/sqlite-driver.ts). Several rounds of three make a regression show.
test(`three processes starting together on a new database, three times over (${BACKEND})`, async () => {
  for (let round = 1; round <= 3; round++) {
    const database = await createTestDatabase();
    let servers: ServerProcess[] = [];
    try {
      servers = await startTogether(bootstrapEnv(database.url, TOKEN), 3).catch((reason) =>
        assert.fail(`round ${round}: ${String(reason)}`),
      );
      const banners = servers.filter((s) => s.stdout().includes('Livery first start')).length;
      assert.equal(banners, 1, `round ${round}: exactly one process bootstrapped`);
      const orgs = await call(servers[2]?.url ?? '', TOKEN, 'GET', '/v1/orgs');
      assert.equal(orgs.body.count, 1, `round ${round}: one organization`);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await database.dispose();
    }
  }
});
