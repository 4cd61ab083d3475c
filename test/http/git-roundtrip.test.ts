import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { withHeadingIds } from '../../src/modules/documents/anchors.js';
import { documentToMarkdown } from '../../src/modules/documents/index.js';
import * as m from '../../src/modules/documents/model.js';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { documents, LINKS } from '../helpers/document-arbitraries.js';
import {
  allPages,
  currentRevision,
  type GitInfo,
  importAndWait,
  mergeEdit,
  newSpace,
  waitEnded,
} from '../helpers/git-import.js';
import { TestRemote } from '../helpers/git-remote.js';
import { pngOf } from '../helpers/git-repo.js';

/**
 * Round trips through Git (issue 28, "Round trip"): a repository in GitBook's exported form comes
 * back byte for byte; export → import → export is byte-identical, and import → export → import
 * gives the same pages, over generated spaces with every block kind.
 */
const FIXTURE = join(import.meta.dirname, '..', 'helpers', 'gitbook-blocks');

async function exportTo(t: TestContext, spaceId: string, remote: TestRemote): Promise<GitInfo> {
  const res = await t.request({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/git/export`,
    payload: { url: remote.url, ref: 'refs/heads/main', commitMessage: 'Round trip' },
  });
  assert.equal(res.statusCode, 204, res.body);
  const state = await waitEnded(t, spaceId);
  assert.equal(state.operation.state, 'success', JSON.stringify(state));
  return state;
}

/** Every file of the branch with its blob id: equal trees, equal bytes. */
const treeOf = (remote: TestRemote) => remote.git('ls-tree', '-r', 'refs/heads/main');

async function pagesOf(t: TestContext, spaceId: string) {
  const pages = allPages((await currentRevision(t, spaceId)).pages);
  return Promise.all(
    pages.map(async (p) => {
      const doc = await t.request({
        url: `/v1/spaces/${spaceId}/content/page/${p.id}?format=markdown`,
      });
      return {
        title: p.title,
        path: p.path,
        markdown: doc.json().markdown,
        description: p.description,
      };
    }),
  );
}

describe('Git round trips', () => {
  let t: TestContext;
  const remotes: TestRemote[] = [];
  const remote = () => {
    const r = new TestRemote();
    remotes.push(r);
    return r;
  };
  before(async () => {
    t = await createTestApp({ GIT_LOCAL_DIRS: '/tmp', GIT_CACHE_DIR: '/tmp/livery-git-roundtrip' });
  });
  after(async () => {
    await t.close();
    for (const r of remotes) r.dispose();
  });

  test("a repository in GitBook's exported form: import then export gives its files back byte for byte", async () => {
    const source = remote();
    const files = Object.fromEntries(
      readdirSync(FIXTURE, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const path = join(entry.parentPath, entry.name);
          return [path.slice(FIXTURE.length + 1), readFileSync(path)];
        }),
    );
    source.push(files, 'GitBook-form pages');
    const spaceId = await newSpace(t);
    const imported = await importAndWait(t, spaceId, { url: source.url, ref: 'main' });
    assert.equal(imported.operation.state, 'success', JSON.stringify(imported));
    const target = remote();
    await exportTo(t, spaceId, target);
    // Every page, the SUMMARY and the assets; LICENSE.md is no page of the SUMMARY: not the space's.
    for (const name of Object.keys(files).filter((n) => n !== 'LICENSE.md')) {
      assert.equal(target.file(name), source.file(name), `${name}, byte for byte`);
    }
    assert.equal(target.file('LICENSE.md'), undefined);
  });

  test("a space from a repository's folder (.gitbook.yaml root) exported to an empty repository: the folder again, and the round trip loses nothing", async () => {
    const source = remote();
    source.push({
      '.gitbook.yaml': 'root: ./docs/\n',
      'docs/README.md': '# Home\n\n![Logo](.gitbook/assets/logo.png)\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n',
      'docs/guide.md': '# Guide\n\nBack [home](./).\n',
      'docs/.gitbook/assets/logo.png': pngOf(8, 8),
      'docs/.gitbook/assets/unused.png': pngOf(9, 9),
      'src/main.c': 'int main() {}\n',
    });
    const spaceId = await newSpace(t);
    await importAndWait(t, spaceId, { url: source.url, ref: 'main' });
    const first = remote();
    await exportTo(t, spaceId, first);
    assert.equal(first.file('.gitbook.yaml'), 'root: ./docs/\n');
    assert.deepEqual(first.files().sort(), [
      '.gitbook.yaml',
      'docs/.gitbook/assets/logo.png',
      'docs/.gitbook/assets/unused.png',
      'docs/README.md',
      'docs/SUMMARY.md',
      'docs/guide.md',
    ]);
    const second = await newSpace(t);
    await importAndWait(t, second, { url: first.url, ref: 'main' });
    const again = remote();
    await exportTo(t, second, again);
    assert.equal(treeOf(again), treeOf(first));
  });

  test('export → import → export is byte-identical; import → export → import gives the same pages (generated spaces)', async () => {
    const pageDoc = documents.map((nodes) =>
      documentToMarkdown(m.document(withHeadingIds(nodes)), LINKS),
    );
    const space = fc.array(
      fc.record({
        markdown: pageDoc,
        description: fc.option(fc.stringMatching(/^[A-Z][a-z ]{0,20}$/), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 3 },
    );
    await fc.assert(
      fc.asyncProperty(space, async (pages) => {
        const spaceId = await newSpace(t, 'Generated');
        await mergeEdit(
          t,
          spaceId,
          pages.map((p, i) => ({
            operation: 'insert_page',
            title: `Page ${i + 1}`,
            ...(p.description === undefined ? {} : { description: p.description }),
            document: { markdown: p.markdown },
          })),
        );
        const first = remote();
        await exportTo(t, spaceId, first);
        const second = await newSpace(t, 'Imported');
        const state = await importAndWait(t, second, { url: first.url, ref: 'main' });
        assert.equal(state.operation.state, 'success', JSON.stringify(state));
        const again = remote();
        await exportTo(t, second, again);
        assert.equal(treeOf(again), treeOf(first), 'the second export is the first, byte for byte');
        const third = await newSpace(t, 'Imported again');
        await importAndWait(t, third, { url: again.url, ref: 'main' });
        assert.deepEqual(
          await pagesOf(t, third),
          await pagesOf(t, second),
          'the same pages, ids aside',
        );
      }),
      { numRuns: Number(process.env.FC_NUM_RUNS_GIT ?? 6) },
    );
  });
});
