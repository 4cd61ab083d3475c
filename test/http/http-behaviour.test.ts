import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { rawVisit } from '../helpers/published.js';

const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestContext;
before(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, logStream);
});
after(async () => t.close());

describe('routing errors', () => {
  test('an unknown route → 404 in the error envelope', async () => {
    const res = await t.request({ method: 'GET', url: '/v1/nothing/here' });
    assert.match(expectError(res, 404), /No route GET \/v1\/nothing\/here/);
    const root = await t.app.inject({ method: 'GET', url: '/nope' });
    expectError(root, 404);
  });

  test('a known path with the wrong method → 405 with Allow', async () => {
    const site = await createSite(t, 1);
    const res = await t.request({ method: 'POST', url: `${site.base}/customization`, payload: {} });
    assert.match(expectError(res, 405), /not allowed/);
    assert.equal(res.headers.allow, 'GET, HEAD, PUT');
    const variant = await t.request({
      method: 'PUT',
      url: `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`,
      payload: {},
    });
    expectError(variant, 405);
    assert.equal(variant.headers.allow, 'GET, HEAD, PATCH, DELETE');
  });

  test('paths the router refuses → the error envelope naming the path: 400 bad encoding, 414 too long', async () => {
    // Sent over a socket: inject would normalise the path before the router saw it.
    for (const [path, status, message] of [
      ['/v1/spaces/%E0%A4%A', 400, /^path: the URL path is not valid percent-encoding/],
      ['/v1/spaces/%', 400, /^path: /],
      [`/v1/spaces/${'a'.repeat(300)}`, 414, /^path: a path parameter is longer than 256/],
    ] as const) {
      const res = await rawVisit(t, path);
      assert.equal(res.statusCode, status, path);
      const body = JSON.parse(res.body) as { error: { code: number; message: string } };
      assert.equal(body.error.code, status);
      assert.match(body.error.message, message);
      assert.ok(res.headers['x-request-id'], 'the request id still answers');
    }
  });

  test('HEAD and a trailing slash work on GET routes', async () => {
    const site = await createSite(t, 1);
    const head = await t.request({ method: 'HEAD', url: `${site.base}/customization` });
    assert.equal(head.statusCode, 200);
    assert.ok(head.headers.etag);
    const slash = await t.request({ method: 'GET', url: `${site.base}/customization/` });
    assert.equal(slash.statusCode, 200);
  });
});

describe('X-Request-Id', () => {
  test('a sane incoming id is kept and echoed', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/v1/user',
      headers: { 'x-request-id': 'abc-123.x:y' },
    });
    assert.equal(res.headers['x-request-id'], 'abc-123.x:y');
  });

  test('a missing or insane id is replaced by a generated one', async () => {
    for (const headers of [
      {},
      { 'x-request-id': 'bad id\twith spaces' },
      { 'x-request-id': 'x'.repeat(200) },
    ]) {
      const res = await t.request({ method: 'GET', url: '/v1/user', headers });
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    }
  });

  test('errors carry the request id too', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/user',
      headers: { 'x-request-id': 'err-1' },
    });
    expectError(res, 401);
    assert.equal(res.headers['x-request-id'], 'err-1');
  });
});

describe('our own bugs', () => {
  test('an unexpected error is a 500 with a generic message; details go to the log', async () => {
    // A second app on the same database, with one route that fails the way a bug would.
    const app = await buildApp({ config: t.config, db: t.db, logStream });
    app.get('/boom', async () => {
      throw new Error('SQLITE_CORRUPT: secret driver detail at /var/lib/x');
    });
    await app.ready();
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/boom',
        headers: { 'x-request-id': 'bug-42' },
      });
      const message = expectError(res, 500);
      assert.equal(message, 'Internal server error; quote request id bug-42 when reporting it');
      assert.doesNotMatch(res.body, /SQLITE|secret|var\/lib/);
      const logged = logLines.find((l) => l.reqId === 'bug-42' && l.level === 50);
      assert.ok(logged, 'the error is logged with its request id');
      assert.match(JSON.stringify(logged), /secret driver detail/);
    } finally {
      await app.close();
    }
  });
});

describe('logs', () => {
  test('one line per request, with the request id, and never the token', async () => {
    await t.request({ method: 'GET', url: '/v1/user', headers: { 'x-request-id': 'log-1' } });
    const lines = logLines.filter((l) => l.reqId === 'log-1');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.msg, 'request');
    assert.equal(lines[0]?.statusCode, 200);
    assert.equal(JSON.stringify(logLines).includes(t.token), false);
  });
});

describe('/healthz', () => {
  test('answers ok when the database answers', async () => {
    assert.deepEqual(expectStatus(await t.app.inject({ method: 'GET', url: '/healthz' }), 200), {
      status: 'ok',
    });
  });
});
