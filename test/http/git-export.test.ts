import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  allPages,
  currentRevision,
  type GitInfo,
  importAndWait,
  mergeEdit,
  newSpace,
  no5xx,
  waitEnded,
} from '../helpers/git-import.js';
import { TestRemote } from '../helpers/git-remote.js';
import { pngOf } from '../helpers/git-repo.js';

/**
 * exportToGitRepository (docs/git-sync.md, "Export"): real bare repositories on local paths,
 * written by Livery with `git` and read back by the tests with `git`.
 */
async function exportAndWait(
  t: TestContext,
  spaceId: string,
  body: Record<string, unknown>,
): Promise<GitInfo> {
  const queued = no5xx(
    await t.request({ method: 'POST', url: `/v1/spaces/${spaceId}/git/export`, payload: body }),
    'exportToGitRepository',
  );
  assert.equal(queued.statusCode, 204, queued.body);
  return waitEnded(t, spaceId);
}

const README =
  '---\ndescription: Start here\n---\n\n# Welcome\n\nRead the [install guide](guide/install.md).\n';
const SUMMARY =
  '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n';
const GUIDE = '# Guide\n\n![Diagram](../.gitbook/assets/diagram.png)\n';
const INSTALL = '# Install\n\nRun it.\n';

describe('Git Sync export', () => {
  const remote = new TestRemote();
  let t: TestContext;
  before(async () => {
    t = await createTestApp({
      GIT_LOCAL_DIRS: remote.root,
      GIT_CACHE_DIR: `${remote.root}/.cache`,
    });
  });
  after(async () => {
    await t.close();
    remote.dispose();
  });

  test('import then export of an unchanged space makes no commit; an edit becomes one commit', async () => {
    remote.push({
      'README.md': README,
      'SUMMARY.md': SUMMARY,
      'guide/README.md': GUIDE,
      'guide/install.md': INSTALL,
      '.gitbook/assets/diagram.png': pngOf(4, 3),
      'CONTRIBUTING.md': 'not a page\n',
    });
    const spaceId = await newSpace(t);
    const imported = await importAndWait(t, spaceId, { url: remote.url, ref: 'refs/heads/main' });
    assert.equal(imported.operation.state, 'success', JSON.stringify(imported));
    const before = remote.head();
    const unchanged = await exportAndWait(t, spaceId, {
      url: remote.url,
      ref: 'refs/heads/main',
      commitMessage: 'Nothing to say',
    });
    assert.equal(unchanged.operation.state, 'success', JSON.stringify(unchanged));
    assert.equal(unchanged.operation.direction, 'export');
    assert.equal(remote.head(), before, 'no commit for an unchanged space');

    const pages = allPages((await currentRevision(t, spaceId)).pages);
    const install = pages.find((p) => p.title === 'Install');
    await mergeEdit(t, spaceId, [
      {
        operation: 'update_page',
        page: install.id,
        document: { markdown: '# Install\n\nRun *it* twice.\n' },
      },
    ]);
    const exported = await exportAndWait(t, spaceId, {
      url: remote.url,
      ref: 'refs/heads/main',
      commitMessage: 'GITBOOK-1: Run it twice',
    });
    assert.equal(exported.operation.state, 'success', JSON.stringify(exported));
    assert.equal(remote.count(), 2);
    assert.equal(remote.message(), 'GITBOOK-1: Run it twice');
    assert.equal(remote.file('guide/install.md'), '# Install\n\nRun _it_ twice.\n');
    for (const [path, text] of [
      ['README.md', README],
      ['SUMMARY.md', SUMMARY],
      ['guide/README.md', GUIDE],
      ['CONTRIBUTING.md', 'not a page\n'],
    ]) {
      assert.equal(remote.file(path as string), text, `${path} unchanged`);
    }
  });
});
