import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GitSyncState } from '../../src/modules/git-sync/state.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';

/** Imports, then waits for the operation to end; the final GitSyncState. */
async function importAndWait(
  t: TestContext,
  spaceId: string,
  body: Record<string, unknown>,
): Promise<GitSyncState> {
  const queued = await t.request({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/git/import`,
    payload: body,
  });
  assert.equal(queued.statusCode, 204, queued.body);
  for (let i = 0; i < 600; i++) {
    const info = await t.request({ url: `/v1/spaces/${spaceId}/git/info` });
    assert.equal(info.statusCode, 200, info.body);
    const state = info.json();
    if (state.operation.state !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import never ended');
}

async function newSpace(t: TestContext): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/spaces`,
    payload: { title: 'Docs' },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

describe('Git Sync import', () => {
  const repo = new TestRepo();
  let t: TestContext;
  before(async () => {
    t = await createTestApp({ GIT_LOCAL_DIRS: repo.root, GIT_CACHE_DIR: `${repo.root}/.cache` });
  });
  after(async () => {
    await t.close();
    repo.dispose();
  });

  test('a repository with a SUMMARY, groups, front matter, assets and an include becomes one revision', async () => {
    const commit = repo.commit(
      {
        '.gitbook.yaml':
          'root: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/place: guide/install.md\n',
        'README.md':
          '---\ndescription: Start here\n---\n\n# Welcome\n\nRead the [install guide](guide/install.md#steps).\n',
        'SUMMARY.md':
          '# Table of contents\n\n* [Welcome](README.md)\n\n## Guide <a href="#guide" id="guide"></a>\n\n* [Guide](guide/README.md)\n  * [Install it](guide/install.md "Install")\n* [Elsewhere](https://example.com/x)\n',
        'guide/README.md':
          '# Guide\n\nSee [Install](install.md).\n\n{% include "../.gitbook/includes/note.md" %}\n',
        'guide/install.md':
          '---\nhidden: true\nicon: rocket\nunknownKey: kept\n---\n\n# Install\n\n## Steps\n\n![A screenshot](<../.gitbook/assets/screen shot (1).png>)\n',
        '.gitbook/assets/screen shot (1).png': pngOf(640, 480),
        '.gitbook/includes/note.md': '---\ntitle: Note\n---\n\nA reusable note.\n',
      },
      'First docs',
    );
    const spaceId = await newSpace(t);
    const state = await importAndWait(t, spaceId, {
      url: `file://${repo.dir}`,
      ref: 'refs/heads/main',
    });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    assert.equal(state.operation.direction, 'import');
    assert.ok(state.operation.endedAt);

    const revision = (await t.request({ url: `/v1/spaces/${spaceId}/content` })).json();
    assert.equal(revision.git.oid, commit);
    assert.equal(revision.git.message, 'First docs');
    assert.equal(revision.git.ref, 'refs/heads/main');
    const [welcome, group] = revision.pages;
    assert.equal(revision.pages.length, 2, 'items after a ## group are in the group');
    assert.equal(welcome.title, 'Welcome');
    assert.equal(welcome.description, 'Start here');
    assert.deepEqual(welcome.git, {
      oid: repo.git('rev-parse', `${commit}:README.md`),
      path: 'README.md',
    });
    assert.equal(group.type, 'group');
    assert.equal(group.slug, 'guide');
    const guide = group.pages[0];
    assert.equal(guide.title, 'Guide');
    assert.equal(guide.path, 'guide/guide');
    const install = guide.pages[0];
    assert.equal(install.title, 'Install');
    assert.equal(install.hidden, true);
    assert.equal(install.linkTitle, 'Install');
    const link = group.pages[1];
    assert.equal(link.type, 'link');
    assert.equal(link.href, 'https://example.com/x');

    assert.equal(revision.files.length, 1);
    const [file] = revision.files;
    assert.equal(file.name, 'screen shot (1).png');
    assert.equal(file.contentType, 'image/png');
    assert.deepEqual(file.dimensions, { width: 640, height: 480 });
    assert.equal(file.git.path, '.gitbook/assets/screen shot (1).png');
    const bytes = await t.app.inject({ url: new URL(file.downloadURL).pathname });
    assert.equal(bytes.statusCode, 200);
    assert.equal(bytes.headers['content-type'], 'image/png');
    assert.match(String(bytes.headers['cache-control']), /immutable/);
    assert.equal(bytes.rawPayload.length, file.size);

    assert.equal(revision.reusableContents.length, 1);
    assert.equal(revision.reusableContents[0].title, 'Note');

    // The welcome page's link is a reference to the install page, anchor kept.
    const doc = (
      await t.request({ url: `/v1/spaces/${spaceId}/content/page/${welcome.id}?format=document` })
    ).json().document;
    const linkNode = JSON.stringify(doc);
    assert.match(linkNode, new RegExp(`"kind":"anchor","anchor":"steps","page":"${install.id}"`));
    // The image is the revision's file.
    const installDoc = JSON.stringify(
      (
        await t.request({ url: `/v1/spaces/${spaceId}/content/page/${install.id}?format=document` })
      ).json().document,
    );
    assert.match(installDoc, new RegExp(`"kind":"file","file":"${file.id}"`));
  });

  test('a one-file commit: a new revision where only that page changed, every id kept; an unchanged commit makes none', async () => {
    const spaceId = await newSpace(t);
    await importAndWait(t, spaceId, { url: `file://${repo.dir}`, ref: 'refs/heads/main' });
    const first = (await t.request({ url: `/v1/spaces/${spaceId}/content` })).json();
    repo.commit({ 'guide/install.md': '# Install\n\nNew text.\n' }, 'Edit install');
    const state = await importAndWait(t, spaceId, { url: `file://${repo.dir}`, ref: 'main' });
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    const second = (await t.request({ url: `/v1/spaces/${spaceId}/content` })).json();
    assert.notEqual(second.id, first.id);
    const ids = (r: { pages: unknown }) => JSON.stringify(r.pages, ['id', 'pages']);
    assert.equal(ids(second), ids(first));
    assert.equal(second.pages[0].updatedAt, first.pages[0].updatedAt);
    assert.deepEqual(
      second.files.map((f: { id: string }) => f.id),
      first.files.map((f: { id: string }) => f.id),
    );

    await importAndWait(t, spaceId, { url: `file://${repo.dir}`, ref: 'main' });
    const third = (await t.request({ url: `/v1/spaces/${spaceId}/content` })).json();
    assert.equal(third.id, second.id, 'an unchanged commit makes no revision');
  });

  test('a SUMMARY entry to a heading of a page is a link page to that anchor (ContentRefAnchor)', async () => {
    const other = new TestRepo();
    try {
      other.commit({
        'README.md': '# Welcome\n',
        'SUMMARY.md':
          '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n  * [Steps](guide.md#first-steps)\n',
        'guide.md': '# Guide\n\n## First steps\n\nText.\n',
      });
      const local = await createTestApp({
        GIT_LOCAL_DIRS: other.root,
        GIT_CACHE_DIR: `${other.root}/.cache`,
      });
      try {
        const res = await local.request({
          method: 'POST',
          url: `/v1/orgs/${local.orgId}/spaces`,
          payload: { title: 'Docs' },
        });
        const spaceId = res.json().id;
        const state = await importAndWait(local, spaceId, {
          url: `file://${other.dir}`,
          ref: 'main',
        });
        assert.equal(state.operation.state, 'success', JSON.stringify(state));
        const revision = (await local.request({ url: `/v1/spaces/${spaceId}/content` })).json();
        const guide = revision.pages[1];
        assert.equal(guide.title, 'Guide');
        const link = guide.pages[0];
        assert.equal(link.type, 'link');
        assert.deepEqual(link.target, { kind: 'anchor', page: guide.id, anchor: 'first-steps' });
      } finally {
        await local.close();
      }
    } finally {
      other.dispose();
    }
  });

  test('refused URLs: 400 naming the url, nothing started', async () => {
    const spaceId = await newSpace(t);
    for (const url of [
      'file:///etc',
      '/etc/passwd',
      'http://example.com/x.git',
      'https://127.0.0.1/x.git',
      'ext::sh -c id',
    ]) {
      const res = await t.request({
        method: 'POST',
        url: `/v1/spaces/${spaceId}/git/import`,
        payload: { url, ref: 'main' },
      });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.match(res.json().error.message, /url/);
    }
    const info = await t.request({ url: `/v1/spaces/${spaceId}/git/info` });
    assert.equal(info.statusCode, 404);
  });

  test('an unknown ref fails with its reason, and the space is unchanged', async () => {
    const spaceId = await newSpace(t);
    const before = (await t.request({ url: `/v1/spaces/${spaceId}/content` })).json();
    const state = await importAndWait(t, spaceId, {
      url: `file://${repo.dir}`,
      ref: 'refs/heads/nope',
    });
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error ?? '', /no such ref/i);
    const afterwards = (await t.request({ url: `/v1/spaces/${spaceId}/content` })).json();
    assert.equal(afterwards.id, before.id);
  });
});
