import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BACKEND } from '../helpers/backend.js';
import { call } from '../helpers/load.js';
import {
  type ServerProcess,
  startTwoOnFreshDatabase,
  type TwoProcesses,
} from '../helpers/process.js';
import { rawGet } from '../helpers/raw-http.js';

const TOKEN = 'gb_hostnames-multi-process-token-0123456789';
const HOST = 'docs.example.test';

/**
 * Custom hostnames across processes (docs/sites.md, "Serving"): a hostname set through one
 * process is served by the other once its change notification has arrived (PostgreSQL's
 * LISTEN/NOTIFY, SQLite's data_version), and a removal likewise; no restart, no affinity.
 */
describe(`custom hostnames, two processes, one database (${BACKEND})`, () => {
  let two: TwoProcesses;
  let a: ServerProcess;
  let b: ServerProcess;
  let orgId: string;
  before(async () => {
    two = await startTwoOnFreshDatabase(TOKEN);
    ({ a, b, orgId } = two);
  });
  after(async () => two?.close());

  /** What `server` answers at `/` for the hostname: polled, since the notification is asynchronous. */
  async function homeAt(server: ServerProcess, served: boolean): Promise<string> {
    let body = '';
    for (let i = 0; i < 200; i++) {
      const answer = await rawGet(server.url, '/', { host: HOST });
      body = answer.bytes.toString('utf8');
      if (body.includes('Hosted handbook') === served) return body;
      await sleep(25);
    }
    assert.fail(
      `${server.url} ${served ? 'never served' : 'kept serving'} ${HOST}: ${body.slice(0, 200)}`,
    );
  }

  test('set through A, served by B; removed through B, no longer served by A', async () => {
    const site = await call(a.url, TOKEN, 'POST', `/v1/orgs/${orgId}/sites`, {
      title: 'Hosted handbook',
      spaces: 'empty',
    });
    assert.equal(site.status, 201);
    const base = `/v1/orgs/${orgId}/sites/${site.body.id as string}`;
    assert.equal((await call(a.url, TOKEN, 'POST', `${base}/publish`)).status, 200);
    // B has read its map before: a stale map would show.
    await homeAt(b, false);
    const set = await call(a.url, TOKEN, 'PATCH', base, { hostname: HOST });
    assert.equal(set.status, 200);
    // The writer waited for its new map before answering: its very next request is served.
    const first = await rawGet(a.url, '/', { host: HOST });
    assert.match(first.bytes.toString('utf8'), /Hosted handbook/, 'the writer serves it at once');
    assert.match(await homeAt(b, true), /Hosted handbook/);
    const taken = await call(b.url, TOKEN, 'POST', `/v1/orgs/${orgId}/sites`, { title: 'Other' });
    const other = `/v1/orgs/${orgId}/sites/${taken.body.id as string}`;
    assert.equal((await call(b.url, TOKEN, 'PATCH', other, { hostname: HOST })).status, 409);
    const removed = await call(b.url, TOKEN, 'DELETE', `/v1/custom-hostnames/${HOST}`);
    assert.equal(removed.status, 205);
    await homeAt(b, false);
    await homeAt(a, false);
  });
});
