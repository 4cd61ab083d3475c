import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  allPages,
  currentRevision,
  type GitInfo,
  gitInfo,
  mergeEdit,
  newSpace,
  no5xx,
} from '../helpers/git-import.js';
import { TestRemote } from '../helpers/git-remote.js';

/**
 * Both sides changed since the last sync (docs/git-sync.md, "Conflicts"): git merges the two
 * commits; a file both changed takes the `priority` side's version, and the other side's version
 * is kept (a change request, or a branch on the remote). Nothing is synced on its own here (long
 * debounce and tick): each sync is asked for, so both sides can change first.
 */
const QUIET = { GIT_SYNC_DEBOUNCE_MS: '600000', GIT_SYNC_TICK_MS: '600000' };

async function waitIdle(t: TestContext, spaceId: string): Promise<GitInfo> {
  for (let i = 0; i < 800; i++) {
    const res = await t.request({ url: `/v1/spaces/${spaceId}/git/info` });
    if (res.statusCode === 200 && res.json().operation.state !== 'running') return res.json();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the sync never ended');
}

async function syncNow(t: TestContext, spaceId: string): Promise<GitInfo> {
  const res = no5xx(
    await t.request({ method: 'POST', url: `/v1/spaces/${spaceId}/git/sync` }),
    'syncSpaceGitRepository',
  );
  assert.equal(res.statusCode, 204, res.body);
  return waitIdle(t, spaceId);
}

async function pageMarkdown(
  t: TestContext,
  spaceId: string,
  title: string,
  ref = '',
): Promise<string> {
  const base =
    ref === '' ? `/v1/spaces/${spaceId}` : `/v1/spaces/${spaceId}/change-requests/${ref}`;
  const tree = await t.request({ url: `${base}/content${ref === '' ? '' : ''}` });
  const pages = allPages(tree.json().pages);
  const page = pages.find((p) => p.title === title);
  assert.ok(page, `a page "${title}"`);
  const doc = await t.request({ url: `${base}/content/page/${page.id}?format=markdown` });
  assert.equal(doc.statusCode, 200, doc.body);
  return doc.json().markdown as string;
}

/** A linked space that imported the remote's two pages. */
async function linkedSpace(t: TestContext, remote: TestRemote, priority: 'git' | 'livery') {
  remote.push({
    'README.md': '# Welcome\n\nHello.\n',
    'SUMMARY.md':
      '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n* [Usage](usage.md)\n',
    'install.md': '# Install\n\nRun it.\n',
    'usage.md': '# Usage\n\nUse it.\n',
  });
  const spaceId = await newSpace(t);
  if (priority === 'livery') {
    const imported = await t.request({
      method: 'POST',
      url: `/v1/spaces/${spaceId}/git/import`,
      payload: { url: remote.url, ref: 'refs/heads/main' },
    });
    assert.equal(imported.statusCode, 204, imported.body);
    await waitIdle(t, spaceId);
  }
  const res = await t.request({
    method: 'PUT',
    url: `/v1/spaces/${spaceId}/git/link`,
    payload: { url: remote.url, ref: 'main', priority },
  });
  assert.equal(res.statusCode, 200, res.body);
  const first = await waitIdle(t, spaceId);
  assert.equal(first.operation.state, 'success', JSON.stringify(first));
  return spaceId;
}

const pageId = async (t: TestContext, spaceId: string, title: string) =>
  allPages((await currentRevision(t, spaceId)).pages).find((p) => p.title === title).id as string;

describe('Git Sync conflicts', () => {
  let t: TestContext;
  const remotes: TestRemote[] = [];
  const remote = () => {
    const r = new TestRemote();
    remotes.push(r);
    return r;
  };
  before(async () => {
    t = await createTestApp({
      GIT_LOCAL_DIRS: '/tmp',
      GIT_CACHE_DIR: '/tmp/livery-git-conflicts',
      ...QUIET,
    });
  });
  after(async () => {
    await t.close();
    for (const r of remotes) r.dispose();
  });

  test('different files changed on each side: both changes reach both sides', async () => {
    const r = remote();
    const spaceId = await linkedSpace(t, r, 'git');
    r.push({ 'usage.md': '# Usage\n\nUse it well.\n' }, 'Usage, from Git');
    await mergeEdit(t, spaceId, [
      {
        operation: 'update_page',
        page: await pageId(t, spaceId, 'Install'),
        document: { markdown: '# Install\n\nRun it now.\n' },
      },
    ]);
    const state = await syncNow(t, spaceId);
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    assert.equal(state.conflict, undefined);
    assert.match(r.file('install.md') ?? '', /Run it now/);
    assert.match(r.file('usage.md') ?? '', /Use it well/);
    assert.match(await pageMarkdown(t, spaceId, 'Install'), /Run it now/);
    assert.match(await pageMarkdown(t, spaceId, 'Usage'), /Use it well/);
    assert.equal(state.commit, r.head());
  });

  test('the same file on both sides, priority git: the branch wins, Livery keeps its version as a change request', async () => {
    const r = remote();
    const spaceId = await linkedSpace(t, r, 'git');
    r.push({ 'install.md': '# Install\n\nRun it from Git.\n' }, 'Install, from Git');
    await mergeEdit(t, spaceId, [
      {
        operation: 'update_page',
        page: await pageId(t, spaceId, 'Install'),
        document: { markdown: '# Install\n\nRun it from Livery.\n' },
      },
    ]);
    const state = await syncNow(t, spaceId);
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    assert.equal(state.conflict?.winner, 'git');
    assert.deepEqual(state.conflict?.files, ['install.md']);
    assert.equal(state.conflict?.kept.kind, 'change-request');
    assert.match(r.file('install.md') ?? '', /from Git/);
    assert.match(await pageMarkdown(t, spaceId, 'Install'), /from Git/);
    // Livery's version, kept: an open change request holding it.
    const kept = state.conflict?.kept.id as string;
    assert.match(await pageMarkdown(t, spaceId, 'Install', kept), /from Livery/);
  });

  test('the same file on both sides, priority livery: Livery wins, the branch keeps its version on a branch of its own', async () => {
    const r = remote();
    const spaceId = await linkedSpace(t, r, 'livery');
    const theirs = r.push({ 'install.md': '# Install\n\nRun it from Git.\n' }, 'Install, from Git');
    await mergeEdit(t, spaceId, [
      {
        operation: 'update_page',
        page: await pageId(t, spaceId, 'Install'),
        document: { markdown: '# Install\n\nRun it from Livery.\n' },
      },
    ]);
    const state = await syncNow(t, spaceId);
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    assert.equal(state.conflict?.winner, 'livery');
    assert.equal(state.conflict?.kept.kind, 'branch');
    const branch = state.conflict?.kept.name as string;
    assert.equal(r.head(branch), theirs, "the branch's version, as it was");
    assert.match(r.file('install.md') ?? '', /from Livery/);
    assert.match(await pageMarkdown(t, spaceId, 'Install'), /from Livery/);
    const info = await gitInfo(t, spaceId);
    assert.equal(info.commit, r.head());
  });
});
