import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import { groupCommitOf, type Tx } from '../../src/db/group-commit.js';
import { AppError } from '../../src/errors.js';
import { CustomizationRepository } from '../../src/modules/customization/repository.js';
import { always } from '../../src/versioned.js';
import { createSite, createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND, postgresUrl } from '../helpers/backend.js';
import { call, expectedValue, FIELDS, fieldValue, listen, patchOf } from '../helpers/load.js';

// Group commit (src/db/group-commit.ts) on both backends: the units of one turn share one
// transaction and one COMMIT, each under a savepoint; on PostgreSQL a batch that loses a deadlock
// to another connection runs again.

/** Units that insert one organization each: `${id}` is stored once its unit commits. */
const insertOrg = (tx: Tx, id: string) =>
  tx
    .insertInto('organizations')
    .values({ id, title: id, created_at: '2026-01-01T00:00:00.000Z' })
    .execute();

/** A second connection to the same database: what it reads is committed. */
function otherConnection(url: string): Db {
  return openDatabase(loadConfig({ DATABASE_URL: url }).database);
}

async function storedOrgs(url: string, ids: string[]): Promise<string[]> {
  const other = otherConnection(url);
  try {
    const rows = await other
      .selectFrom('organizations')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id).sort();
  } finally {
    await other.destroy();
  }
}

describe(`group commit (${BACKEND})`, () => {
  let t: TestContext;
  let base: string;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    base = await listen(t);
  });
  after(async () => t.close());

  test('units of one turn share one transaction; a unit that fails having read is undone alone', async () => {
    const commit = groupCommitOf(t.db);
    const { batches, isolated } = commit.stats;
    const results = await Promise.allSettled([
      commit.run(async (tx) => insertOrg(tx, 'gc-r1')),
      // What a 404 or a 412 does: reads (and locks), then fails.
      commit.run(async (tx) => {
        await tx.selectFrom('organizations').select('id').forUpdate().execute();
        throw new AppError(404, 'not found');
      }),
      commit.run(async (tx) => insertOrg(tx, 'gc-r2')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(commit.stats.batches - batches, 1, 'the three units shared one transaction');
    assert.equal(commit.stats.isolated - isolated, 0, 'nothing to undo: no second run');
    assert.deepEqual(await storedOrgs(t.databaseUrl, ['gc-r1', 'gc-r2']), ['gc-r1', 'gc-r2']);
  });

  test('a unit that fails after writing, or on a failed statement, is undone alone', async () => {
    const commit = groupCommitOf(t.db);
    const { isolated } = commit.stats;
    const results = await Promise.allSettled([
      commit.run(async (tx) => insertOrg(tx, 'gc-a')),
      // Fails after writing: a client's error found late.
      commit.run(async (tx) => {
        await insertOrg(tx, 'gc-b');
        throw new AppError(412, 'precondition failed');
      }),
      // A statement fails (duplicate key): on PostgreSQL that aborts the whole transaction
      // unless the unit has a savepoint of its own.
      commit.run(async (tx) => {
        await insertOrg(tx, 'gc-c');
        await insertOrg(tx, 'gc-a');
      }),
      // Ignores its failed statement (a bug): PostgreSQL would turn the COMMIT into a ROLLBACK.
      commit.run(async (tx) => {
        await insertOrg(tx, 'gc-d');
        await insertOrg(tx, 'gc-a').catch(() => {});
      }),
      commit.run(async (tx) => insertOrg(tx, 'gc-e')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      await storedOrgs(t.databaseUrl, ['gc-a', 'gc-b', 'gc-c', 'gc-d', 'gc-e']),
      ['gc-a', 'gc-e'],
      'the failed units left nothing; the others are committed',
    );
    // PostgreSQL ran the batch a second time, with a savepoint per unit.
    assert.equal(commit.stats.isolated - isolated, BACKEND === 'postgres' ? 1 : 0);
  });

  test('a COMMIT that fails fails every unit of its batch, and nothing of it is stored', async () => {
    // Checked at COMMIT, not at the INSERT: a deferred foreign key (both backends have them).
    await sql`create table gc_child (id text primary key, parent text
      references organizations (id) deferrable initially deferred)`.execute(t.db);
    const commit = groupCommitOf(t.db);
    const results = await Promise.allSettled([
      commit.run(async (tx) => insertOrg(tx, 'gc-commit-1')),
      commit.run(async (tx) => {
        await sql`insert into gc_child (id, parent) values ('c1', 'no such organization')`.execute(
          tx,
        );
      }),
      commit.run(async (tx) => insertOrg(tx, 'gc-commit-2')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.deepEqual(await storedOrgs(t.databaseUrl, ['gc-commit-1', 'gc-commit-2']), []);
  });

  test('a burst larger than a batch is split and all of it commits', async () => {
    const commit = groupCommitOf(t.db);
    const batches = commit.stats.batches;
    const ids = Array.from({ length: 100 }, (_, i) => `gc-burst-${i}`);
    await Promise.all(ids.map((id) => commit.run((tx) => insertOrg(tx, id))));
    // PostgreSQL: at most 64 units (subtransactions) per transaction; SQLite: no limit.
    assert.equal(commit.stats.batches - batches, BACKEND === 'postgres' ? 2 : 1);
    assert.equal((await storedOrgs(t.databaseUrl, ids)).length, ids.length);
  });

  test('concurrent PATCHes of distinct fields of one variant all land and are committed', async () => {
    const site = await createSite(t, 1);
    const path = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    const writers = FIELDS.length * 4;
    const replies = await Promise.all(
      Array.from({ length: writers }, (_, writer) => {
        const field = FIELDS[writer % FIELDS.length] ?? 'title';
        // Each writer its own value of its field; the last writer of a field in each group of
        // FIELDS.length writes the value checked below.
        return call(base, t.token, 'PATCH', path, patchOf(field, writer, 1));
      }),
    );
    assert.deepEqual(
      replies.map((r) => r.status),
      replies.map(() => 200),
    );
    // Read back from the database through another connection: committed, not only answered.
    const other = otherConnection(t.databaseUrl);
    try {
      const row = await other
        .selectFrom('site_spaces')
        .select(['override', 'override_version'])
        .where('id', '=', site.siteSpaceIds[0] ?? '')
        .executeTakeFirstOrThrow();
      assert.equal(row.override_version, writers, 'one version per acknowledged PATCH');
    } finally {
      await other.destroy();
    }
    const final = await call(base, t.token, 'GET', path);
    for (const [index, field] of FIELDS.entries()) {
      const written = Array.from({ length: 4 }, (_, k) =>
        expectedValue(field, index + k * FIELDS.length, 1),
      );
      assert.ok(
        written.includes(fieldValue(final.body, field)),
        `${field} holds one of its writers' values`,
      );
    }
  });

  test('PATCHes of one variant in one batch each read what the one before wrote', async () => {
    const site = await createSite(t, 1);
    const variant = site.siteSpaceIds[0] ?? '';
    const commit = groupCommitOf(t.db);
    const { batches } = commit.stats;
    // Submitted in one turn: one batch, where only the first unit reads the row from the
    // database and the others take it from the batch's memo, as the first one left it.
    const patches = FIELDS.map((field, writer) =>
      t.services.customization.patchVariant(
        t.orgId,
        site.siteId,
        variant,
        patchOf(field, writer, 1) as never,
        always,
        { userId: t.userId, tokenId: null },
      ),
    );
    await Promise.all(patches);
    assert.equal(commit.stats.batches - batches, 1);
    const final = await call(
      base,
      t.token,
      'GET',
      `${site.base}/site-spaces/${variant}/customization`,
    );
    for (const [writer, field] of FIELDS.entries()) {
      assert.equal(fieldValue(final.body, field), expectedValue(field, writer, 1), field);
    }
  });

  test('what a failed unit wrote is not what the next unit of the batch reads', async () => {
    const site = await createSite(t, 1);
    const variant = site.siteSpaceIds[0] ?? '';
    const repo = new CustomizationRepository(t.db);
    const write = (title: string, fail: boolean) =>
      repo.update(async (unit) => {
        const record = await unit.readVariant(t.orgId, site.siteId, variant);
        assert.ok(record);
        const stored = JSON.parse(record.override ?? '{}') as Record<string, unknown>;
        const json = JSON.stringify({ ...stored, [title]: true });
        await unit.writeOverride(record, json, {
          scope: variant,
          at: new Date().toISOString(),
          actor: { userId: t.userId, tokenId: null },
          operation: 'patch',
          etag: `"${title}"`,
          document: json,
          changes: [],
          restoredFrom: null,
          message: null,
          audit: {
            organizationId: t.orgId,
            action: 'customization.updated',
            target: { kind: 'site-space', id: variant },
            details: {},
          },
        });
        if (fail) throw new AppError(409, 'fails after writing');
      });
    const results = await Promise.allSettled([
      write('first', false),
      write('undone', true),
      write('third', false),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    const row = await t.db
      .selectFrom('site_spaces')
      .select(['override', 'override_version'])
      .where('id', '=', variant)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.override ?? '{}'), { first: true, third: true });
    assert.equal(row.override_version, 2);
    // The undone unit's revision and audit entry went with it; the numbers have no gap.
    const revisions = await t.db
      .selectFrom('customization_revisions')
      .select(['number', 'etag'])
      .where('scope', '=', variant)
      .orderBy('number')
      .execute();
    assert.deepEqual(revisions, [
      { number: 1, etag: '"first"' },
      { number: 2, etag: '"third"' },
    ]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('target_id', '=', variant)
      .orderBy('details')
      .execute();
    assert.deepEqual(
      audit.map((entry) => entry.details),
      ['{"revision":1}', '{"revision":2}'],
    );
  });

  test('a PATCH with a stale If-Match among concurrent PATCHes fails alone (412)', async () => {
    const site = await createSite(t, 1);
    const path = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    const first = await t.request({ method: 'GET', url: path });
    expectStatus(first, 200);
    const stale = String(first.headers.etag);
    expectStatus(await t.request({ method: 'PATCH', url: path, payload: { title: 'moved' } }), 200);
    const replies = await Promise.all([
      call(base, t.token, 'PATCH', path, { title: 'Title A' }),
      call(base, t.token, 'PATCH', path, { title: 'Stale title' }, { 'if-match': stale }),
      call(base, t.token, 'PATCH', path, { title: 'Title B' }),
    ]);
    assert.deepEqual(
      replies.map((r) => r.status),
      [200, 412, 200],
    );
    const final = await call(base, t.token, 'GET', path);
    assert.ok(['Title A', 'Title B'].includes(String(final.body.title)));
  });
});

// A deadlock between a batch and another connection (another Livery process, the CLI): PostgreSQL
// aborts one side's statement (40P01); when it is the batch's, the batch runs again, its units
// one by one (each in its own transaction, so that it holds no other unit's rows meanwhile).
if (BACKEND === 'postgres') {
  describe('group commit on PostgreSQL: a batch that loses a deadlock runs again, unit by unit', () => {
    let t: TestContext;
    before(async () => {
      t = await createTestApp();
    });
    after(async () => t.close());

    test('both units of the batch commit after the retry; the other connection commits too', async () => {
      const site = await createSite(t, 2);
      const [x, y] = site.siteSpaceIds as [string, string];
      const schema = new URL(t.databaseUrl).searchParams.get('schema') ?? 'public';
      const other = new pg.Client({
        connectionString: postgresUrl(),
        options: `-c search_path=${schema}`,
      });
      await other.connect();
      try {
        // The other side never runs the deadlock check first: the batch is the one aborted.
        await other.query("set deadlock_timeout = '60s'");
        await other.query('begin');
        await other.query('select 1 from site_spaces where id = $1 for update', [x]);

        const commit = groupCommitOf(t.db);
        const { retries, alone } = commit.stats;
        let runs = 0;
        const lockAndWrite = (id: string) => async (tx: Tx) => {
          runs += 1;
          await sql`select 1 from site_spaces where id = ${id} for update`.execute(tx);
          await tx
            .updateTable('site_spaces')
            .set((eb) => ({ override_version: eb('override_version', '+', 1) }))
            .where('id', '=', id)
            .execute();
          return id;
        };
        // One batch: locks y, then waits for x, which the other connection holds.
        const batch = Promise.all([commit.run(lockAndWrite(y)), commit.run(lockAndWrite(x))]);
        await waitForLockWait(other, `livery:${schema}`);
        // The other connection now waits for y: a deadlock, found by the batch's backend.
        await other.query('select 1 from site_spaces where id = $1 for update', [y]);
        await other.query('commit');

        assert.deepEqual(await batch, [y, x]);
        assert.ok(commit.stats.retries > retries, 'the batch was run again');
        assert.equal(commit.stats.alone - alone, 1, 'its units one by one');
        assert.ok(runs >= 4, 'each unit ran again');
        const { rows } = await other.query(
          'select id, override_version from site_spaces where id = any($1) order by id',
          [[x, y]],
        );
        for (const row of rows) assert.equal(row.override_version, 1, `${row.id} written once`);
      } finally {
        await other.end();
      }
    });
  });
}

/** Resolves once a session of `applicationName` waits for a lock (polls pg_stat_activity). */
async function waitForLockWait(client: pg.Client, applicationName: string): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    const { rowCount } = await client.query(
      `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
      [applicationName],
    );
    if (rowCount !== null && rowCount > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no session of ${applicationName} waits for a lock`);
}
