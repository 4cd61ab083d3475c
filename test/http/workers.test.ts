import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { TaskFailed, TaskPool, TaskTimedOut } from '../../src/workers/pool.js';
import type { tasks as RenderTasks } from '../../src/workers/render-tasks.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { newSpace, publishChanges } from '../helpers/insights.js';

/**
 * The worker threads (workers/pool.ts, docs/operations.md "Worker threads"): a task past its
 * time and a thread out of memory fail alone and the pool goes on; a full queue is a 503 with
 * Retry-After and counts as load; a page past its render budget is its text with a notice.
 */

/** About 2 s of parsing on a worker thread, within the default page limits (2 MB, one block). */
const SLOW = '*a* '.repeat(500_000);

/** A render pool of one thread with the heap given. */
const renderPool = (heapMb: number) =>
  new TaskPool<typeof RenderTasks>({ module: 'render-tasks', threads: 1, queue: 4, heapMb });

describe('the pool', () => {
  test('a task past its time limit fails alone; its thread is replaced', async () => {
    const pool = renderPool(512);
    try {
      await assert.rejects(pool.run('pageBlocks', [SLOW], 50), TaskTimedOut);
      assert.deepEqual(await pool.run('pageBlocks', ['# One\n\ntwo']), [2]);
    } finally {
      await pool.close();
    }
  });

  test('a task stopped at its time limit while another waits: the one waiting still runs', async () => {
    const pool = renderPool(512);
    try {
      const slow = pool.run('pageBlocks', [SLOW], 50);
      const waiting = pool.run('pageBlocks', ['# One\n\ntwo']);
      await assert.rejects(slow, TaskTimedOut);
      assert.deepEqual(await waiting, [2]);
    } finally {
      await pool.close();
    }
  });

  test('a thread out of memory fails its task alone; the next task runs', async () => {
    // 32 MiB: room for a thread to load the render tasks (16 MiB no longer always was, with every
    // GitBook block's module: the replacement thread then died starting, and the task waited).
    const pool = renderPool(32);
    try {
      const table = `| a | b |\n|---|---|\n${'| x | y |\n'.repeat(400_000)}`;
      await assert.rejects(pool.run('pageBlocks', [table]), TaskFailed);
      assert.deepEqual(await pool.run('pageBlocks', ['para']), [1]);
    } finally {
      await pool.close();
    }
  });

  test('a closed pool takes no task', async () => {
    const pool = renderPool(64);
    await pool.close();
    await assert.rejects(pool.run('pageBlocks', ['x']), /closed/);
  });
});

/** A space with `count` slow pages, published as site `basename`: the ids of its pages. */
async function slowSite(t: TestContext, basename: string, count: number) {
  const spaceId = await newSpace(t, basename);
  let pages: Awaited<ReturnType<typeof publishChanges>> = [];
  // One page a change list: each is near the largest body a change list may have.
  for (let i = 0; i < count; i++) {
    const change = { operation: 'insert_page', title: `Slow ${i}`, document: { markdown: SLOW } };
    pages = await publishChanges(t, spaceId, [change]);
  }
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Docs', spaces: [spaceId] },
  });
  const base = `/v1/orgs/${t.orgId}/sites/${expectStatus(created, 201).id}`;
  expectStatus(await t.request({ method: 'PATCH', url: base, payload: { basename } }), 200);
  expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
  const revision = expectStatus(
    await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/content` }),
    200,
  ).id as string;
  return {
    spaceId,
    base,
    documents: pages.map(
      (p) => `/v1/spaces/${spaceId}/revisions/${revision}/page/${p.id}/document`,
    ),
  };
}

describe('over HTTP', () => {
  test('a full queue: 503 in the envelope with Retry-After, never an unbounded wait', async () => {
    const t = await createTestApp({ WORKER_THREADS: '1', WORKER_QUEUE: '1' });
    try {
      const { documents } = await slowSite(t, 'queue', 3);
      // One runs, one waits, the third finds the queue full.
      const answers = await Promise.all(documents.map((url) => t.request({ method: 'GET', url })));
      const statuses = answers.map((answer) => answer.statusCode).sort();
      assert.deepEqual(statuses, [200, 200, 503]);
      const refused = answers.find((answer) => answer.statusCode === 503);
      assert.ok(refused);
      assert.match(expectError(refused, 503), /overloaded/);
      assert.equal(refused.headers['retry-after'], '5');
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(metrics, /worker_tasks_total\{pool="render",outcome="refused"\} 1\n/);
    } finally {
      await t.close();
    }
  });

  test('a queue that stays full is load: requests are shed and /readyz says so', async () => {
    const t = await createTestApp({
      WORKER_THREADS: '1',
      WORKER_QUEUE: '1',
      // Load shedding on (its lag threshold out of reach): the queue alone is the load.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '60000',
    });
    try {
      const { documents } = await slowSite(t, 'load', 2);
      let pending = 2;
      const reads = documents.map((url) =>
        t.request({ method: 'GET', url }).finally(() => pending--),
      );
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      while (pending > 0 && !t.app.isUnderPressure()) await sleep(20);
      assert.ok(t.app.isUnderPressure(), 'the full queue was noticed while it was full');
      assert.match(
        expectError(await t.request({ method: 'GET', url: '/v1/user' }), 503),
        /overloaded/,
      );
      assert.match(
        expectError(await t.app.inject({ method: 'GET', url: '/readyz' }), 503),
        /overloaded/,
      );
      for (const answer of await Promise.all(reads)) assert.equal(answer.statusCode, 200);
      for (let i = 0; i < 100 && t.app.isUnderPressure(); i++) await sleep(50);
      expectStatus(await t.request({ method: 'GET', url: '/v1/user' }), 200);
    } finally {
      await t.close();
    }
  });

  test('past RENDER_BUDGET_MS: the page is its text with a notice, logged; its document too', async () => {
    const log = new PassThrough();
    const lines: string[] = [];
    log.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const t = await createTestApp({ RENDER_BUDGET_MS: '50', LOG_LEVEL: 'warn' }, log);
    try {
      const { documents } = await slowSite(t, 'budget', 1);
      const page = await t.app.inject({ method: 'GET', url: '/s/budget/slow-0' });
      assert.equal(page.statusCode, 200);
      assert.match(
        page.body,
        /<div class="hint hint-warning" role="note">\n<p>This page is too large/,
      );
      assert.match(page.body, /<pre class="page-text"><code>\*a\* \*a\* /);
      assert.match(
        page.body,
        /<footer|class="site-footer|<\/html>/,
        'the rest of the page is there',
      );
      const logged = lines.map((line) => JSON.parse(line) as { msg: string; pageId?: string });
      assert.ok(
        logged.some((line) => /shown as its text/.test(line.msg) && line.pageId !== undefined),
        'a log line names the page',
      );
      const document = expectStatus(
        await t.request({ method: 'GET', url: documents[0] as string }),
        200,
      ) as { nodes: { type: string; data: { style?: string } }[] };
      assert.deepEqual(
        document.nodes.map((node) => node.type),
        ['hint', 'code'],
      );
      assert.equal(document.nodes[0]?.data.style, 'warning');
    } finally {
      await t.close();
    }
  });
});
