import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';
import {
  allPages,
  appOnSameDatabase,
  currentRevision,
  gitInfo,
  heldReader,
  importAndWait,
  newSpace,
  no5xx,
  queueImport,
  stall,
  waitEnded,
} from '../helpers/git-import.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

/**
 * Git Sync import's semantics (issue 27, item 9; docs/git-sync.md): page ids across imports,
 * which imports make revisions, `standalone`, `timestamp`, one operation at a time per space
 * (in one process and across processes), permissions, restarts, dead owners and timeouts; then
 * the files, reusable contents and redirects an import brings. Operations that must overlap are
 * made to by a repository whose fetch is held (helpers/git-import.ts `stall`), never by timing.
 */

const BASE = {
  'README.md': '# Welcome\n\nHello.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
  'guide.md': '# Guide\n\nText.\n',
};

/** The id of the space's latest revision, current or not (standalone revisions are not). */
async function latestRevisionId(t: TestContext, spaceId: string): Promise<string> {
  const rows = await t.db
    .selectFrom('revisions')
    .select(['id', 'created_at'])
    .where('space_id', '=', spaceId)
    .orderBy('created_at', 'desc')
    .execute();
  const first = rows[0];
  assert.ok(first);
  return first.id;
}

describe(`Git Sync import: semantics (${BACKEND})`, () => {
  const repo = new TestRepo();
  const url = `file://${repo.dir}`;
  let t: TestContext;
  before(async () => {
    repo.commit(BASE, 'base');
    t = await createTestApp({
      GIT_LOCAL_DIRS: repo.root,
      GIT_CACHE_DIR: join(repo.root, '.cache'),
    });
  });
  after(async () => {
    await t.close();
    repo.dispose();
  });

  test('a page keeps its id while its file keeps its path; a renamed file is a new page', async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    assert.equal(
      (await importAndWait(t, spaceId, { url, ref: 'main' })).operation.state,
      'success',
    );
    const first = await currentRevision(t, spaceId);
    const [welcome, guide] = first.pages;
    assert.equal(guide.title, 'Guide');

    repo.commit(
      {
        'README.md': '# Welcome\n\nHello again, edited.\n',
        'guide.md': null,
        'manual.md': '# Guide\n\nText.\n',
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](manual.md)\n',
      },
      'rename guide.md to manual.md',
    );
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    const second = await currentRevision(t, spaceId);
    assert.notEqual(second.id, first.id);
    assert.equal(second.pages[0].id, welcome.id, 'an edited file at the same path: the same page');
    assert.notEqual(second.pages[0].updatedAt, undefined);
    assert.equal(second.pages[1].title, 'Guide');
    assert.notEqual(second.pages[1].id, guide.id, 'a renamed file: a new page');
    assert.deepEqual(second.pages[1].git.path, 'manual.md');
    // The old page stays readable in the old revision, by its id.
    const old = await t.request({
      url: `/v1/spaces/${spaceId}/revisions/${first.id}/page/${guide.id}`,
    });
    assert.equal(old.statusCode, 200, old.body);
    repo.commit({ ...BASE, 'manual.md': null }, 'back to base');
  });

  test('an unchanged commit makes no revision; force: true makes one', async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    await importAndWait(t, spaceId, { url, ref: 'main' });
    const first = await currentRevision(t, spaceId);
    const again = await importAndWait(t, spaceId, { url, ref: 'refs/heads/main' });
    assert.equal(again.operation.state, 'success');
    assert.equal((await currentRevision(t, spaceId)).id, first.id, 'no revision');
    const forced = await importAndWait(t, spaceId, { url, ref: 'main', force: true });
    assert.equal(forced.operation.state, 'success');
    const third = await currentRevision(t, spaceId);
    assert.notEqual(third.id, first.id, 'force: a new revision');
    assert.equal(third.git.oid, first.git.oid, 'of the same commit');
    assert.deepEqual(
      third.pages.map((p: { id: string }) => p.id),
      first.pages.map((p: { id: string }) => p.id),
    );
  });

  test('the same commit read from another project directory is not "unchanged": it is imported', async () => {
    repo.commit({ ...BASE, 'other/README.md': '# Other project\n' }, 'two projects');
    const spaceId = await newSpace(t);
    await importAndWait(t, spaceId, { url, ref: 'main' });
    const first = await currentRevision(t, spaceId);
    const state = await importAndWait(t, spaceId, {
      url,
      ref: 'main',
      repoProjectDirectory: 'other',
    });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    const second = await currentRevision(t, spaceId);
    assert.notEqual(second.id, first.id);
    assert.equal(second.git.oid, first.git.oid);
    assert.deepEqual(
      second.pages.map((p: { title: string }) => p.title),
      ['Other project'],
    );
    repo.commit({ ...BASE, 'other/README.md': null }, 'base');
  });

  test("standalone: true makes a revision, readable by getRevisionById, without moving the space's current one", async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    await importAndWait(t, spaceId, { url, ref: 'main' });
    const current = await currentRevision(t, spaceId);
    const commit = repo.commit({ 'guide.md': '# Guide\n\nStandalone text.\n' }, 'standalone');
    const state = await importAndWait(t, spaceId, { url, ref: 'main', standalone: true });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    assert.equal((await currentRevision(t, spaceId)).id, current.id, 'the current one stays');
    const standaloneId = await latestRevisionId(t, spaceId);
    assert.notEqual(standaloneId, current.id);
    const read = await t.request({ url: `/v1/spaces/${spaceId}/revisions/${standaloneId}` });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().git.oid, commit);
    const guide = read.json().pages[1];
    const md = await t.request({
      url: `/v1/spaces/${spaceId}/revisions/${standaloneId}/page/${guide.id}?format=markdown`,
    });
    assert.match(md.json().markdown, /Standalone text/);
    repo.commit(BASE, 'base');
  });

  test('an import with an older timestamp than the last is ignored: 204, nothing runs', async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    const last = await importAndWait(t, spaceId, {
      url,
      ref: 'main',
      timestamp: '2026-01-01T23:00:00Z',
    });
    assert.equal(last.operation.state, 'success');
    const revision = await currentRevision(t, spaceId);
    repo.commit({ 'guide.md': '# Guide\n\nNewer text.\n' }, 'newer text');
    // Older, written with another offset and with fractions: compared as times, not as text.
    for (const timestamp of [
      '2026-01-01T22:59:59.999Z',
      '2026-01-02T01:00:00+05:00',
      '2026-01-01T22:00:00.5Z',
    ]) {
      const res = await queueImport(t, spaceId, { url, ref: 'main', timestamp });
      assert.equal(res.statusCode, 204, res.body);
      const info = await gitInfo(t, spaceId);
      assert.equal(info.operation.state, 'success', timestamp);
      assert.equal(info.operation.startedAt, last.operation.startedAt, `${timestamp}: nothing ran`);
      assert.equal((await currentRevision(t, spaceId)).id, revision.id, timestamp);
    }
    // A newer one runs.
    const newer = await importAndWait(t, spaceId, {
      url,
      ref: 'main',
      timestamp: '2026-01-02T00:00:00+00:00',
    });
    assert.notEqual(newer.operation.startedAt, last.operation.startedAt);
    assert.notEqual((await currentRevision(t, spaceId)).id, revision.id);
    repo.commit(BASE, 'base');
  });

  test('two imports at once for one space: the second is a 409 while the first runs', async () => {
    const held = new TestRepo();
    held.commit(BASE, 'held');
    const t2 = await createTestApp({
      GIT_LOCAL_DIRS: held.root,
      GIT_CACHE_DIR: join(held.root, '.cache'),
    });
    const release = stall(held);
    try {
      const spaceId = await newSpace(t2);
      const heldUrl = `file://${held.dir}`;
      const first = await queueImport(t2, spaceId, { url: heldUrl, ref: 'main' });
      assert.equal(first.statusCode, 204, first.body);
      assert.equal((await gitInfo(t2, spaceId)).operation.state, 'running');
      const second = await queueImport(t2, spaceId, { url: heldUrl, ref: 'main', force: true });
      assert.match(expectError(second, 409), /running/);

      // Sent together to a fresh space: exactly one runs.
      const other = await newSpace(t2);
      const both = await Promise.all([
        queueImport(t2, other, { url: heldUrl, ref: 'main' }),
        queueImport(t2, other, { url: heldUrl, ref: 'main' }),
      ]);
      assert.deepEqual(
        both.map((r) => r.statusCode).sort(),
        [204, 409],
        both.map((r) => r.body).join(),
      );

      release();
      for (const id of [spaceId, other]) {
        const ended = await waitEnded(t2, id);
        assert.equal(ended.operation.state, 'success', JSON.stringify(ended));
      }
      // Once ended, the next import may run.
      const third = await queueImport(t2, spaceId, { url: heldUrl, ref: 'main', force: true });
      assert.equal(third.statusCode, 204, third.body);
      assert.equal((await waitEnded(t2, spaceId)).operation.state, 'success');
    } finally {
      release();
      await t2.close();
      held.dispose();
    }
  });

  test('two spaces importing one repository at once, at different refs: each gets its own commit', async () => {
    const held = new TestRepo();
    const mainCommit = held.commit(BASE, 'main');
    held.git('checkout', '-q', '-b', 'side');
    const sideCommit = held.commit({ 'guide.md': '# Guide\n\nSide text.\n' }, 'side');
    held.git('checkout', '-q', 'main');
    const t2 = await createTestApp({
      GIT_LOCAL_DIRS: held.root,
      GIT_CACHE_DIR: join(held.root, '.cache'),
    });
    const release = stall(held);
    try {
      const heldUrl = `file://${held.dir}`;
      const spaces = [await newSpace(t2), await newSpace(t2), await newSpace(t2)];
      const refs = ['main', 'side', 'refs/heads/main'];
      const queued = await Promise.all(
        spaces.map((id, i) => queueImport(t2, id, { url: heldUrl, ref: refs[i] })),
      );
      assert.deepEqual(
        queued.map((r) => r.statusCode),
        [204, 204, 204],
      );
      release();
      const expected = [mainCommit, sideCommit, mainCommit];
      for (const [i, id] of spaces.entries()) {
        const ended = await waitEnded(t2, id);
        assert.equal(ended.operation.state, 'success', JSON.stringify(ended));
        assert.equal((await currentRevision(t2, id)).git.oid, expected[i], refs[i]);
      }
    } finally {
      release();
      await t2.close();
      held.dispose();
    }
  });

  test('the lock files a killed git leaves in the cache repository do not stop the next import', async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    await importAndWait(t, spaceId, { url, ref: 'main' });
    // What `git fetch` stopped by SIGKILL (a timeout, a stopping server) leaves behind.
    const cache = join(repo.root, '.cache');
    for (const name of readdirSync(cache)) {
      writeFileSync(join(cache, name, 'shallow.lock'), '');
      mkdirSync(join(cache, name, 'refs', 'livery'), { recursive: true });
      writeFileSync(join(cache, name, 'refs', 'livery', 'import.lock'), '');
    }
    const commit = repo.commit({ 'guide.md': '# Guide\n\nAfter the locks.\n' }, 'after locks');
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    assert.equal((await currentRevision(t, spaceId)).git.oid, commit);
    repo.commit(BASE, 'base');
  });

  test('permissions: a read member gets 403 on import and 200 on info; a token without space:write gets 403', async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    const reader = await memberWithRole(t, 'read');
    const refused = await requestAs(t, reader, {
      method: 'POST',
      url: `/v1/spaces/${spaceId}/git/import`,
      payload: { url, ref: 'main' },
    });
    expectError(refused, 403);
    expectError(await t.request({ url: `/v1/spaces/${spaceId}/git/info` }), 404);

    await importAndWait(t, spaceId, { url, ref: 'main' });
    const info = await requestAs(t, reader, { url: `/v1/spaces/${spaceId}/git/info` });
    assert.equal(info.statusCode, 200, info.body);
    assert.equal(info.json().operation.state, 'success');

    const { token } = await t.services.identity.createToken(t.userId, {
      label: 'read only',
      scopes: ['space:read'],
    });
    const scoped = { id: t.userId, token };
    expectError(
      await requestAs(t, scoped, {
        method: 'POST',
        url: `/v1/spaces/${spaceId}/git/import`,
        payload: { url, ref: 'main', force: true },
      }),
      403,
    );
    const scopedInfo = await requestAs(t, scoped, { url: `/v1/spaces/${spaceId}/git/info` });
    assert.equal(scopedInfo.statusCode, 200, scopedInfo.body);
    assert.equal(scopedInfo.json().operation.startedAt, info.json().operation.startedAt);
  });

  test('getSpaceGitInfo is a 404 before the first import; Space.gitSync appears after one', async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    const missing = expectError(await t.request({ url: `/v1/spaces/${spaceId}/git/info` }), 404);
    assert.match(missing, /Git Sync/);
    const before = expectStatus(await t.request({ url: `/v1/spaces/${spaceId}` }), 200);
    assert.equal(before.gitSync, undefined);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    const space = expectStatus(await t.request({ url: `/v1/spaces/${spaceId}` }), 200);
    assert.deepEqual(space.gitSync, state);
  });

  test('a running operation whose owner died (its lease ran out) is reported as a failure, and the next import runs', async () => {
    repo.commit(BASE, 'base');
    const spaceId = await newSpace(t);
    const long = '2026-01-01T00:00:00.000Z';
    await t.db
      .insertInto('git_sync')
      .values({
        space_id: spaceId,
        url: repo.dir,
        ref: 'main',
        project_directory: null,
        tree_url: null,
        commit_url: null,
        state: 'running',
        direction: 'import',
        started_at: long,
        ended_at: null,
        error: null,
        warnings: '[]',
        commit_oid: null,
        timestamp: null,
        owner: 'a-process-that-died',
        lease_until: '2026-01-01T00:00:30.000Z',
        updated_at: long,
      })
      .execute();
    // Every reader sees it ended: Space.gitSync first (before getSpaceGitInfo writes it down).
    const space = expectStatus(await t.request({ url: `/v1/spaces/${spaceId}` }), 200) as {
      gitSync: { operation: { state: string } };
    };
    assert.equal(space.gitSync.operation.state, 'failure', JSON.stringify(space.gitSync));
    const info = await gitInfo(t, spaceId);
    assert.equal(info.operation.state, 'failure');
    assert.match(info.operation.error, /stopped/);
    assert.ok(info.operation.endedAt);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success');
  });

  test('a restart during an import: the operation ends as a failure with its reason, and a new server reports it ended', async () => {
    const held = new TestRepo();
    held.commit(BASE, 'held');
    const env = { GIT_LOCAL_DIRS: held.root, GIT_CACHE_DIR: join(held.root, '.cache') };
    const t2 = await createTestApp(env);
    const release = stall(held);
    try {
      const spaceId = await newSpace(t2);
      const before = (await currentRevision(t2, spaceId)).id;
      const queued = await queueImport(t2, spaceId, { url: `file://${held.dir}`, ref: 'main' });
      assert.equal(queued.statusCode, 204, queued.body);
      assert.equal((await gitInfo(t2, spaceId)).operation.state, 'running');
      await t2.app.close();
      // Its git was stopped with it: no fetch of the stopped server goes on (holding locks).
      assert.equal(heldReader(held), false, 'a git process of the stopped server still runs');

      const restarted = await appOnSameDatabase(t2, env);
      try {
        const info = await gitInfo(restarted, spaceId);
        assert.equal(info.operation.state, 'failure', JSON.stringify(info));
        assert.match(info.operation.error, /stopped/);
        assert.ok(info.operation.endedAt);
        const space = expectStatus(await restarted.request({ url: `/v1/spaces/${spaceId}` }), 200);
        assert.equal(
          (space.gitSync as { operation: { state: string } }).operation.state,
          'failure',
        );
        assert.equal((await currentRevision(restarted, spaceId)).id, before, 'nothing imported');
        // The held fetch of the stopped server goes on: its end must not undo the failure.
        release();
        const again = await importAndWait(restarted, spaceId, {
          url: `file://${held.dir}`,
          ref: 'main',
        });
        assert.equal(again.operation.state, 'success', JSON.stringify(again));
      } finally {
        await restarted.close();
      }
    } finally {
      release();
      await t2.close();
      held.dispose();
    }
  });

  test('GIT_OPERATION_TIMEOUT_MS: an import running longer ends as `timeout`, the space unchanged', async () => {
    const held = new TestRepo();
    held.commit(BASE, 'held');
    const env = { GIT_LOCAL_DIRS: held.root, GIT_CACHE_DIR: join(held.root, '.cache') };
    const t2 = await createTestApp({ ...env, GIT_OPERATION_TIMEOUT_MS: '1' });
    const release = stall(held);
    try {
      const spaceId = await newSpace(t2);
      const before = (await currentRevision(t2, spaceId)).id;
      const state = await importAndWait(t2, spaceId, { url: `file://${held.dir}`, ref: 'main' });
      assert.equal(state.operation.state, 'timeout', JSON.stringify(state));
      assert.match(state.operation.error, /GIT_OPERATION_TIMEOUT_MS/);
      assert.equal(state.operationTimeout, 1);
      assert.equal((await currentRevision(t2, spaceId)).id, before);
      // The stopped fetch left nothing in the way: with time enough, the next import runs.
      release();
      const patient = await appOnSameDatabase(t2, env);
      try {
        const again = await importAndWait(patient, spaceId, {
          url: `file://${held.dir}`,
          ref: 'main',
        });
        assert.equal(again.operation.state, 'success', JSON.stringify(again));
      } finally {
        await patient.close();
      }
    } finally {
      release();
      await t2.close();
      held.dispose();
    }
  });

  test('two servers on one database importing the same space at once: exactly one runs, the other is a 409', async () => {
    const held = new TestRepo();
    held.commit(BASE, 'held');
    const env = { GIT_LOCAL_DIRS: held.root, GIT_CACHE_DIR: join(held.root, '.cache') };
    const a = await createTestApp(env);
    const b = await appOnSameDatabase(a, { ...env, GIT_CACHE_DIR: join(held.root, '.cache-b') });
    const release = stall(held);
    try {
      const spaceId = await newSpace(a);
      const body = { url: `file://${held.dir}`, ref: 'main' };
      const answers = await Promise.all([
        queueImport(a, spaceId, body),
        queueImport(b, spaceId, body),
      ]);
      assert.deepEqual(
        answers.map((r) => r.statusCode).sort(),
        [204, 409],
        answers.map((r) => r.body).join(),
      );
      // Both servers see the one operation running, and refuse another.
      for (const server of [a, b]) {
        assert.equal((await gitInfo(server, spaceId)).operation.state, 'running');
        expectError(await queueImport(server, spaceId, { ...body, force: true }), 409);
      }
      release();
      const state = await waitEnded(b, spaceId);
      assert.equal(state.operation.state, 'success', JSON.stringify(state));
      const revisions = await a.db
        .selectFrom('revisions')
        .select('id')
        .where('space_id', '=', spaceId)
        .where('git', 'is not', null)
        .execute();
      assert.equal(revisions.length, 1, 'imported once');
    } finally {
      release();
      await b.close();
      await a.close();
      held.dispose();
    }
  });
});

describe(`Git Sync import: files, reusable contents, redirects (${BACKEND})`, () => {
  const repo = new TestRepo();
  const url = `file://${repo.dir}`;
  let t: TestContext;
  let spaceId: string;
  // biome-ignore lint/suspicious/noExplicitAny: the revision as answered
  let revision: Record<string, any>;
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>';
  before(async () => {
    t = await createTestApp({
      GIT_LOCAL_DIRS: repo.root,
      GIT_CACHE_DIR: join(repo.root, '.cache'),
    });
    repo.commit(
      {
        '.gitbook.yaml':
          'root: ./\nredirects:\n  old/place: guide.md\n  guide: README.md\n  gone: nowhere.md\n',
        'README.md':
          '# Welcome\n\n![a](.gitbook/assets/a.png)\n\n[The manual](.gitbook/assets/manual.pdf)\n\n![logo](.gitbook/assets/logo.svg)\n',
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
        'guide.md': '# Guide\n\n{% include ".gitbook/includes/note.md" %}\n',
        '.gitbook/assets/a.png': pngOf(10, 20),
        '.gitbook/assets/b.png': pngOf(30, 40),
        '.gitbook/assets/manual.pdf': Buffer.from('%PDF-1.4\n% a test file\n'),
        '.gitbook/assets/logo.svg': svg,
        '.gitbook/includes/note.md': '---\ntitle: A note\n---\n\nA reusable **note**.\n',
      },
      'files',
    );
    spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, { url, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    revision = await currentRevision(t, spaceId);
  });
  after(async () => {
    await t.close();
    repo.dispose();
  });

  test('listFiles pages with limit=1 through every file once; getFileById; unknown ids are 404 envelopes', async () => {
    assert.equal(revision.files.length, 4);
    const seen: string[] = [];
    let page: string | undefined;
    for (let i = 0; i < 10; i++) {
      const query = page === undefined ? 'limit=1' : `limit=1&page=${encodeURIComponent(page)}`;
      const res = expectStatus(
        await t.request({ url: `/v1/spaces/${spaceId}/content/files?${query}` }),
        200,
      ) as { items: { id: string }[]; next?: { page: string }; count: number };
      assert.equal(res.items.length, 1);
      assert.equal(res.count, 4);
      seen.push(...res.items.map((f) => f.id));
      page = res.next?.page;
      if (page === undefined) break;
    }
    assert.deepEqual(
      seen,
      revision.files.map((f: { id: string }) => f.id),
    );
    const [first] = revision.files;
    const one = await t.request({ url: `/v1/spaces/${spaceId}/content/files/${first.id}` });
    assert.deepEqual(expectStatus(one, 200), first);
    assert.match(
      expectError(
        await t.request({ url: `/v1/spaces/${spaceId}/content/files/no-such-file` }),
        404,
      ),
      /file/,
    );
    expectError(
      await t.request({ url: `/v1/spaces/${spaceId}/content/files?page=not-a-cursor` }),
      400,
    );
  });

  test('listFilesInRevisionById and getFileInRevisionById answer the revision’s files', async () => {
    const base = `/v1/spaces/${spaceId}/revisions/${revision.id}/files`;
    const list = expectStatus(await t.request({ url: base }), 200) as { items: unknown[] };
    assert.deepEqual(list.items, revision.files);
    const png = revision.files.find((f: { name: string }) => f.name === 'b.png');
    assert.deepEqual(png.dimensions, { width: 30, height: 40 });
    assert.equal(png.git.path, '.gitbook/assets/b.png');
    assert.deepEqual(expectStatus(await t.request({ url: `${base}/${png.id}` }), 200), png);
    expectError(await t.request({ url: `${base}/nope` }), 404);
    expectError(
      await t.request({ url: `/v1/spaces/${spaceId}/revisions/no-such-revision/files` }),
      404,
    );
  });

  test('reusable contents: by id in the space and in the revision, and its document as JSON', async () => {
    assert.equal(revision.reusableContents.length, 1);
    const [note] = revision.reusableContents;
    assert.equal(note.title, 'A note');
    const inSpace = expectStatus(
      await t.request({ url: `/v1/spaces/${spaceId}/content/reusable-contents/${note.id}` }),
      200,
    );
    assert.equal(inSpace.id, note.id);
    assert.equal(inSpace.title, 'A note');
    assert.deepEqual(inSpace.git, {
      oid: repo.git('rev-parse', 'HEAD:.gitbook/includes/note.md'),
      path: '.gitbook/includes/note.md',
    });
    const inRevision = expectStatus(
      await t.request({
        url: `/v1/spaces/${spaceId}/revisions/${revision.id}/reusable-contents/${note.id}`,
      }),
      200,
    );
    assert.deepEqual(inRevision, inSpace);
    const doc = await t.request({
      url: `/v1/spaces/${spaceId}/revisions/${revision.id}/reusable-contents/${note.id}/document`,
    });
    assert.equal(doc.statusCode, 200, doc.body);
    assert.match(String(doc.headers['content-type']), /^application\/json/);
    const json = doc.json();
    const text = JSON.stringify(json);
    assert.equal(json.object ?? json.document?.object, 'document', text);
    assert.match(text, /A reusable /);
    assert.match(text, /"bold"/);
    expectError(
      await t.request({ url: `/v1/spaces/${spaceId}/content/reusable-contents/nope` }),
      404,
    );
    expectError(
      await t.request({
        url: `/v1/spaces/${spaceId}/revisions/${revision.id}/reusable-contents/nope/document`,
      }),
      404,
    );
  });

  test('downloads: 304 on If-None-Match; a PDF is an attachment; an SVG runs under a sandbox; a PNG is inline', async () => {
    const byName = (name: string) => revision.files.find((f: { name: string }) => f.name === name);
    const png = byName('a.png');
    const path = new URL(png.downloadURL).pathname;
    const full = await t.app.inject({ url: path });
    assert.equal(full.statusCode, 200);
    assert.equal(full.headers['content-disposition'], undefined);
    const etag = String(full.headers.etag);
    const again = await t.app.inject({ url: path, headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);

    const pdf = await t.app.inject({ url: new URL(byName('manual.pdf').downloadURL).pathname });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.match(
      String(pdf.headers['content-disposition']),
      /^attachment; filename\*=UTF-8''manual\.pdf$/,
    );
    assert.equal(pdf.body, '%PDF-1.4\n% a test file\n');

    const logo = await t.app.inject({ url: new URL(byName('logo.svg').downloadURL).pathname });
    assert.equal(logo.statusCode, 200);
    assert.match(String(logo.headers['content-type']), /^image\/svg\+xml/);
    assert.match(String(logo.headers['content-security-policy']), /sandbox/);
    assert.match(String(logo.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(logo.headers['x-content-type-options'], 'nosniff');

    const unknown = await t.app.inject({ url: `/s/@livery/files/${'A'.repeat(43)}/x.png` });
    assert.equal(unknown.statusCode, 404);
  });

  test('.gitbook.yaml redirects: a 301 on the published site only where no page is; getSiteRedirectBySource answers them', async () => {
    const created = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { title: 'Docs', spaces: [spaceId] },
    });
    const siteId = expectStatus(created, 201).id as string;
    const base = `/v1/orgs/${t.orgId}/sites/${siteId}`;
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: base,
        payload: { basename: 'git-redirects', visibility: 'public' },
      }),
      200,
    );
    expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
    const guide = revision.pages.find((p: { title: string }) => p.title === 'Guide');

    const moved = await t.app.inject({ url: '/s/git-redirects/old/place' });
    assert.equal(moved.statusCode, 301, moved.body.slice(0, 300));
    assert.match(String(moved.headers.location), /\/s\/git-redirects\/guide$/);
    const target = await t.app.inject({
      url: String(moved.headers.location).replace(/^https?:\/\/[^/]+/, ''),
    });
    assert.equal(target.statusCode, 200);
    assert.match(target.body, /Guide/);

    // A page is at `guide`: the redirect from it to README.md is not used.
    const page = await t.app.inject({ url: '/s/git-redirects/guide' });
    assert.equal(page.statusCode, 200);
    // A redirect to a file that is no page: not served.
    assert.equal((await t.app.inject({ url: '/s/git-redirects/gone' })).statusCode, 404);

    const answer = expectStatus(
      await t.request({ url: `${base}/redirect?source=${encodeURIComponent('/old/place')}` }),
      200,
    ) as { redirect: { destination: { pageId: string }; permanent: boolean }; target: string };
    assert.equal(answer.redirect.destination.pageId, guide.id);
    assert.equal(answer.redirect.permanent, true);
    assert.match(answer.target, /\/guide$/);
    expectError(await t.request({ url: `${base}/redirect?source=%2Fguide` }), 404);
    expectError(await t.request({ url: `${base}/redirect?source=%2Fgone` }), 404);
    expectError(await t.request({ url: `${base}/redirect?source=%2Fnever` }), 404);
  });

  test('no answer of these reads is a 5xx', async () => {
    for (const u of [
      `/v1/spaces/${spaceId}/content/files?limit=0`,
      `/v1/spaces/${spaceId}/content/files?limit=1001`,
      `/v1/spaces/${spaceId}/content/files/${'x'.repeat(5000)}`,
      `/v1/spaces/${spaceId}/revisions/${revision.id}/reusable-contents/%00/document`,
      `/v1/spaces/${spaceId}/git/info?x=1`,
    ]) {
      no5xx(await t.request({ url: u }), u);
    }
    assert.ok(allPages(revision.pages).length >= 2);
  });
});
