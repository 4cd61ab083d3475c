import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { SpaceTrashSweep } from '../../src/modules/spaces/trash.js';
import { SpaceTrashRepository } from '../../src/modules/spaces/trash-repository.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  allPages,
  appOnSameDatabase,
  currentRevision,
  type GitInfo,
  mergeEdit,
  newSpace,
  no5xx,
  stallGitDir,
} from '../helpers/git-import.js';
import { TestRemote } from '../helpers/git-remote.js';
import { pngOf } from '../helpers/git-repo.js';

/**
 * Git Sync's bad input and faults (docs/git-sync.md, "Faults"): each ends in a clear state and a
 * log line, nothing acknowledged on either side is lost, and nothing answers 5xx.
 */
const QUIET = { GIT_SYNC_DEBOUNCE_MS: '600000', GIT_SYNC_TICK_MS: '600000' };

async function waitIdle(t: { request: TestContext['request'] }, spaceId: string): Promise<GitInfo> {
  for (let i = 0; i < 800; i++) {
    const res = await t.request({ url: `/v1/spaces/${spaceId}/git/info` });
    if (res.statusCode === 200 && res.json().operation.state !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the operation never ended');
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 800; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

const exportBody = (url: string, projectDirectory?: string) => ({
  url,
  ref: 'refs/heads/main',
  commitMessage: 'Export',
  ...(projectDirectory === undefined ? {} : { repoProjectDirectory: projectDirectory }),
});

/** A space with one page made in Livery (no Git origin). */
async function spaceWithPage(t: TestContext, title: string, text: string): Promise<string> {
  const spaceId = await newSpace(t, title);
  await mergeEdit(t, spaceId, [{ operation: 'insert_page', title, document: { markdown: text } }]);
  return spaceId;
}

describe('Git Sync faults', () => {
  const remote = new TestRemote();
  const lines: string[] = [];
  let t: TestContext;
  before(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(
      {
        GIT_LOCAL_DIRS: remote.root,
        GIT_CACHE_DIR: join(remote.root, '.cache'),
        GIT_ALLOW_PRIVATE_HOSTS: '1',
        FILE_MAX_BYTES: '1000',
        LOG_LEVEL: 'debug',
        ...QUIET,
      },
      logStream,
    );
  });
  after(async () => {
    await t.close();
    remote.dispose();
  });

  test('two exports racing for one branch: one push is refused, retried on the new head; both land', async () => {
    remote.push({ 'README.md': '# Start\n' }, 'Start');
    const a = await spaceWithPage(t, 'Alpha', 'From space A.');
    const b = await spaceWithPage(t, 'Beta', 'From space B.');
    // Both fetch the same head: their fetches wait until released together.
    const release = stallGitDir(remote.bare, remote.root);
    for (const [spaceId, dir] of [
      [a, 'alpha'],
      [b, 'beta'],
    ]) {
      const res = await t.request({
        method: 'POST',
        url: `/v1/spaces/${spaceId}/git/export`,
        payload: exportBody(remote.url, dir),
      });
      assert.equal(res.statusCode, 204, res.body);
    }
    release();
    const [sa, sb] = [await waitIdle(t, a), await waitIdle(t, b)];
    assert.equal(sa.operation.state, 'success', JSON.stringify(sa));
    assert.equal(sb.operation.state, 'success', JSON.stringify(sb));
    const files = remote.files();
    assert.ok(
      files.includes('alpha/README.md') || files.some((f) => f.startsWith('alpha/')),
      files.join(),
    );
    assert.ok(
      files.some((f) => f.startsWith('beta/')),
      files.join(),
    );
    assert.ok(files.includes('README.md'), 'the first commit is still there');
    assert.ok(
      lines.some((l) => /the other side moved/.test(l)),
      'the refused push is logged and retried',
    );
  });

  test('the server stopped during an export: the operation says so; the next export does it, nothing lost', async () => {
    const spaceId = await spaceWithPage(t, 'Gamma', 'From space C.');
    const second = await appOnSameDatabase(t, {
      GIT_LOCAL_DIRS: remote.root,
      GIT_CACHE_DIR: join(remote.root, '.cache2'),
      ...QUIET,
    });
    const release = stallGitDir(remote.bare, remote.root);
    const res = await second.request({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/git/export`,
      payload: exportBody(remote.url, 'gamma'),
    });
    assert.equal(res.statusCode, 204, res.body);
    await second.close();
    release();
    const stopped = await waitIdle(t, spaceId);
    assert.equal(stopped.operation.state, 'failure');
    assert.match(stopped.operation.error, /server stopped during the export/);
    const again = await t.request({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/git/export`,
      payload: exportBody(remote.url, 'gamma'),
    });
    assert.equal(again.statusCode, 204, again.body);
    const done = await waitIdle(t, spaceId);
    assert.equal(done.operation.state, 'success', JSON.stringify(done));
    assert.ok(remote.files().some((f) => f.startsWith('gamma/')));
  });

  test('a file over FILE_MAX_BYTES stays in the repository: the space does not own it, the export leaves it', async () => {
    const big = Buffer.concat([pngOf(10, 10), Buffer.alloc(2000, 7)]);
    remote.push(
      {
        'delta/README.md': '# Delta\n\n![Big](.gitbook/assets/big.png)\n',
        'delta/.gitbook/assets/big.png': big,
      },
      'Delta',
    );
    const spaceId = await newSpace(t, 'Delta');
    const imported = await t.request({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/git/import`,
      payload: { url: remote.url, ref: 'main', repoProjectDirectory: 'delta' },
    });
    assert.equal(imported.statusCode, 204);
    const state = await waitIdle(t, spaceId);
    assert.ok(
      state.warnings.some((w: { file: string }) => w.file === 'delta/.gitbook/assets/big.png'),
      JSON.stringify(state.warnings),
    );
    const page = allPages((await currentRevision(t, spaceId)).pages)[0];
    await mergeEdit(t, spaceId, [
      { operation: 'update_page', page: page.id, document: { markdown: '# Delta\n\nShorter.\n' } },
    ]);
    const res = await t.request({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/git/export`,
      payload: exportBody(remote.url, 'delta'),
    });
    assert.equal(res.statusCode, 204);
    const done = await waitIdle(t, spaceId);
    assert.equal(done.operation.state, 'success', JSON.stringify(done));
    assert.match(remote.file('delta/README.md') ?? '', /Shorter/);
    assert.ok(
      remote.files().includes('delta/.gitbook/assets/big.png'),
      'the file the space could not hold is still there',
    );
  });

  test('credentials of a link are stored encrypted, never shown or logged; an unreachable remote is a clear failure', async () => {
    const spaceId = await newSpace(t, 'Epsilon');
    const res = no5xx(
      await t.request({
        method: 'PUT',
        url: `/v1/spaces/${spaceId}/git/link`,
        payload: { url: 'https://writer:s3cr3t-t0ken@127.0.0.1:1/docs.git', ref: 'main' },
      }),
      'link',
    );
    assert.equal(res.statusCode, 200, res.body);
    assert.doesNotMatch(res.body, /s3cr3t/);
    assert.match(res.json().url, /\*\*\*@127\.0\.0\.1/);
    const state = await waitIdle(t, spaceId);
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error, /could not be reached/);
    assert.doesNotMatch(JSON.stringify(state), /s3cr3t/);
    const row = await t.db
      .selectFrom('git_links')
      .selectAll()
      .where('space_id', '=', spaceId)
      .executeTakeFirstOrThrow();
    assert.doesNotMatch(JSON.stringify(row), /s3cr3t/, 'the database holds it encrypted');
    assert.ok(row.url_secret?.startsWith('v1.'));
    assert.ok(!lines.some((l) => l.includes('s3cr3t')), 'no log line holds it');
    const get = await t.request({ url: `/v1/spaces/${spaceId}/git/link` });
    assert.doesNotMatch(get.body, /s3cr3t/);
    const bad = await t.request({
      method: 'PUT',
      url: `/v1/spaces/${spaceId}/git/link`,
      payload: { url: 'https://example.com/x.git', ref: 'refs/tags/v1' },
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().error.message, /body\.ref must be a branch/);
    const unlinked = await t.request({ method: 'DELETE', url: `/v1/spaces/${spaceId}/git/link` });
    assert.equal(unlinked.statusCode, 204);
    assert.equal((await t.request({ url: `/v1/spaces/${spaceId}/git/link` })).statusCode, 404);
  });

  test('a webhook replayed changes nothing more; a space deleted while it syncs ends quietly', async () => {
    remote.push({ 'zeta/README.md': '# Zeta\n' }, 'Zeta');
    const spaceId = await newSpace(t, 'Zeta');
    const linked = await t.request({
      method: 'PUT',
      url: `/v1/spaces/${spaceId}/git/link`,
      payload: { url: remote.url, ref: 'main', repoProjectDirectory: 'zeta' },
    });
    assert.equal(linked.statusCode, 200, linked.body);
    await waitIdle(t, spaceId);
    const revisions = async () =>
      (await t.db.selectFrom('revisions').select('id').where('space_id', '=', spaceId).execute())
        .length;
    const before = await revisions();
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      after: remote.head(),
      repository: { clone_url: remote.url },
    });
    const headers = {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', linked.json().webhook.secret).update(body).digest('hex')}`,
    };
    for (let i = 0; i < 2; i++) {
      const hook = await t.app.inject({
        method: 'POST',
        url: `/v1/git/webhooks/${spaceId}`,
        headers,
        payload: body,
      });
      assert.equal(hook.statusCode, 202, hook.body);
      await until('the sync after the webhook', async () => {
        const row = await t.db
          .selectFrom('git_links')
          .select('polled_at')
          .where('space_id', '=', spaceId)
          .executeTakeFirst();
        return row?.polled_at !== null;
      });
      await waitIdle(t, spaceId);
    }
    assert.equal(await revisions(), before, 'the same commit twice: no new revision');

    const release = stallGitDir(remote.bare, remote.root);
    const sync = await t.request({ method: 'POST', url: `/v1/spaces/${spaceId}/git/sync` });
    assert.equal(sync.statusCode, 204, sync.body);
    const deleted = await t.request({ method: 'DELETE', url: `/v1/spaces/${spaceId}` });
    assert.ok(deleted.statusCode < 300, deleted.body);
    release();
    // In the trash the link is dormant (docs/content.md); the purge, 7 days on, takes it while
    // the sync may still run, which then ends quietly.
    const later = () => Date.now() + 8 * 24 * 60 * 60 * 1000;
    assert.ok((await new SpaceTrashSweep(new SpaceTrashRepository(t.db), later).sweep()) >= 1);
    await until(
      'the link gone with its space',
      async () =>
        (
          await t.db
            .selectFrom('git_links')
            .select('space_id')
            .where('space_id', '=', spaceId)
            .execute()
        ).length === 0,
    );
    const info = await t.request({ url: `/v1/spaces/${spaceId}/git/info` });
    assert.equal(info.statusCode, 404, info.body);
  });

  test('two servers on one database: a merged edit of a linked space becomes one commit, not two', async () => {
    remote.push({ 'eta/README.md': '# Eta\n\nOne.\n' }, 'Eta');
    const fast = { GIT_SYNC_DEBOUNCE_MS: '50', GIT_SYNC_TICK_MS: '100' };
    const one = await appOnSameDatabase(t, {
      GIT_LOCAL_DIRS: remote.root,
      GIT_CACHE_DIR: join(remote.root, '.c1'),
      ...fast,
    });
    const two = await appOnSameDatabase(t, {
      GIT_LOCAL_DIRS: remote.root,
      GIT_CACHE_DIR: join(remote.root, '.c2'),
      ...fast,
    });
    try {
      const spaceId = await newSpace(one, 'Eta');
      const res = await one.request({
        method: 'PUT',
        url: `/v1/spaces/${spaceId}/git/link`,
        payload: { url: remote.url, ref: 'main', repoProjectDirectory: 'eta' },
      });
      assert.equal(res.statusCode, 200, res.body);
      await waitIdle(one, spaceId);
      const page = allPages((await currentRevision(one, spaceId)).pages)[0];
      const count = remote.count();
      await mergeEdit(two, spaceId, [
        { operation: 'update_page', page: page.id, document: { markdown: '# Eta\n\nTwo.\n' } },
      ]);
      await until('the commit', () => (remote.file('eta/README.md') ?? '').includes('Two'));
      await new Promise((resolve) => setTimeout(resolve, 600)); // both servers had ticks to make a second one
      await waitIdle(one, spaceId);
      assert.equal(remote.count(), count + 1, 'exactly one commit');
    } finally {
      await one.close();
      await two.close();
    }
  });
});
