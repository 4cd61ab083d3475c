import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { type Db, freshnessFenceOf, openDatabase } from '../../src/db/database.js';
import { groupCommitOf } from '../../src/db/group-commit.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { prepareCached } from '../../src/db/prepared.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { adminQuery, BACKEND, createTestDatabase, type TestDatabase } from '../helpers/backend.js';

/** A second, independent connection to the same database: what another process (the CLI) is. */
function otherConnection(url: string): Db {
  return openDatabase(loadConfig({ DATABASE_URL: url }).database);
}

describe('cached reads (prepareCached) never answer older data than the database holds', () => {
  let database: TestDatabase;
  let db: Db;
  let other: Db;
  before(async () => {
    database = await createTestDatabase();
    db = otherConnection(database.url);
    await migrateToLatest(db);
    other = otherConnection(database.url);
    await db
      .insertInto('organizations')
      .values({ id: 'o1', title: 'First', created_at: '2026-01-01T00:00:00.000Z' })
      .execute();
  });
  after(async () => {
    await db.destroy();
    await other.destroy();
    await database.dispose();
  });

  test('a commit by another connection is seen by the next read', async () => {
    let executions = 0;
    const title = prepareCached(
      db,
      (id: string) => {
        executions += 1;
        return db.selectFrom('organizations').select('title').where('id', '=', id);
      },
      ([row]) => row?.title,
    );
    // Each read runs in its own macrotask, as requests do.
    const fence = freshnessFenceOf(db);
    const read = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await fence?.(); // what every /v1 request does first (PostgreSQL)
      return title('o1');
    };
    assert.equal(await read(), 'First');
    assert.equal(await read(), 'First');
    await other
      .updateTable('organizations')
      .set({ title: 'Second' })
      .where('id', '=', 'o1')
      .execute();
    assert.equal(await read(), 'Second', 'another connection committed');
    await db.updateTable('organizations').set({ title: 'Third' }).where('id', '=', 'o1').execute();
    assert.equal(await read(), 'Third', 'this connection wrote');
    // A write that returns rows is still a write (better-sqlite3 runs it as a reader).
    const returned = await db
      .updateTable('organizations')
      .set({ title: 'Fourth' })
      .where('id', '=', 'o1')
      .returningAll()
      .executeTakeFirst();
    assert.equal(returned?.title, 'Fourth');
    assert.equal(await read(), 'Fourth', 'this connection wrote with RETURNING');
    // A rolled-back write leaves nothing behind, not even in the cache.
    await db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('organizations')
          .set({ title: 'Fifth' })
          .where('id', '=', 'o1')
          .execute();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    assert.equal(await read(), 'Fourth', 'the rollback is seen');
    assert.equal(executions, 1, 'built and compiled once');
  });
});

describe('group commit', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  test('units submitted together commit together; a failing unit is undone alone', async () => {
    const commit = groupCommitOf(t.db);
    const insert = (id: string) =>
      commit.run(async (tx) => {
        await tx
          .insertInto('organizations')
          .values({ id, title: id, created_at: '2026-01-01T00:00:00.000Z' })
          .execute();
        return id;
      });
    const failing = commit.run(async (tx) => {
      await tx
        .insertInto('organizations')
        .values({ id: 'half-done', title: 'x', created_at: '2026-01-01T00:00:00.000Z' })
        .execute();
      throw new Error('this unit fails after writing');
    });
    const results = await Promise.allSettled([insert('g1'), failing, insert('g2')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    const ids = await t.db
      .selectFrom('organizations')
      .select('id')
      .where('id', 'in', ['g1', 'g2', 'half-done'])
      .execute();
    assert.deepEqual(ids.map((r) => r.id).sort(), ['g1', 'g2'], 'the failed unit left nothing');
  });
});

describe('another process changes the database while the server runs', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  test('a token revoked by another process (the CLI) stops working at once', async () => {
    const { id, token } = await t.services.identity.createToken(t.userId);
    const headers = { authorization: `Bearer ${token}` };
    expectStatus(await t.app.inject({ method: 'GET', url: '/v1/user', headers }), 200);
    expectStatus(await t.app.inject({ method: 'GET', url: '/v1/user', headers }), 200);
    const cli = otherConnection(t.databaseUrl);
    try {
      await cli
        .updateTable('api_tokens')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    } finally {
      await cli.destroy();
    }
    expectError(await t.app.inject({ method: 'GET', url: '/v1/user', headers }), 401);
  });

  test('customization written by another process is what the next GET answers', async () => {
    const site = await createSite(t, 1);
    const url = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    const before = expectStatus(await t.request({ method: 'GET', url }), 200);
    assert.equal(before.title, undefined);
    const other = otherConnection(t.databaseUrl);
    try {
      await other
        .updateTable('site_spaces')
        .set({ override: JSON.stringify({ title: 'Written elsewhere' }), override_version: 1 })
        .where('id', '=', site.siteSpaceIds[0] ?? '')
        .execute();
    } finally {
      await other.destroy();
    }
    const afterwards = await t.request({ method: 'GET', url });
    assert.equal(expectStatus(afterwards, 200).title, 'Written elsewhere');
  });
});

// Kysely's PostgreSQL introspector lists every schema's tables through name-based functions and
// failed ("schema … does not exist") when another client dropped a schema meanwhile, which test
// runs on one server do all the time (db/postgres-introspector.ts). SQLite has no schemas.
if (BACKEND === 'postgres') {
  test('migrations succeed while another client creates and drops schemas (postgres)', async () => {
    let churning = true;
    const churn = (async () => {
      for (let i = 0; churning; i++) {
        const schema = `churn_${process.pid}_${i}`;
        await adminQuery(
          `create schema ${schema}; create table ${schema}.a (id serial primary key, x text)`,
        );
        await adminQuery(`drop schema ${schema} cascade`);
      }
    })();
    try {
      for (let round = 1; round <= 10; round++) {
        const database = await createTestDatabase();
        const db = openDatabase(loadConfig({ DATABASE_URL: database.url }).database);
        try {
          await migrateToLatest(db);
        } finally {
          await db.destroy();
          await database.dispose();
        }
      }
    } finally {
      churning = false;
      await churn;
    }
  });
}
