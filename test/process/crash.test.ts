import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../../src/config.js';
import { BACKEND, createTestDatabase, type TestDatabase } from '../helpers/backend.js';
import { call } from '../helpers/load.js';
import { bootstrapEnv, firstOrgId, type ServerProcess, startServer } from '../helpers/process.js';

const TOKEN = 'gb_crash-test-token-0123456789abcdef';
const WRITERS = 8;

/** A PATCH that sets two fields at once, both naming the same sequence number. */
const pairOf = (writer: number, seq: number) => {
  const color = `#${seq.toString(16).padStart(6, '0')}`;
  return { title: `w${writer}-${seq}`, styling: { primaryColor: { light: color, dark: color } } };
};

describe(`kill -9 in the middle of a write storm (${BACKEND})`, () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await database.dispose();
  });

  test('after a restart every acknowledged write is there, and no PATCH is half-applied', async () => {
    const env = bootstrapEnv(database.url, TOKEN);
    const first = await startServer(env);
    server = first;
    const orgId = await firstOrgId(first.url, TOKEN);
    const spaceIds: string[] = [];
    for (let i = 0; i < WRITERS; i++) {
      const space = await call(first.url, TOKEN, 'POST', `/v1/orgs/${orgId}/spaces`, {
        title: `Variant ${i}`,
      });
      spaceIds.push(space.body.id as string);
    }
    const site = await call(first.url, TOKEN, 'POST', `/v1/orgs/${orgId}/sites`, {
      title: 'Docs',
      spaces: spaceIds,
    });
    const base = `/v1/orgs/${orgId}/sites/${site.body.id as string}`;
    const list = await call(first.url, TOKEN, 'GET', `${base}/site-spaces`);
    const variants = (list.body.items as { id: string }[]).map(
      (v) => `${base}/site-spaces/${v.id}/customization`,
    );
    assert.equal(variants.length, WRITERS);

    // The storm: each writer PATCHes its own variant in sequence; one more creates spaces.
    const acknowledged = new Array<number>(WRITERS).fill(0);
    const createdSpaces: string[] = [];
    const problems: string[] = [];
    let total = 0;
    let killed = false;
    const writer = async (i: number) => {
      for (let seq = 1; !killed; seq++) {
        const reply = await call(
          first.url,
          TOKEN,
          'PATCH',
          variants[i] ?? '',
          pairOf(i, seq),
        ).catch(() => undefined);
        if (reply === undefined) return; // the server is gone
        if (reply.status !== 200) return void problems.push(`PATCH ${reply.status}`);
        acknowledged[i] = seq;
        total += 1;
      }
    };
    const creator = async () => {
      for (let n = 0; !killed; n++) {
        const reply = await call(first.url, TOKEN, 'POST', `/v1/orgs/${orgId}/spaces`, {
          title: `Storm ${n}`,
        }).catch(() => undefined);
        if (reply === undefined) return;
        if (reply.status !== 201) return void problems.push(`POST ${reply.status}`);
        createdSpaces.push(reply.body.id as string);
      }
    };
    const storm = Promise.all([...Array.from({ length: WRITERS }, (_, i) => writer(i)), creator()]);
    const deadline = Date.now() + 30_000;
    while (total < 400 && problems.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.stop('SIGKILL');
    killed = true;
    await storm;
    assert.deepEqual(problems, []);
    assert.ok(total >= 400, `the storm made ${total} writes before the kill`);

    if (BACKEND === 'sqlite') {
      // The file opens cleanly and is consistent (WAL replayed by the next opener).
      const config = loadConfig({ DATABASE_URL: database.url }).database;
      const file = new SQLite(config.dialect === 'sqlite' ? config.filename : '');
      assert.equal(file.pragma('integrity_check', { simple: true }), 'ok');
      file.close();
    }

    server = await startServer(env);
    for (let i = 0; i < WRITERS; i++) {
      const state = await call(server.url, TOKEN, 'GET', variants[i] ?? '');
      assert.equal(state.status, 200);
      const titleSeq = Number(/^w\d+-(\d+)$/.exec(String(state.body.title))?.[1]);
      const styling = state.body.styling as { primaryColor: { light: string } };
      const colorSeq = Number.parseInt(styling.primaryColor.light.slice(1), 16);
      assert.equal(titleSeq, colorSeq, `variant ${i}: both fields of one PATCH, or neither`);
      // Every acknowledged write is there; at most the one in flight at the kill went further.
      const acked = acknowledged[i] ?? 0;
      assert.ok(
        titleSeq === acked || titleSeq === acked + 1,
        `variant ${i}: stored ${titleSeq}, acknowledged ${acked}`,
      );
    }
    for (const id of createdSpaces) {
      assert.equal((await call(server.url, TOKEN, 'GET', `/v1/spaces/${id}`)).status, 200, id);
    }
    assert.ok(createdSpaces.length > 0);
  });
});
