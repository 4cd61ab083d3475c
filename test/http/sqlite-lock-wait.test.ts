import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';

/**
 * Another connection to the same SQLite file (the CLI, a backup, a second Livery process) holds
 * the write lock. Livery's writes must wait for it without blocking the event loop: reads and
 * health checks go on answering meanwhile, the writes land once the lock is released, and a lock
 * held past SQLITE_LOCK_WAIT_MS is a 503 with Retry-After (issue 16, D6).
 */
describe('SQLite: a write lock held by another connection', {
  skip: BACKEND === 'sqlite' ? false : 'SQLite only: this file runs in the SQLite pass',
}, () => {
  let t: TestContext;
  let site: SiteFixture;
  let holder: SQLite.Database;
  let variantUrl: string;

  before(async () => {
    t = await createTestApp({ SQLITE_LOCK_WAIT_MS: '10000' });
    site = await createSite(t, 1);
    variantUrl = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
    // timeout 0: the holder itself must never wait (nothing else holds the lock when it asks).
    holder = new SQLite(t.databaseUrl.replace(/^sqlite:/, ''), { timeout: 0 });
  });
  after(async () => {
    if (holder.inTransaction) holder.exec('rollback');
    holder.close();
    await t.close();
  });

  const patch = (title: string) =>
    t.request({ method: 'PATCH', url: variantUrl, payload: { title } });

  test('waiting writes leave the event loop free: reads and /healthz answer, then the writes land', async () => {
    expectStatus(await patch('warm'), 200); // compiled and cached: the writes below go straight to the lock
    holder.exec('begin immediate');
    const settled: string[] = [];
    const writes = ['one', 'two', 'three'].map((title) =>
      patch(title).then((response) => {
        settled.push(title);
        return response;
      }),
    );
    // Each of these needs the event loop and the connection the waiting writes share.
    const timer = await new Promise<string>((resolve) => setTimeout(() => resolve('timer'), 200));
    const health = await t.request({ method: 'GET', url: '/healthz' });
    const read = await t.request({ method: 'GET', url: variantUrl });
    assert.equal(timer, 'timer');
    assert.deepEqual(expectStatus(health, 200), { status: 'ok' });
    expectStatus(read, 200);
    assert.deepEqual(settled, [], 'no write may finish while the lock is held elsewhere');

    holder.exec('commit');
    for (const response of await Promise.all(writes)) expectStatus(response, 200);
    const final = expectStatus(await t.request({ method: 'GET', url: variantUrl }), 200);
    assert.ok(['one', 'two', 'three'].includes(final.title as string), String(final.title));
  });

  test('a lock held past SQLITE_LOCK_WAIT_MS: 503 with Retry-After, nothing written; then writes work again', async () => {
    const short = await createTestApp({ SQLITE_LOCK_WAIT_MS: '150' });
    const other = new SQLite(short.databaseUrl.replace(/^sqlite:/, ''), { timeout: 0 });
    try {
      const shortSite = await createSite(short, 1);
      const url = `${shortSite.base}/site-spaces/${shortSite.siteSpaceIds[0]}/customization`;
      other.exec('begin immediate');
      const refused = await short.request({ method: 'PATCH', url, payload: { title: 'late' } });
      assert.match(expectError(refused, 503), /database is busy/);
      assert.equal(refused.headers['retry-after'], '1');
      const health = await short.request({ method: 'GET', url: '/healthz' });
      expectStatus(health, 200);
      other.exec('commit');

      const unchanged = expectStatus(await short.request({ method: 'GET', url }), 200);
      assert.notEqual(unchanged.title, 'late');
      const accepted = await short.request({ method: 'PATCH', url, payload: { title: 'now' } });
      assert.equal(expectStatus(accepted, 200).title, 'now');
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
      await short.close();
    }
  });

  test('ten writers waiting at once all land, each as its own version', async () => {
    holder.exec('begin immediate');
    const writes = Array.from({ length: 10 }, (_, i) =>
      t.request({
        method: 'PATCH',
        url: variantUrl,
        payload: { socialPreview: { url: `https://example.test/${i}.png` } },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    holder.exec('commit');
    const etags = new Set<string>();
    for (const response of await Promise.all(writes)) {
      expectStatus(response, 200);
      etags.add(String(response.headers.etag));
    }
    assert.equal(etags.size, 10, 'every write produced its own version');
  });
});
