/**
 * Git Sync import (issue 27, docs/git-sync.md) through GitBook's official 0.202 client against a
 * listening Livery, and each answer judged against GitBook 0.202's response schemas: the import
 * and its state, the space's `gitSync`, the revision's `git` and `files`, a page's `git` blob,
 * files and reusable contents in their forms.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';
import { TestRemote } from '../helpers/git-remote.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';

const repo = new TestRepo();
const remote = new TestRemote();
let t: TestContext;
let api: Api0202;
let c: Conformance;
/** Judges the Git area's operations only (assertCoverage); `c` judges the rest. */
let g: Conformance;
let commit: string;

before(async () => {
  t = await createTestApp({
    GIT_LOCAL_DIRS: `${repo.root}:${remote.root}`,
    GIT_CACHE_DIR: `${repo.root}/.cache`,
  });
  ({ api } = await recordingClient(t));
  c = new Conformance(t);
  g = new Conformance(t);
  commit = repo.commit(
    {
      'README.md':
        '# Home\n\n![Logo](.gitbook/assets/logo.png)\n\n{% include ".gitbook/includes/tip.md" %}\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n',
      'guide.md': '---\ndescription: The guide\n---\n\n# Guide\n\nBack [home](README.md).\n',
      '.gitbook/assets/logo.png': pngOf(120, 40),
      '.gitbook/includes/tip.md': '---\ntitle: Tip\n---\n\nA tip, reused.\n',
    },
    'GITBOOK-7: first pages',
  );
});
after(async () => {
  await t.close();
  repo.dispose();
  remote.dispose();
});

describe('GitBook 0.202 client and conformance: Git Sync import', () => {
  test('importGitRepository, getSpaceGitInfo, and what the import made, judged against 0.202', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'From Git' });
    const before = await failure0202(api.spaces.getSpaceGitInfo(space.id));
    assert.equal(before.code, 404, 'no state before the first import');

    const queued = await api.spaces.importGitRepository(space.id, {
      url: `file://${repo.dir}`,
      ref: 'refs/heads/main',
      repoCommitURL: 'https://git.example.com/acme/docs/commit/',
    });
    assert.equal(queued.status, 204);
    let state = (await api.spaces.getSpaceGitInfo(space.id)).data;
    for (let i = 0; state.operation?.state === 'running' && i < 400; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      state = (await api.spaces.getSpaceGitInfo(space.id)).data;
    }
    assert.equal(state.operation?.state, 'success', JSON.stringify(state));
    assert.equal(state.operation?.direction, 'import');
    assert.equal(state.installationStatus, 'active');

    const s = `/v1/spaces/${space.id}`;
    await g.call('getSpaceGitInfo', { method: 'GET', url: `${s}/git/info` }, { status: 200 });
    const spaceRead = await c.call('getSpaceById', { method: 'GET', url: s }, { status: 200 });
    assert.equal(JSON.parse(spaceRead.body).gitSync.operation.state, 'success');
    const current = await c.call(
      'getCurrentRevision',
      { method: 'GET', url: `${s}/content` },
      { status: 200 },
    );
    const revision = JSON.parse(current.body);
    assert.deepEqual(revision.git, {
      oid: commit,
      message: 'GITBOOK-7: first pages',
      createdByGitBook: true,
      ref: 'refs/heads/main',
      url: `https://git.example.com/acme/docs/commit/${commit}`,
    });
    const [file] = revision.files;
    const [tip] = revision.reusableContents;
    assert.equal(file.name, 'logo.png');
    assert.deepEqual(file.dimensions, { width: 120, height: 40 });
    assert.equal(tip.title, 'Tip');
    const home = revision.pages[0];
    assert.equal(home.git.path, 'README.md');

    const r = `${s}/revisions/${revision.id}`;
    await c.call('getRevisionById', { method: 'GET', url: r }, { status: 200 });
    await c.call(
      'getPageById',
      { method: 'GET', url: `${s}/content/page/${home.id}?format=document` },
      { status: 200 },
    );
    await g.call('listFiles', { method: 'GET', url: `${s}/content/files` }, { status: 200 });
    await g.call(
      'getFileById',
      { method: 'GET', url: `${s}/content/files/${file.id}` },
      { status: 200 },
    );
    await g.call('listFilesInRevisionById', { method: 'GET', url: `${r}/files` }, { status: 200 });
    await g.call(
      'getFileInRevisionById',
      { method: 'GET', url: `${r}/files/${file.id}` },
      { status: 200 },
    );
    await g.call(
      'getReusableContentById',
      { method: 'GET', url: `${s}/content/reusable-contents/${tip.id}` },
      { status: 200 },
    );
    await g.call(
      'getReusableContentInRevisionById',
      { method: 'GET', url: `${r}/reusable-contents/${tip.id}` },
      { status: 200 },
    );
    await g.call(
      'getReusableContentDocumentInRevisionById',
      { method: 'GET', url: `${r}/reusable-contents/${tip.id}/document` },
      { status: 200 },
    );
    // A change request made on the imported revision has its files and reusable contents.
    const { data: cr } = await api.spaces.createChangeRequest(space.id, {});
    const crUrl = `${s}/change-requests/${cr.id}/content`;
    await g.call(
      'listFilesInChangeRequestById',
      { method: 'GET', url: `${crUrl}/files` },
      { status: 200 },
    );
    await g.call(
      'getFileInChangeRequestById',
      { method: 'GET', url: `${crUrl}/files/${file.id}` },
      { status: 200 },
    );
    await g.call(
      'getReusableContentInChangeRequestById',
      { method: 'GET', url: `${crUrl}/reusable-contents/${tip.id}` },
      { status: 200 },
    );

    // An import judged as a request (204), then its state again, and the 404 of a space that
    // never synced.
    await g.call(
      'importGitRepository',
      {
        method: 'POST',
        url: `${s}/git/import`,
        payload: { url: `file://${repo.dir}`, ref: 'refs/heads/main', force: true },
      },
      { status: 204 },
    );
    for (let i = 0; i < 400; i++) {
      const info = (await api.spaces.getSpaceGitInfo(space.id)).data;
      if (info.operation?.state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // An export through the client, then one judged as a request: both 204, then a success.
    const exported = await api.spaces.exportToGitRepository(space.id, {
      url: remote.url,
      ref: 'refs/heads/main',
      commitMessage: 'GITBOOK-8: exported by the client',
    });
    assert.equal(exported.status, 204);
    let exportState = (await api.spaces.getSpaceGitInfo(space.id)).data;
    for (let i = 0; exportState.operation?.state === 'running' && i < 400; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      exportState = (await api.spaces.getSpaceGitInfo(space.id)).data;
    }
    assert.equal(exportState.operation?.state, 'success', JSON.stringify(exportState));
    assert.equal(exportState.operation?.direction, 'export');
    assert.equal(remote.message(), 'GITBOOK-8: exported by the client');
    assert.equal(remote.file('guide.md'), '---\ndescription: The guide\n---\n\n# Guide\n\nBack [home](README.md).\n');
    await g.call(
      'exportToGitRepository',
      {
        method: 'POST',
        url: `${s}/git/export`,
        payload: { url: remote.url, ref: 'refs/heads/main', commitMessage: 'Again: no change' },
      },
      { status: 204 },
    );
    for (let i = 0; i < 400; i++) {
      const info = (await api.spaces.getSpaceGitInfo(space.id)).data;
      if (info.operation?.state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(remote.count(), 1, 'an unchanged space: no second commit');
    const { data: never } = await api.orgs.createSpace(t.orgId, { title: 'Never synced' });
    await g.call(
      'getSpaceGitInfo',
      { method: 'GET', url: `/v1/spaces/${never.id}/git/info` },
      { status: 404 },
    );
    c.assertConforms();
    g.assertConforms();
    assertCoverage(g, 'git');

    // The same reads through the client: its types are 0.202's.
    const files = (await api.spaces.listFiles(space.id)).data;
    assert.deepEqual(
      files.items.map((f) => f.id),
      [file.id],
    );
    const byId = (await api.spaces.getFileInRevisionById(space.id, revision.id, file.id)).data;
    assert.equal(byId.git?.path, '.gitbook/assets/logo.png');
    const document = (
      await api.spaces.getReusableContentDocumentInRevisionById(space.id, revision.id, tip.id)
    ).data;
    assert.equal(document.object, 'document');
    assert.match(JSON.stringify(document), /A tip, reused\./);
  });
});
