import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKEND, createTestDatabase, type TestDatabase } from '../helpers/backend.js';
import { byTitle, checkedHistory, newSite, type Revision } from '../helpers/history.js';
import { call, type Reply } from '../helpers/load.js';
import {
  bootstrapEnv,
  firstOrgId,
  type ServerProcess,
  startServer,
  startTwoOnFreshDatabase,
  type TwoProcesses,
} from '../helpers/process.js';

const TOKEN = 'gb_history-multi-process-token-01234';
const WRITERS = 50;
const ROUNDS = 4;

/** What a storm's writers were told: the changes acknowledged, by value, and the refusals. */
interface Tally {
  /** Title written → the ETag its 200 answered. */
  acknowledged: Map<string, string>;
  deleted: number;
  refused: Map<number, number>;
}

const refuse = (tally: Tally, status: number) =>
  tally.refused.set(status, (tally.refused.get(status) ?? 0) + 1);

/**
 * 50 writers spread over two processes at once, each making ROUNDS requests to one
 * customization: most write a distinct title (so every acknowledged write changes something);
 * some send an If-Match that is stale before the storm starts (412), some an invalid body (400),
 * some restore a revision that does not exist (404, refused inside the unit), some race on an
 * If-Match they just read (200 or 412), and, for a variant, some alternate PATCH and DELETE.
 */
async function storm(
  servers: ServerProcess[],
  path: string,
  method: 'PUT' | 'PATCH',
  staleEtag: string,
): Promise<Tally> {
  const tally: Tally = { acknowledged: new Map(), deleted: 0, refused: new Map() };
  const write = async (server: ServerProcess, title: string, headers?: Record<string, string>) => {
    const reply = await call(server.url, TOKEN, method, path, { title }, headers);
    if (reply.status === 200) tally.acknowledged.set(title, reply.etag ?? '');
    else refuse(tally, reply.status);
    return reply;
  };
  const writer = async (i: number) => {
    const server = servers[i % servers.length] as ServerProcess;
    for (let round = 0; round < ROUNDS; round++) {
      const title = `${method}-w${i}-r${round}`;
      const role = i % 10;
      let reply: Reply;
      if (role === 5) {
        reply = await write(server, title, { 'if-match': staleEtag });
        assert.equal(reply.status, 412, 'an If-Match stale before the storm');
      } else if (role === 6) {
        const bad = { title, styling: { corners: 'jagged' } };
        reply = await call(server.url, TOKEN, method, path, bad);
        assert.equal(reply.status, 400, JSON.stringify(reply.body));
        refuse(tally, 400);
      } else if (role === 7) {
        reply = await call(server.url, TOKEN, 'POST', `${path}/revisions/100000/restore`);
        assert.equal(reply.status, 404, JSON.stringify(reply.body));
        refuse(tally, 404);
      } else if (role === 8) {
        const seen = await call(server.url, TOKEN, 'GET', path);
        reply = await write(server, title, { 'if-match': seen.etag ?? '' });
        assert.ok([200, 412].includes(reply.status), `raced If-Match: ${reply.status}`);
      } else if (role === 9 && method === 'PATCH' && round % 2 === 1) {
        // After its own PATCH: the first DELETE to commit finds an override to remove.
        reply = await call(server.url, TOKEN, 'DELETE', path);
        assert.ok([204, 205].includes(reply.status), `DELETE: ${reply.status}`);
        if (reply.status === 205) tally.deleted += 1;
      } else {
        reply = await write(server, title);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i)));
  return tally;
}

// The two suites run at once, each on its own database: the wall time of the slower one.
describe(`customization history, several processes (${BACKEND})`, { concurrency: true }, () => {
  describe(`under two processes at once`, () => {
    let two: TwoProcesses;
    before(async () => {
      two = await startTwoOnFreshDatabase(TOKEN);
    });
    after(async () => two?.close());

    test('50 writers over two processes: revisions 1..N, exactly the acknowledged changes', async () => {
      const { a, b, orgId } = two;
      const first = await newSite(a, TOKEN, orgId, 1);
      const second = await newSite(b, TOKEN, orgId, 1);
      const targets = [
        { path: first.site, target: first.siteId, method: 'PUT' as const },
        { path: second.variant(), target: second.siteSpaceIds[0] ?? '', method: 'PATCH' as const },
      ];
      // Each starts with one acknowledged change, which makes the ETag before it stale.
      const stale: string[] = [];
      const seeds: Tally[] = [];
      for (const { path, method } of targets) {
        const before = await call(a.url, TOKEN, 'GET', path);
        const seed = await call(b.url, TOKEN, method, path, { title: `${method}-seed` });
        assert.equal(seed.status, 200);
        stale.push(before.etag ?? '');
        const acknowledged = new Map([[`${method}-seed`, seed.etag ?? '']]);
        seeds.push({ acknowledged, deleted: 0, refused: new Map() });
      }
      const tallies = await Promise.all(
        targets.map(({ path, method }, i) => storm([a, b], path, method, stale[i] ?? '')),
      );

      for (const [i, { path, target, method }] of targets.entries()) {
        const tally = tallies[i] as Tally;
        for (const [title, etag] of seeds[i]?.acknowledged ?? [])
          tally.acknowledged.set(title, etag);
        const revisions = await checkedHistory(a.url, TOKEN, orgId, path, target);
        const expected = tally.acknowledged.size + tally.deleted;
        assert.equal(revisions.length, expected, `${method}: N is the acknowledged changes`);
        assert.ok((tally.refused.get(412) ?? 0) >= 5 * ROUNDS, 'the storm had stale If-Matches');
        assert.equal(tally.refused.get(400), 5 * ROUNDS);

        // Each acknowledged value is in exactly one revision, the one with the ETag it was given.
        const titles = byTitle(revisions);
        assert.deepEqual([...titles.keys()].sort(), [...tally.acknowledged.keys()].sort());
        for (const [title, etag] of tally.acknowledged) {
          assert.equal(titles.get(title)?.etag, etag, `${title}: its revision has its ETag`);
        }
        const operations = revisions.map((revision) => revision.operation);
        const deletes = revisions.filter((revision) => revision.operation === 'delete');
        assert.equal(deletes.length, tally.deleted, 'one delete revision per 205');
        if (method === 'PATCH') assert.ok(tally.deleted > 0, 'some DELETE removed the override');
        for (const revision of deletes) assert.equal(revision.settings, null);
        assert.equal(
          operations.filter((operation) => operation === method.toLowerCase()).length,
          tally.acknowledged.size,
        );
        // Both processes answer the same history.
        assert.deepEqual(await checkedHistory(b.url, TOKEN, orgId, path, target), revisions);
      }
    });
  });

  describe(`after kill -9 mid-storm`, () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;
    before(async () => {
      database = await createTestDatabase();
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await database.dispose();
    });

    test('every acknowledged change is in the history, numbered 1..N, and restores as N+1', async () => {
      const env = bootstrapEnv(database.url, TOKEN);
      const first = await startServer(env);
      server = first;
      const orgId = await firstOrgId(first.url, TOKEN);
      // Two sites: a variant's ETag and effective settings move with its site's customization.
      const fixture = await newSite(first, TOKEN, orgId, 0);
      const other = await newSite(first, TOKEN, orgId, 1);
      const targets = [
        { path: fixture.site, target: fixture.siteId, method: 'PUT' },
        { path: other.variant(), target: other.siteSpaceIds[0] ?? '', method: 'PATCH' },
      ];

      // Each writer writes distinct titles in sequence until the server is gone; what it had
      // in flight then may or may not have been committed.
      const acknowledged = targets.map(() => new Set<string>());
      const inFlight = targets.map(() => new Set<string>());
      const problems: string[] = [];
      let total = 0;
      let killed = false;
      const writer = async (i: number) => {
        const k = i % targets.length;
        const { path, method } = targets[k] as (typeof targets)[number];
        for (let seq = 1; !killed; seq++) {
          const title = `${method}-w${i}-${seq}`;
          const reply = await call(first.url, TOKEN, method, path, { title }).catch(
            () => undefined,
          );
          if (reply === undefined) return void inFlight[k]?.add(title);
          if (reply.status !== 200) return void problems.push(`${method} ${reply.status}`);
          acknowledged[k]?.add(title);
          total += 1;
        }
      };
      const writers = Promise.all(Array.from({ length: 16 }, (_, i) => writer(i)));
      const deadline = Date.now() + 20_000;
      while (total < 200 && problems.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await first.stop('SIGKILL');
      killed = true;
      await writers;
      assert.deepEqual(problems, []);
      assert.ok(total > 0, 'writes were acknowledged before the kill');

      server = await startServer(env);
      const url = server.url;
      for (const [k, { path, target }] of targets.entries()) {
        const revisions = await checkedHistory(url, TOKEN, orgId, path, target);
        const titles = byTitle(revisions);
        const acked = acknowledged[k] ?? new Set<string>();
        for (const title of acked)
          assert.ok(titles.has(title), `acknowledged ${title} is recorded`);
        for (const title of titles.keys()) {
          assert.ok(acked.has(title) || inFlight[k]?.has(title), `${title} was written`);
        }
        assert.equal(titles.size, revisions.length, 'every revision is one of the writes');

        // Restore the earliest acknowledged revision: not the latest, so the restore changes.
        const chosen = [...acked]
          .map((title) => titles.get(title) as Revision)
          .reduce((x, y) => (x.number < y.number ? x : y));
        const n = revisions.length;
        assert.ok(chosen.number < n, 'the storm made more than one revision');
        const restored = await call(
          url,
          TOKEN,
          'POST',
          `${path}/revisions/${chosen.number}/restore`,
        );
        assert.equal(restored.status, 200, JSON.stringify(restored.body));
        const after = await checkedHistory(url, TOKEN, orgId, path, target);
        assert.equal(after.length, n + 1);
        const latest = after.at(-1) as Revision;
        assert.equal(latest.operation, 'restore');
        assert.equal(latest.restoredFrom, chosen.number);
        assert.deepEqual(latest.settings, chosen.settings, 'the restored document is current');
        assert.equal(latest.etag, restored.etag);
        assert.deepEqual(after.slice(0, n), revisions, 'earlier revisions are untouched');
        const current = await call(url, TOKEN, 'GET', path);
        if (path === fixture.site) assert.deepEqual(current.body, chosen.settings);
        assert.deepEqual(current.body, restored.body);
      }
    });
  });
});
