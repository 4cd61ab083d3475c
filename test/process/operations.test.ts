import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrate.js';
import { migrationStatus } from '../../src/db/migration-status.js';
import { FixedWindowCounter } from '../../src/http/rate-limit.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { createTestDatabase } from '../helpers/backend.js';
import { startServer } from '../helpers/process.js';

// ---------------------------------------------------------------------------------------------
// Helpers

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A raw TCP connection to the server, to send what no HTTP client sends (a stalled request, a
 * body that never ends) and to read the responses that come back, one at a time.
 */
class RawConnection {
  readonly socket: Socket;
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  /** Resolves when the server has closed the connection. */
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    // Writing to a connection the server has just closed fails: expected in these tests.
    this.socket.on('error', () => {});
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    this.closed = new Promise((resolve) =>
      this.socket.on('close', () => {
        resolve();
        this.waiting?.();
      }),
    );
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** The next complete response (with a Content-Length); fails if the connection closes first. */
  async response(): Promise<RawResponse> {
    for (;;) {
      const parsed = this.parse();
      if (parsed !== undefined) return parsed;
      if (this.socket.destroyed) {
        throw new Error(`connection closed before a full response: ${this.buffer.toString()}`);
      }
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }

  private parse(): RawResponse | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine = '', ...lines] = this.buffer.subarray(0, end).toString().split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    assert.ok(Number.isInteger(length), `a response with a Content-Length: ${statusLine}`);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString();
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }
}

/** Asserts GitBook's error envelope on a raw response; returns its message. */
function rawError(response: RawResponse, status: number): string {
  assert.equal(response.status, status, response.body);
  const body = JSON.parse(response.body) as { error: { code: number; message: string } };
  assert.equal(body.error.code, status);
  assert.equal(typeof body.error.message, 'string');
  return body.error.message;
}

const budget = (response: LightMyRequestResponse) => ({
  limit: response.headers['x-ratelimit-limit'],
  remaining: response.headers['x-ratelimit-remaining'],
  reset: response.headers['x-ratelimit-reset'],
});

/**
 * Runs `scenario` with two fresh tokens of the owner, again (with new tokens, hence a fresh
 * budget) if its responses straddled the end of a one-minute window, which a test cannot
 * otherwise rule out. At most one attempt in a few seconds can straddle one.
 */
async function inOneWindow(
  t: TestContext,
  scenario: (first: string, second: string) => Promise<LightMyRequestResponse[]>,
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const first = await t.services.identity.createToken(t.userId);
    const second = await t.services.identity.createToken(t.userId);
    const responses = await scenario(`Bearer ${first.token}`, `Bearer ${second.token}`);
    const resets = new Set(responses.map((r) => r.headers['x-ratelimit-reset']));
    if (resets.size === 1) return;
  }
  assert.fail('three attempts in a row straddled the end of a rate-limit window');
}

// ---------------------------------------------------------------------------------------------

describe('rate limits per API token', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  after(async () => t.close());

  test('every authenticated /v1 response carries the budget, Remaining going down', async () => {
    await inOneWindow(t, async (authorization) => {
      const headers = { authorization };
      const responses = [
        await t.request({ method: 'GET', url: '/v1/user', headers }),
        await t.request({ method: 'GET', url: '/v1/orgs', headers }),
        await t.request({
          method: 'POST',
          url: `/v1/orgs/${t.orgId}/spaces`,
          payload: { title: 'Counted' },
          headers,
        }),
        // Errors count and carry the budget too: validation, and an organization the token's
        // user is not a member of (refused by authentication after the token was recognized).
        await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites?limit=0`, headers }),
        await t.request({ method: 'GET', url: '/v1/orgs/not-mine/sites', headers }),
      ];
      assert.deepEqual(
        responses.map((r) => r.statusCode),
        [200, 200, 201, 400, 404],
      );
      const now = Date.now() / 1000;
      responses.forEach((response, i) => {
        const { limit, remaining, reset } = budget(response);
        assert.equal(limit, '5');
        assert.equal(remaining, String(4 - i));
        // Epoch seconds: the end of the current clock minute.
        assert.match(String(reset), /^\d+$/);
        assert.equal(Number(reset) % 60, 0);
        assert.ok(Number(reset) > now - 1 && Number(reset) <= now + 61, `reset ${reset}`);
      });
      return responses;
    });
  });

  test('over the limit: 429 in the envelope with Retry-After, and nothing done', async () => {
    await inOneWindow(t, async (authorization) => {
      const responses: LightMyRequestResponse[] = [];
      for (let i = 0; i < 5; i++) {
        responses.push(
          await t.request({ method: 'GET', url: '/v1/user', headers: { authorization } }),
        );
      }
      const refused = await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/spaces`,
        payload: { title: 'Over the limit' },
        headers: { authorization },
      });
      responses.push(refused);
      assert.match(expectError(refused, 429), /rate limit exceeded.*try again in \d+ seconds/);
      assert.equal(refused.headers['x-ratelimit-limit'], '5');
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60);
      assert.ok(retryAfter <= Number(refused.headers['x-ratelimit-reset']) - Date.now() / 1000 + 1);
      // Refused before the handler: the space was not created.
      const created = await t.db
        .selectFrom('spaces')
        .select('id')
        .where('title', '=', 'Over the limit')
        .execute();
      assert.deepEqual(created, []);
      return responses;
    });
  });

  test('each token has its own budget', async () => {
    await inOneWindow(t, async (first, second) => {
      const responses: LightMyRequestResponse[] = [];
      for (let i = 0; i < 6; i++) {
        responses.push(
          await t.request({ method: 'GET', url: '/v1/user', headers: { authorization: first } }),
        );
      }
      expectError(responses[5] as LightMyRequestResponse, 429);
      const other = await t.request({
        method: 'GET',
        url: '/v1/user',
        headers: { authorization: second },
      });
      responses.push(other);
      expectStatus(other, 200);
      assert.equal(other.headers['x-ratelimit-remaining'], '4');
      return responses;
    });
  });

  test('refused authentication and routes outside /v1 carry no budget', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/v1/user' });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { authorization: 'Bearer gb_not-a-token-at-all' },
    });
    for (const response of [anonymous, wrong]) {
      expectError(response, 401);
      assert.equal(response.headers['x-ratelimit-limit'], undefined);
    }
    for (const url of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
      for (let i = 0; i < 7; i++) {
        const response = await t.app.inject({ method: 'GET', url });
        assert.equal(response.statusCode, 200, url);
        assert.equal(response.headers['x-ratelimit-limit'], undefined, url);
      }
    }
  });

  test('RATE_LIMIT_PER_MINUTE=0: no limit and no headers', async () => {
    const unlimited = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      for (let i = 0; i < 8; i++) {
        const response = await unlimited.request({ method: 'GET', url: '/v1/user' });
        expectStatus(response, 200);
        assert.equal(response.headers['x-ratelimit-limit'], undefined);
        assert.equal(response.headers['x-ratelimit-remaining'], undefined);
      }
    } finally {
      await unlimited.close();
    }
  });

  test('the counter keeps only the current window: memory stays bounded', () => {
    let now = Date.UTC(2030, 0, 1, 12, 0, 30);
    const counter = new FixedWindowCounter(() => now);
    for (let i = 0; i < 1000; i++) counter.hit(`tok_${i}`);
    assert.equal(counter.hit('tok_1'), 2);
    assert.equal(counter.size, 1000);
    assert.equal(counter.windowEnd, Date.UTC(2030, 0, 1, 12, 1, 0));
    assert.equal(counter.windowEndSeconds, String(Date.UTC(2030, 0, 1, 12, 1, 0) / 1000));
    now = Date.UTC(2030, 0, 1, 12, 1, 0); // the next window begins
    assert.equal(counter.hit('tok_1'), 1);
    assert.equal(counter.size, 1);
    assert.equal(counter.windowEnd, Date.UTC(2030, 0, 1, 12, 2, 0));
  });
});

describe('request size and time limits', () => {
  let t: TestContext;
  let port: number;
  before(async () => {
    t = await createTestApp({ REQUEST_TIMEOUT_MS: '300' });
    port = await listen(t.app);
  });
  after(async () => t.close());

  /** The head of a request creating a space, with `headers` added. */
  const postFor = (t: TestContext, headers: string) =>
    `POST /v1/orgs/${t.orgId}/spaces HTTP/1.1\r\nHost: livery.test\r\n` +
    `Authorization: Bearer ${t.token}\r\nContent-Type: application/json\r\n${headers}\r\n`;

  test('a declared Content-Length over 1 MiB → 413 in the envelope, body unread', async () => {
    const connection = new RawConnection(port);
    connection.write(postFor(t, `Content-Length: ${2 * 1024 * 1024}\r\n`));
    connection.write('{"title":"');
    const response = await connection.response();
    assert.match(rawError(response, 413), /1 MiB/);
    connection.socket.destroy();
  });

  test('a chunked body that grows over 1 MiB → 413 in the envelope', async () => {
    const connection = new RawConnection(port);
    connection.write(postFor(t, 'Transfer-Encoding: chunked\r\n'));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    connection.write(`${(10).toString(16)}\r\n{"title":"\r\n`);
    for (let sent = 0; sent <= 1024 * 1024; sent += chunk.length) {
      connection.write(
        Buffer.concat([
          Buffer.from(`${chunk.length.toString(16)}\r\n`),
          chunk,
          Buffer.from('\r\n'),
        ]),
      );
    }
    // No final chunk: the server must not wait for the end of the body to refuse it.
    const response = await connection.response();
    assert.match(rawError(response, 413), /1 MiB/);
    connection.socket.destroy();
  });

  test('a client that sends headers and a part of its body, then stalls, gets 408 and is cut off', async () => {
    const connection = new RawConnection(port);
    connection.write(postFor(t, 'Content-Length: 40\r\n'));
    connection.write('{"title":"Slow');
    const response = await connection.response();
    assert.match(rawError(response, 408), /not received in time/);
    await connection.closed;
    // Nothing was created.
    assert.deepEqual(await t.db.selectFrom('spaces').select('id').execute(), []);
  });

  test('a client that stalls in the middle of its headers is cut off too', async () => {
    const connection = new RawConnection(port);
    connection.write('GET /v1/user HTTP/1.1\r\nHost: livery.test\r\n');
    const response = await connection.response();
    rawError(response, 408);
    await connection.closed;
  });

  test('a request sent in time is answered as usual', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/user`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    assert.equal(response.status, 200);
  });
});

describe('overload protection', () => {
  test('under pressure: 503 in the envelope with Retry-After; probes and metrics still answer', async () => {
    // A heap threshold of 1 MiB is always exceeded: pressure as soon as memory is first sampled.
    const t = await createTestApp({ PRESSURE_MAX_HEAP_USED_MB: '1' });
    try {
      while (!t.app.isUnderPressure()) await new Promise((resolve) => setTimeout(resolve, 50));
      for (const url of ['/v1/user', '/nowhere']) {
        const response = await t.request({ method: 'GET', url });
        assert.match(expectError(response, 503), /overloaded/);
        assert.equal(response.headers['retry-after'], '5');
      }
      expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200);
      // Not ready while refusing work: a balancer must not send traffic that gets 503s.
      assert.equal(
        expectError(await t.app.inject({ method: 'GET', url: '/readyz' }), 503),
        'Not ready: the server is overloaded and refuses requests (load shedding)',
      );
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(metrics.statusCode, 200);
      assert.match(
        metrics.body,
        /http_requests_total\{method="GET",route="\/v1\/user",status="503"\} 1/,
      );
    } finally {
      await t.close();
    }
  });

  test('a blocked event loop: /v1 and /readyz answer 503 until the loop is free again', async () => {
    const t = await createTestApp({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '50' });
    try {
      expectStatus(await t.app.inject({ method: 'GET', url: '/readyz' }), 200);
      // The loop lags ~100 ms on every turn, for as long as it takes a one-second sample to see it
      // (the guard averages the lag over each second, so one long block would be diluted).
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      for (let slice = 0; slice < 100 && !t.app.isUnderPressure(); slice++) {
        const until = Date.now() + 100;
        while (Date.now() < until) {
          // busy wait: the event loop is blocked
        }
        await sleep(0);
      }
      assert.ok(t.app.isUnderPressure(), 'the lag was noticed');
      assert.match(
        expectError(await t.app.inject({ method: 'GET', url: '/readyz' }), 503),
        /overloaded/,
      );
      assert.match(
        expectError(await t.request({ method: 'GET', url: '/v1/user' }), 503),
        /overloaded/,
      );
      expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200);
      for (let i = 0; i < 200 && t.app.isUnderPressure(); i++) await sleep(50);
      expectStatus(await t.app.inject({ method: 'GET', url: '/readyz' }), 200);
      expectStatus(await t.request({ method: 'GET', url: '/v1/user' }), 200);
    } finally {
      await t.close();
    }
  });

  test('start-up work is not load: a process that says it listens serves at once', async () => {
    // Compiling routes and schemas blocks the loop at start-up; with a low threshold, counting
    // that refused every /v1 request for the first second while /readyz said 200.
    const database = await createTestDatabase();
    const token = `gb_${'s'.repeat(40)}`;
    const server = await startServer({
      DATABASE_URL: database.url,
      LIVERY_BOOTSTRAP_TOKEN: token,
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '100',
    });
    try {
      for (let round = 0; round < 3; round++) {
        const user = await fetch(`${server.url}/v1/user`, {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(user.status, 200, await user.text());
        assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
      }
    } finally {
      await server.stop();
      await database.dispose();
    }
  });

  test('every threshold 0: no load shedding installed', async () => {
    const t = await createTestApp({ PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' });
    try {
      assert.equal(t.app.hasDecorator('isUnderPressure'), false);
      expectStatus(await t.request({ method: 'GET', url: '/v1/user' }), 200);
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  test('requests by route pattern, pool gauges and process metrics, in Prometheus text', async () => {
    const site = await createSite(t, 1);
    expectStatus(await t.request({ method: 'GET', url: site.base }), 200);
    expectStatus(await t.request({ method: 'GET', url: site.base }), 200);
    expectError(await t.app.inject({ method: 'GET', url: `/nothing/${site.siteId}` }), 404);

    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = response.body;
    const labels = 'method="GET",route="/v1/orgs/:organizationId/sites/:siteId",status="200"';
    assert.ok(text.includes(`http_requests_total{${labels}} 2\n`), text);
    assert.ok(text.includes(`http_request_duration_seconds_count{${labels}} 2\n`));
    assert.ok(text.includes(`http_request_duration_seconds_bucket{${labels},le="+Inf"} 2\n`));
    assert.match(text, /# TYPE http_requests_total counter/);
    assert.match(text, /# TYPE http_request_duration_seconds histogram/);
    assert.match(
      text,
      /http_requests_total\{method="POST",route="\/v1\/orgs\/:organizationId\/sites",status="201"\} 1\n/,
    );
    assert.match(text, /http_requests_total\{method="GET",route="unmatched",status="404"\} 1\n/);
    // Route patterns only: no id ever becomes a label.
    assert.equal(text.includes(site.siteId), false);
    assert.equal(text.includes(t.orgId), false);
    // The database pool and the process.
    assert.match(text, /^db_pool_connections \d+$/m);
    assert.match(text, /^db_pool_idle_connections \d+$/m);
    assert.match(text, /^db_pool_waiting_queries \d+$/m);
    assert.match(text, /^process_cpu_user_seconds_total /m);
    assert.match(text, /^nodejs_heap_size_used_bytes /m);
  });

  test('each app counts its own requests (a registry per app)', async () => {
    const other = await buildApp({ config: t.config, db: t.db });
    try {
      await other.inject({ method: 'GET', url: '/healthz' });
      const text = (await other.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(text, /http_requests_total\{method="GET",route="\/healthz",status="200"\} 1\n/);
      assert.doesNotMatch(text, /route="\/v1/);
    } finally {
      await other.close();
    }
  });
});

describe('health and readiness', () => {
  let t: TestContext;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t.close());

  test('/healthz and /readyz answer when the database is migrated', async () => {
    assert.deepEqual(expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200), {
      status: 'ok',
    });
    assert.deepEqual(expectStatus(await t.app.inject({ method: 'GET', url: '/readyz' }), 200), {
      status: 'ready',
    });
  });

  test('a migration missing from the database → /readyz 503 naming it', async () => {
    const own = await createTestApp();
    try {
      const last = Object.keys(migrations).sort().at(-1) as string;
      await own.db
        .withTables<{ kysely_migration: { name: string } }>()
        .deleteFrom('kysely_migration')
        .where('name', '=', last)
        .execute();
      assert.deepEqual((await migrationStatus(own.db)).pending, [last]);
      const response = await own.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(expectError(response, 503), `Not ready: migrations pending: ${last}`);
    } finally {
      await own.close();
    }
  });

  test('a database that does not answer → /readyz 503', async () => {
    const db = openDatabase(t.config.database);
    const app = await buildApp({ config: t.config, db });
    try {
      expectStatus(await app.inject({ method: 'GET', url: '/readyz' }), 200);
      await db.destroy();
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(expectError(response, 503), 'Not ready: the database does not answer');
    } finally {
      await app.close();
    }
  });

  test('once the server is closing: 503 in the envelope and the connection closed', async () => {
    const app = await buildApp({ config: t.config, db: t.db });
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/slow', async () => {
      entered();
      await gate;
      return { done: true };
    });
    let preClosed!: () => void;
    const closingBegun = new Promise<void>((resolve) => {
      preClosed = resolve;
    });
    app.addHook('preClose', (done) => {
      preClosed();
      done();
    });
    const port = await listen(app);

    // A request in flight keeps its keep-alive connection open while the server closes.
    const connection = new RawConnection(port);
    connection.write('GET /slow HTTP/1.1\r\nHost: livery.test\r\n\r\n');
    await inside;
    const closed = app.close();
    await closingBegun;
    release();
    const slow = await connection.response();
    assert.equal(slow.status, 200, 'the request in flight completes');

    // A new request on that connection is turned away, in GitBook's envelope.
    connection.write('GET /readyz HTTP/1.1\r\nHost: livery.test\r\n\r\n');
    const ready = await connection.response();
    assert.match(rawError(ready, 503), /shutting down/);
    assert.equal(ready.headers.connection, 'close');
    await connection.closed;
    await closed;
  });
});
