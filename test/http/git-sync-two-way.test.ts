import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  allPages,
  currentRevision,
  gitInfo,
  mergeEdit,
  newSpace,
  no5xx,
} from '../helpers/git-import.js';
import { TestRemote } from '../helpers/git-remote.js';

/**
 * Two-way Git Sync (docs/git-sync.md, "Linking a repository"): a space linked to a bare remote;
 * edits on either side reach the other; both at once lose nothing. Short debounce and tick so
 * the test waits on events, not on seconds.
 */
const ENV = { GIT_SYNC_DEBOUNCE_MS: '50', GIT_SYNC_TICK_MS: '100' };

/** Waits until `check` answers something other than undefined (the sync runs in the background). */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const found = await check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

async function link(t: TestContext, spaceId: string, body: Record<string, unknown>) {
  const res = no5xx(
    await t.request({ method: 'PUT', url: `/v1/spaces/${spaceId}/git/link`, payload: body }),
    'linkSpaceGitRepository',
  );
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** A push event as GitHub signs it (X-Hub-Signature-256 over the raw body). */
function githubPush(
  t: TestContext,
  spaceId: string,
  secret: string,
  payload: Record<string, unknown>,
  signWith = secret,
) {
  const body = JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url: `/v1/git/webhooks/${spaceId}`,
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', signWith).update(body).digest('hex')}`,
    },
    payload: body,
  });
}

/** The first page's Markdown. */
async function pageText(t: TestContext, spaceId: string): Promise<string> {
  const first = allPages((await currentRevision(t, spaceId)).pages)[0];
  const doc = await t.request({
    url: `/v1/spaces/${spaceId}/content/page/${first.id}?format=markdown`,
  });
  return doc.body;
}

const pageTexts = async (t: TestContext, spaceId: string) =>
  allPages((await currentRevision(t, spaceId)).pages).map((p) => p.title as string);

describe('Git Sync, two ways', () => {
  const remote = new TestRemote();
  let t: TestContext;
  before(async () => {
    t = await createTestApp({
      GIT_LOCAL_DIRS: remote.root,
      GIT_CACHE_DIR: `${remote.root}/.cache`,
      ...ENV,
    });
  });
  after(async () => {
    await t.close();
    remote.dispose();
  });

  test('a linked space follows the branch, and the branch follows the space', async () => {
    remote.push({
      'README.md': '# Welcome\n\nHello.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
      'install.md': '# Install\n\nRun it.\n',
    });
    const spaceId = await newSpace(t);
    const linked = await link(t, spaceId, { url: remote.url, ref: 'main' });
    assert.equal(linked.priority, 'git');
    assert.equal(linked.commitMessageTemplate, 'GITBOOK-{number}: {subject}');
    assert.match(linked.webhook.secret, /^[\w-]{20,}$/);
    // The first sync starts from the branch (priority git).
    await until('the branch imported', async () =>
      (await pageTexts(t, spaceId)).includes('Install') ? true : undefined,
    );
    const secretShown = await t.request({ url: `/v1/spaces/${spaceId}/git/link` });
    assert.equal(secretShown.json().webhook.secret, undefined, 'the secret is answered once');

    // Livery → Git: a merged change request becomes a commit with GitBook's message.
    const install = allPages((await currentRevision(t, spaceId)).pages).find(
      (p) => p.title === 'Install',
    );
    const number = await mergeEdit(
      t,
      spaceId,
      [
        {
          operation: 'update_page',
          page: install.id,
          document: { markdown: '# Install\n\nRun it twice.\n' },
        },
      ],
      'Say it twice',
    );
    await until('the commit on the remote', () =>
      remote.file('install.md')?.includes('twice') ? true : undefined,
    );
    assert.equal(remote.message(), `GITBOOK-${number}: Say it twice`);
    const info = await until('the sync ended', async () => {
      const state = await gitInfo(t, spaceId);
      return state.operation.state === 'running' ? undefined : state;
    });
    assert.equal(info.operation.state, 'success', JSON.stringify(info));
    assert.equal(info.commit, remote.head());

    // Git → Livery: a push and its webhook.
    const pushed = remote.push({ 'install.md': '# Install\n\nRun it three times.\n' }, 'Three');
    const hook = await githubPush(t, spaceId, linked.webhook.secret, {
      ref: 'refs/heads/main',
      after: pushed,
      repository: { clone_url: remote.url },
    });
    assert.equal(hook.statusCode, 202, hook.body);
    await until('the push in the space', async () => {
      const pages = allPages((await currentRevision(t, spaceId)).pages);
      const page = pages.find((p) => p.title === 'Install');
      const doc = await t.request({
        url: `/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`,
      });
      return doc.body.includes('three times') ? true : undefined;
    });
  });

  test('a forged or unsigned webhook is refused with 401, and changes nothing', async () => {
    const spaceId = await newSpace(t);
    const linked = await link(t, spaceId, { url: remote.url, ref: 'main', priority: 'livery' });
    const forged = await githubPush(
      t,
      spaceId,
      linked.webhook.secret,
      { ref: 'refs/heads/main' },
      'not-the-secret-at-all',
    );
    assert.equal(forged.statusCode, 401, forged.body);
    assert.equal(forged.json().error.code, 401);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: `/v1/git/webhooks/${spaceId}`,
      headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
      payload: '{"ref":"refs/heads/main"}',
    });
    assert.equal(unsigned.statusCode, 401, unsigned.body);
    const unknown = await githubPush(t, 'space-unknown', 'x'.repeat(20), {
      ref: 'refs/heads/main',
    });
    assert.equal(unknown.statusCode, 401, unknown.body);
  });

  test('a branch pushed becomes a change request with a preview anyone with the link reads, until it is deleted or merged', async () => {
    const r = new TestRemote();
    try {
      r.push({
        'README.md': '# Welcome\n\nHello.\n',
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
      });
      const t2 = await createTestApp({
        GIT_LOCAL_DIRS: r.root,
        GIT_CACHE_DIR: `${r.root}/.cache`,
        ...ENV,
      });
      try {
        const spaceId = await newSpace(t2);
        const linked = await link(t2, spaceId, {
          url: r.url,
          ref: 'main',
          previewExternalBranches: true,
        });
        await until('the first sync', async () =>
          (await gitInfo(t2, spaceId)).operation.state === 'running' ? undefined : true,
        );
        const secret = linked.webhook.secret as string;
        const hook = (branch: string, after: string) =>
          githubPush(t2, spaceId, secret, {
            ref: `refs/heads/${branch}`,
            after,
            repository: { clone_url: r.url },
          });

        const feature = r.push(
          { 'README.md': '# Welcome\n\nHello from the feature branch.\n' },
          'Feature',
          'feature',
        );
        r.pull('main');
        const sent = await hook('feature', feature);
        assert.equal(sent.statusCode, 202, sent.body);
        assert.match(sent.json().result, /preview/);
        const preview = await until('the preview', async () => {
          const got = (await t2.request({ url: `/v1/spaces/${spaceId}/git/link` })).json();
          return got.previews.find(
            (p: { branch: string; url?: string }) => p.branch === 'feature' && p.url !== undefined,
          );
        });
        const local = `/s/${preview.url.slice(t2.config.publicUrl.length)}`;
        const page = await t2.app.inject({ url: local }); // no token: the link is enough
        assert.equal(page.statusCode, 200, page.body.slice(0, 300));
        assert.match(page.body, /Hello from the feature branch/);
        const cr = await t2.request({
          url: `/v1/spaces/${spaceId}/change-requests/${preview.changeRequest}`,
        });
        assert.equal(cr.json().status, 'open');
        // The space itself is unchanged: the branch is a proposal.
        const main = await t2.request({
          url: `/v1/spaces/${spaceId}/content/page/${allPages((await currentRevision(t2, spaceId)).pages)[0].id}?format=markdown`,
        });
        assert.doesNotMatch(main.body, /feature branch/);

        const deleted = await hook('feature', '0'.repeat(40));
        assert.equal(deleted.statusCode, 202, deleted.body);
        assert.match(deleted.json().result, /deleted/);
        const gone = await t2.app.inject({ url: local });
        assert.equal(gone.statusCode, 410, gone.body.slice(0, 300));
        const archived = await t2.request({
          url: `/v1/spaces/${spaceId}/change-requests/${preview.changeRequest}`,
        });
        assert.equal(archived.json().status, 'archived');

        // A branch merged into the linked one: its preview ends once the merge is synced.
        const topic = r.push({ 'README.md': '# Welcome\n\nMerged soon.\n' }, 'Topic', 'topic');
        await hook('topic', topic);
        const second = await until('the second preview', async () => {
          const got = (await t2.request({ url: `/v1/spaces/${spaceId}/git/link` })).json();
          return got.previews.find(
            (p: { branch: string; url?: string }) => p.branch === 'topic' && p.url !== undefined,
          );
        });
        r.git('update-ref', 'refs/heads/main', topic);
        await hook('main', topic);
        await until('the preview ended by the merge', async () => {
          const got = (await t2.request({ url: `/v1/spaces/${spaceId}/git/link` })).json();
          return got.previews.length === 0 ? true : undefined;
        });
        const ended = await t2.app.inject({
          url: `/s/${second.url.slice(t2.config.publicUrl.length)}`,
        });
        assert.equal(ended.statusCode, 410);
        assert.match(await pageText(t2, spaceId), /Merged soon/);
      } finally {
        await t2.close();
      }
    } finally {
      r.dispose();
    }
  });
});
