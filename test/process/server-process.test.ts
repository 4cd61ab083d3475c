import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startCommand, TSC } from '../../scripts/start-command.js';
import { call } from '../helpers/load.js';
import { run, startServer } from '../helpers/process.js';

const dir = mkdtempSync(join(tmpdir(), 'livery-process-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const firstItem = (body: Record<string, unknown>) => {
  const [item] = (body.items as { id: string; title: string }[] | undefined) ?? [];
  assert.ok(item, 'the list has an item');
  return item;
};

describe('the server process (npm start)', () => {
  const database = `sqlite:${join(dir, 'data', 'livery.db')}`;
  let token = '';

  test('first start creates the organization and prints the owner token once', async () => {
    const server = await startServer({ DATABASE_URL: database });
    try {
      const match = /API token of the owner.*\n\n\s+(gb_[A-Za-z0-9_-]{43})\n/.exec(server.stdout());
      assert.ok(match?.[1], server.stdout());
      token = match[1];
      assert.match(server.stdout(), /Created organization "Default organization"/);
      const user = await call(server.url, token, 'GET', '/v1/user');
      assert.equal(user.status, 200);
      const logs = server
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      assert.ok(logs.length > 0);
      assert.equal(
        logs.some((l) => l.includes(token)),
        false,
        'the token never reaches a log line',
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('SIGTERM finishes in-flight requests; every acknowledged write is there after restart', async () => {
    const server = await startServer({ DATABASE_URL: database });
    assert.doesNotMatch(server.stdout(), /first start/, 'no second bootstrap');
    const orgs = await call(server.url, token, 'GET', '/v1/orgs');
    const orgId = firstItem(orgs.body).id;
    const site = await call(server.url, token, 'POST', `/v1/orgs/${orgId}/sites`, {
      spaces: 'empty',
    });
    const sitePath = `/v1/orgs/${orgId}/sites/${String(site.body.id)}`;
    const variants: string[] = [];
    for (let i = 0; i < 20; i++) {
      const space = await call(server.url, token, 'POST', `/v1/orgs/${orgId}/spaces`, {
        title: `V${i}`,
      });
      const added = await call(server.url, token, 'POST', `${sitePath}/site-spaces`, {
        spaceId: space.body.id,
      });
      variants.push(String(added.body.id));
    }

    const writes = variants.map((id, i) =>
      call(server.url, token, 'PATCH', `${sitePath}/site-spaces/${id}/customization`, {
        title: `Title ${i}`,
      }).then(
        (r) => ({ id, i, status: r.status }),
        (error: Error) => ({ id, i, status: 0, error: String(error.cause ?? error) }),
      ),
    );
    await Promise.race(writes); // the others are on the wire by now
    const stopped = server.stop('SIGTERM');
    const results = await Promise.all(writes);
    assert.equal(await stopped, 0, 'clean exit');
    assert.match(server.stdout(), /shutting down/);
    // Requests being handled complete (200); later ones are turned away (503), or their
    // connection, not yet accepted, is refused or reset. None gets a 5xx other than 503.
    assert.ok(
      results.some((r) => r.status === 200),
      'in-flight requests completed',
    );
    for (const r of results) {
      assert.ok([0, 200, 503].includes(r.status), JSON.stringify(r));
      if ('error' in r) assert.match(r.error, /ECONNREFUSED|ECONNRESET|other side closed/);
    }

    const restarted = await startServer({ DATABASE_URL: database });
    try {
      for (const r of results.filter((x) => x.status === 200)) {
        const got = await call(
          restarted.url,
          token,
          'GET',
          `${sitePath}/site-spaces/${r.id}/customization`,
        );
        assert.equal(got.body.title, `Title ${r.i}`);
      }
    } finally {
      assert.equal(await restarted.stop('SIGINT'), 0);
    }
  });

  test('LIVERY_BOOTSTRAP_TOKEN becomes the token and is never printed', async () => {
    const chosen = 'gb_chosen-by-automation-0123456789';
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'chosen.db')}`,
      LIVERY_BOOTSTRAP_TOKEN: chosen,
      LIVERY_ORG_TITLE: 'Automation',
    });
    try {
      assert.doesNotMatch(server.stdout(), new RegExp(chosen));
      assert.match(server.stdout(), /LIVERY_BOOTSTRAP_TOKEN \(not printed\)/);
      const orgs = await call(server.url, chosen, 'GET', '/v1/orgs');
      assert.equal(firstItem(orgs.body).title, 'Automation');
    } finally {
      await server.stop();
    }
  });

  test('npm start: the compiled server (dist/) builds, serves and drains like the sources', async () => {
    const { tscArgs, nodeArgs } = startCommand();
    const build = await run([TSC, ...tscArgs], {});
    assert.equal(build.code, 0, `${build.stdout}${build.stderr}`);
    const server = await startServer({ DATABASE_URL: database }, nodeArgs);
    let stopped = false;
    try {
      const orgs = await call(server.url, token, 'GET', '/v1/orgs');
      assert.equal(orgs.status, 200);
      const org = firstItem(orgs.body);
      const site = await call(server.url, token, 'POST', `/v1/orgs/${org.id}/sites`, {
        title: 'Compiled',
      });
      assert.equal(site.status, 201);
      const customization = `/v1/orgs/${org.id}/sites/${String(site.body.id)}/customization`;
      const put = await call(server.url, token, 'PUT', customization, { title: 'From dist' });
      assert.equal(put.status, 200);
      assert.equal((await call(server.url, token, 'GET', customization)).body.title, 'From dist');
      const docs = await fetch(`${server.url}/openapi.json`);
      assert.equal(docs.status, 200);
      stopped = true;
      assert.equal(await server.stop(), 0, 'SIGTERM drains and exits 0');
    } finally {
      if (!stopped) await server.stop('SIGKILL');
    }
  });

  test('a bad configuration stops start-up with one message listing every bad key', async () => {
    const result = await run(['--import', 'tsx', 'src/server.ts'], {
      PORT: 'x',
      LOG_LEVEL: 'chatty',
      DATABASE_URL: `sqlite:${join(dir, 'never.db')}`,
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Invalid configuration:\n {2}- PORT .*\n {2}- LOG_LEVEL/);
  });
});
