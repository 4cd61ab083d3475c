import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { adminQuery, BACKEND, createTestDatabase, postgresUrl } from '../helpers/backend.js';
import { run } from '../helpers/process.js';
import { TcpRelay } from '../helpers/proxy.js';

describe(`the database goes away (${BACKEND})`, () => {
  test('unreachable at start-up: exit 1 with a message naming the host, not the password', async () => {
    const result = await run(['--import', 'tsx', 'src/server.ts'], {
      DATABASE_URL: 'postgres://livery:hunter2@127.0.0.1:1/docs',
      PORT: '0',
    });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^Livery cannot reach the database \(PostgreSQL at 127\.0\.0\.1:1\/docs\): .*ECONNREFUSED/m,
    );
    assert.doesNotMatch(result.stderr + result.stdout, /hunter2/);
    assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  });

  let t: TestContext;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  if (BACKEND === 'postgres') {
    test('the database host goes down mid-run: 503 in the envelope, then recovery', async () => {
      // Livery reaches PostgreSQL through a relay that the test cuts and restores.
      const target = new URL(postgresUrl());
      const relay = new TcpRelay(target.hostname, Number(target.port || 5432));
      await relay.up();
      const database = await createTestDatabase();
      const url = new URL(database.url);
      url.port = String(relay.port);
      const outage = await createTestApp({ DATABASE_URL: url.toString() });
      try {
        const site = await createSite(outage, 1);
        const path = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
        const get = () => outage.request({ method: 'GET', url: path });
        const patch = (title: string) =>
          outage.request({ method: 'PATCH', url: path, payload: { title } });
        assert.equal((await get()).statusCode, 200);

        await relay.cut();
        for (const response of [await get(), await patch('During the outage')]) {
          assert.match(expectError(response, 503), /database is unavailable/);
          assert.equal(response.headers['retry-after'], '1');
          assert.doesNotMatch(response.body, /ECONN|127\.0\.0\.1|terminated/);
        }

        await relay.up();
        let recovered = false;
        for (let attempt = 0; attempt < 50 && !recovered; attempt++) {
          const response = await patch('After the outage');
          if (response.statusCode === 503) await new Promise((r) => setTimeout(r, 100));
          else recovered = expectStatus(response, 200).title === 'After the outage';
        }
        assert.ok(recovered, 'writes work again once the database is back');
        assert.equal(expectStatus(await get(), 200).title, 'After the outage');
      } finally {
        await outage.close();
        await relay.cut();
        await database.dispose();
      }
    });

    test('connections killed by the server (as by a restart): the pool replaces them', async () => {
      const site = await createSite(t, 1);
      const url = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
      assert.equal((await t.request({ method: 'GET', url })).statusCode, 200);
      const schema = new URL(t.databaseUrl).searchParams.get('schema');
      const killed = await adminQuery(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'livery:${schema}'`,
      );
      assert.ok((killed.rowCount ?? 0) >= 2, 'pool connections and the change listener');
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        const response = await t.request({ method: 'PATCH', url, payload: { title: 'Killed' } });
        status = response.statusCode;
        if (status === 503) await new Promise((r) => setTimeout(r, 100));
        else assert.equal(status, 200, response.body);
      }
      assert.equal(expectStatus(await t.request({ method: 'GET', url }), 200).title, 'Killed');
    });
  } else {
    test('a file locked by another process past the busy timeout: 503, then recovery', async () => {
      const site = await createSite(t, 1);
      const url = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
      const config = t.config.database;
      const other = new SQLite(config.dialect === 'sqlite' ? config.filename : '');
      other.exec('begin exclusive');
      try {
        const blocked = await t.request({ method: 'PATCH', url, payload: { title: 'Blocked' } });
        assert.match(expectError(blocked, 503), /database is busy/);
        assert.equal(blocked.headers['retry-after'], '1');
      } finally {
        other.exec('rollback');
        other.close();
      }
      const retried = await t.request({ method: 'PATCH', url, payload: { title: 'Retried' } });
      assert.equal(retried.statusCode, 200);
      assert.equal(retried.json().title, 'Retried');
    });
  }
});
