import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createSite, createTestApp, expectError, expectStatus } from '../helpers/app.js';
import { adminQuery, BACKEND, postgresUrl } from '../helpers/backend.js';
import { run } from '../helpers/process.js';

/**
 * Faults of the operator's environment (docs/operations.md, "Health and readiness"): a 503 with
 * Retry-After in the envelope and no driver text, one log line naming the real cause, `/readyz`
 * naming it too, `/healthz` still 200 (restarting cures none of them), and recovery without a
 * restart once the cause is gone.
 */

/** Log lines of an app, parsed. */
function logCollector() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

function assertUnavailable(response: { headers: Record<string, unknown>; body: string }) {
  assert.match(expectError(response as never, 503), /database is unavailable/);
  assert.equal(response.headers['retry-after'], '5');
  assert.doesNotMatch(response.body, /SQLITE|disk|rollback|does not exist|relation/i);
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`never happened: ${what}`);
}

const isRoot = process.getuid?.() === 0;

/** Whether `chattr +i` works here (root on a file system that supports it). */
function chattrWorks(): boolean {
  if (!isRoot) return false;
  const dir = mkdtempSync(join(tmpdir(), 'livery-chattr-'));
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('faults of the environment of a SQLite database', { skip: BACKEND !== 'sqlite' }, () => {
  test('disk full (SQLite): writes 503, the log names it, /readyz says so; recovery when space returns', async () => {
    const logs = logCollector();
    const t = await createTestApp({ LOG_LEVEL: 'warn' }, logs.stream);
    try {
      await createSite(t, 1);
      // SQLite's own limit stands in for a full disk: past it, a write fails with SQLITE_FULL
      // ("database or disk is full"), as when the disk is full.
      const { rows } = await sql<{
        pages: number;
      }>`select page_count as pages from pragma_page_count()`.execute(t.db);
      await sql.raw(`pragma max_page_count = ${rows[0]?.pages}`).execute(t.db);
      const create = () =>
        t.request({
          method: 'POST',
          url: `/v1/orgs/${t.orgId}/spaces`,
          payload: { title: 'Filling the disk up' },
        });
      let refused: Awaited<ReturnType<typeof create>> | undefined;
      for (let i = 0; i < 1000 && refused === undefined; i++) {
        const response = await create();
        if (response.statusCode !== 201) refused = response;
      }
      assert.ok(refused !== undefined, 'the database filled up');
      assertUnavailable(refused);
      const faults = logs.lines.filter((line) => line.level >= 40);
      assert.ok(
        faults.some((line) => /disk full writing the database.*SQLITE_FULL/.test(line.msg)),
        JSON.stringify(faults),
      );
      assert.ok(!faults.some((line) => /cannot rollback/.test(JSON.stringify(line))));

      assert.match(
        expectError(await t.app.inject({ method: 'GET', url: '/readyz' }), 503),
        /^Not ready: the database is full/,
      );
      expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200);

      await sql.raw('pragma max_page_count = 1000000').execute(t.db);
      expectStatus(await create(), 201);
      expectStatus(await t.app.inject({ method: 'GET', url: '/readyz' }), 200);
    } finally {
      await t.close();
    }
  });

  test('database file made read-only under the running server: 503, /readyz names the file; recovery', async (c) => {
    // Permission bits do not stop root, nor a file already open; an immutable file (chattr +i)
    // stops both, as a file system remounted read-only does.
    if (!chattrWorks()) {
      c.skip('SKIPPED: needs root and chattr (an open file cannot be made read-only otherwise)');
      return;
    }
    const logs = logCollector();
    const t = await createTestApp({ LOG_LEVEL: 'warn' }, logs.stream);
    const config = t.config.database;
    const file = config.dialect === 'sqlite' ? config.filename : '';
    const files = [file, `${file}-wal`, `${file}-shm`];
    try {
      const site = await createSite(t, 1);
      const url = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
      const patch = (title: string) => t.request({ method: 'PATCH', url, payload: { title } });
      execFileSync('chattr', ['+i', ...files]);
      try {
        assertUnavailable(await patch('Read-only'));
        const line = logs.lines.find((l) => l.level >= 50 && /database fault/.test(l.msg));
        assert.match(line?.msg ?? '', new RegExp(`the database file is read-only \\(${file}\\)`));
        expectStatus(await t.request({ method: 'GET', url }), 200); // reads still work
        assert.equal(
          expectError(await t.app.inject({ method: 'GET', url: '/readyz' }), 503),
          `Not ready: the database file is read-only (${file})`,
        );
        expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200);
      } finally {
        execFileSync('chattr', ['-i', ...files]);
      }
      assert.equal(expectStatus(await patch('Writable again'), 200).title, 'Writable again');
      expectStatus(await t.app.inject({ method: 'GET', url: '/readyz' }), 200);
    } finally {
      await t.close();
    }
  });

  /** Makes `path` unwritable for this process: chattr +i as root, chmod otherwise. */
  function makeReadOnly(path: string, mode: number): () => void {
    if (isRoot) {
      execFileSync('chattr', ['+i', path]);
      return () => execFileSync('chattr', ['-i', path]);
    }
    chmodSync(path, mode);
    return () => chmodSync(path, 0o700);
  }

  async function startOn(filename: string) {
    return run(['--import', 'tsx', 'src/server.ts'], {
      DATABASE_URL: `sqlite:${filename}`,
      PORT: '0',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    });
  }

  async function migratedDatabase(dir: string): Promise<string> {
    const filename = join(dir, 'livery.db');
    const db = openDatabase(loadConfig({ DATABASE_URL: `sqlite:${filename}` }).database);
    await migrateToLatest(db);
    await db.destroy(); // checkpoints and removes -wal and -shm
    return filename;
  }

  test('start-up on a read-only database file: exit 1, one line naming the file', async (c) => {
    if (isRoot && !chattrWorks())
      return c.skip('SKIPPED: root without chattr: nothing stops root writing');
    const dir = mkdtempSync(join(tmpdir(), 'livery-readonly-'));
    const filename = await migratedDatabase(dir);
    const restore = makeReadOnly(filename, 0o444);
    try {
      const result = await startOn(filename);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      assert.equal(
        result.stderr,
        `Livery cannot use the database (SQLite at ${filename}): the database file is read-only (${filename})\n`,
      );
    } finally {
      restore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('start-up in a read-only directory: exit 1, one line naming the directory', async (c) => {
    if (isRoot && !chattrWorks())
      return c.skip('SKIPPED: root without chattr: nothing stops root writing');
    const dir = mkdtempSync(join(tmpdir(), 'livery-readonly-'));
    const existing = await migratedDatabase(dir);
    const restore = makeReadOnly(dir, 0o555);
    try {
      for (const filename of [existing, join(dir, 'new.db'), join(dir, 'sub', 'new.db')]) {
        const result = await startOn(filename);
        assert.equal(result.code, 1, result.stdout + result.stderr);
        assert.match(
          result.stderr,
          /^Livery cannot use the database \(SQLite at [^)]+\): the database directory is (read-only|missing)[^\n]*\n$/,
        );
        assert.ok(result.stderr.includes(dir), result.stderr);
        assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      }
    } finally {
      restore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the PostgreSQL database is dropped under the running server', {
  skip: BACKEND !== 'postgres',
}, () => {
  test('503 while gone, /readyz names each state, recovery once migrated again', async () => {
    const name = `livery_d9_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(`create database ${name}`);
    const url = new URL(postgresUrl());
    url.pathname = `/${name}`;
    url.search = '';
    const logs = logCollector();
    const t = await createTestApp({ DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' }, logs.stream);
    try {
      const site = await createSite(t, 1);
      const path = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
      const readyz = async () => t.app.inject({ method: 'GET', url: '/readyz' });
      const requests = () => [
        t.request({ method: 'GET', url: path }),
        t.request({ method: 'PATCH', url: path, payload: { title: 'Gone' } }),
      ];

      await adminQuery(`drop database ${name} with (force)`);
      for (const response of await Promise.all(requests())) assertUnavailable(response);
      assert.ok(
        logs.lines.some((l) => l.level >= 50 && /database does not exist.*"livery_d9_/.test(l.msg)),
        JSON.stringify(logs.lines),
      );
      assert.equal(
        expectError(await readyz(), 503),
        'Not ready: the PostgreSQL database does not exist',
      );
      expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200);

      await adminQuery(`create database ${name}`);
      await eventually(async () => {
        const response = await readyz();
        return response.statusCode === 503 && /tables missing/.test(response.body);
      }, '/readyz says the tables are missing');
      for (const response of await Promise.all(requests())) assertUnavailable(response);
      assert.ok(logs.lines.some((l) => l.level >= 50 && /tables missing/.test(l.msg)));
      expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200);

      // The operator migrates the new, empty database: ready again, with no restart. Its data
      // (and the owner's token) went with the old one.
      const operator = openDatabase(loadConfig({ DATABASE_URL: url.toString() }).database);
      await migrateToLatest(operator);
      await operator.destroy();
      await eventually(async () => (await readyz()).statusCode === 200, '/readyz says ready');
      expectError(await t.request({ method: 'GET', url: '/v1/user' }), 401);
    } finally {
      await t.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    }
  });
});
