import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { checkFiles } from '../../src/modules/content/limits.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { crUrl, newSpace, openChangeRequest } from '../helpers/content.js';

/**
 * What one page and one space may hold (docs/content.md, "Limits"), enforced when content is
 * written: each refusal names the field, the size, the limit and its setting, and nothing of the
 * change list is kept. Small limits here, so that the cases stay small; on the run's backend.
 */
let t: TestContext;

before(async () => {
  t = await createTestApp({
    PAGE_MAX_BYTES: '1000',
    PAGE_MAX_BLOCKS: '10',
    SPACE_MAX_PAGES: '3',
  });
});
after(async () => t.close());

const content = (spaceId: string, cr: string, changes: unknown[]) =>
  t.request({ method: 'POST', url: `${crUrl(spaceId, cr)}/content`, payload: { changes } });

/** The change request's revision, to see that a refused list changed nothing. */
async function revisionOf(spaceId: string, cr: string): Promise<string> {
  return expectStatus(await t.request({ method: 'GET', url: crUrl(spaceId, cr) }), 200)
    .revision as string;
}

describe('a page', () => {
  test('Markdown over PAGE_MAX_BYTES (bytes of UTF-8): 413 naming the change and the setting', async () => {
    const { id: spaceId } = await newSpace(t);
    const cr = (await openChangeRequest(t, spaceId)).id;
    const before = await revisionOf(spaceId, cr);
    // 500 characters, 1,000 bytes: within the limit. One more two-byte character is over it.
    const within = 'é'.repeat(500);
    expectStatus(
      await content(spaceId, cr, [
        { operation: 'insert_page', title: 'Fits', document: { markdown: within } },
      ]),
      200,
    );
    const after = await revisionOf(spaceId, cr);
    assert.notEqual(after, before);
    const response = await content(spaceId, cr, [
      { operation: 'insert_page', title: 'Also fits', document: { markdown: 'ok' } },
      { operation: 'insert_page', title: 'Too big', document: { markdown: `${within}é` } },
    ]);
    assert.equal(
      expectError(response, 413),
      'changes[1].document.markdown: 1,002 bytes, over the limit of 1,000 bytes for one page (PAGE_MAX_BYTES)',
    );
    assert.equal(await revisionOf(spaceId, cr), after, 'nothing of the list was kept');
  });

  test('a document over PAGE_MAX_BLOCKS (table cells count): 413 naming the change and the setting', async () => {
    const { id: spaceId } = await newSpace(t);
    const cr = (await openChangeRequest(t, spaceId)).id;
    const before = await revisionOf(spaceId, cr);
    // A table of 4 rows and 2 columns: the table and 8 cells, 9 blocks; one more row is 11.
    const table = (rows: number) => `| a | b |\n|---|---|\n${'| x | y |\n'.repeat(rows)}`;
    expectStatus(
      await content(spaceId, cr, [
        { operation: 'insert_page', title: 'Fits', document: { markdown: table(4) } },
      ]),
      200,
    );
    const after = await revisionOf(spaceId, cr);
    assert.notEqual(after, before);
    const response = await content(spaceId, cr, [
      { operation: 'insert_page', title: 'Too many', document: { markdown: table(5) } },
    ]);
    assert.match(
      expectError(response, 413),
      /^changes\[0\]\.document\.markdown: 11 blocks, over the limit of 10 blocks for one page \(PAGE_MAX_BLOCKS; a table cell is a block\)/,
    );
    assert.equal(await revisionOf(spaceId, cr), after);
  });

  test('update_page is held to the same limits', async () => {
    const { id: spaceId } = await newSpace(t);
    const cr = (await openChangeRequest(t, spaceId)).id;
    const inserted = expectStatus(
      await content(spaceId, cr, [
        { operation: 'insert_page', title: 'Page', document: { markdown: 'small' } },
      ]),
      200,
    );
    assert.equal(inserted.object, 'change-request');
    const pages = expectStatus(
      await t.request({ method: 'GET', url: `${crUrl(spaceId, cr)}/content/pages` }),
      200,
    ).pages as { id: string }[];
    const response = await content(spaceId, cr, [
      { operation: 'update_page', page: pages[0]?.id, document: { markdown: 'x'.repeat(1001) } },
    ]);
    assert.match(expectError(response, 413), /^changes\[0\]\.document\.markdown: 1,001 bytes/);
  });
});

describe('a space', () => {
  test('more than SPACE_MAX_PAGES pages: 400 naming the setting, nothing kept', async () => {
    const { id: spaceId } = await newSpace(t);
    const cr = (await openChangeRequest(t, spaceId)).id;
    const page = (title: string) => ({
      operation: 'insert_page',
      title,
      document: { markdown: '' },
    });
    expectStatus(await content(spaceId, cr, [page('One'), page('Two'), page('Three')]), 200);
    const after = await revisionOf(spaceId, cr);
    const response = await content(spaceId, cr, [page('Four')]);
    assert.equal(
      expectError(response, 400),
      'changes: the content would have 4 pages, over the limit of 3 pages in a space (SPACE_MAX_PAGES)',
    );
    assert.equal(await revisionOf(spaceId, cr), after);
  });

  test('two change requests that fit alone but not together: the second merge is refused', async () => {
    const { id: spaceId } = await newSpace(t);
    const page = (title: string) => ({
      operation: 'insert_page',
      title,
      document: { markdown: '' },
    });
    const first = (await openChangeRequest(t, spaceId)).id;
    const second = (await openChangeRequest(t, spaceId)).id;
    expectStatus(await content(spaceId, first, [page('A'), page('B')]), 200);
    expectStatus(await content(spaceId, second, [page('C'), page('D')]), 200);
    expectStatus(await t.request({ method: 'POST', url: `${crUrl(spaceId, first)}/merge` }), 200);
    const merge = await t.request({ method: 'POST', url: `${crUrl(spaceId, second)}/merge` });
    assert.match(
      expectError(merge, 400),
      /^Merging change request \d+: the content would have 4 pages, over the limit of 3 pages in a space \(SPACE_MAX_PAGES\)$/,
    );
    const update = await t.request({ method: 'POST', url: `${crUrl(spaceId, second)}/update` });
    assert.match(expectError(update, 400), /^Updating change request \d+: .* \(SPACE_MAX_PAGES\)$/);
  });
});

describe('the body of a change list', () => {
  test('room for a page of PAGE_MAX_BYTES; past it, the 413 names the route’s own limit', async () => {
    const app = await createTestApp({ PAGE_MAX_BYTES: String(3 * 1024 * 1024) });
    try {
      const { id: spaceId } = await newSpace(app);
      const cr = (await openChangeRequest(app, spaceId)).id;
      const url = `${crUrl(spaceId, cr)}/content`;
      // 2.5 MiB of Markdown: over the 1 MiB of other bodies, within this list's room.
      const markdown = 'a'.repeat(2.5 * 1024 * 1024);
      const changes = [{ operation: 'insert_page', title: 'Big', document: { markdown } }];
      expectStatus(await app.request({ method: 'POST', url, payload: { changes } }), 200);
      const tooBig = [{ ...changes[0], document: { markdown: markdown.repeat(3) } }];
      const response = await app.request({ method: 'POST', url, payload: { changes: tooBig } });
      assert.equal(expectError(response, 413), 'The request body is larger than the 7 MiB limit');
    } finally {
      await app.close();
    }
  });
});

describe('settings', () => {
  test('defaults: 2 MiB and 50,000 blocks a page, 10,000 pages and 20,000 files a space, 100 MiB a file', () => {
    assert.deepEqual(
      { ...loadConfig({}).contentLimits },
      {
        pageBytes: 2 * 1024 * 1024,
        pageBlocks: 50_000,
        spacePages: 10_000,
        spaceFiles: 20_000,
        fileBytes: 100 * 1024 * 1024,
      },
    );
  });

  test('0 or not a number is refused at start, naming the setting', () => {
    assert.throws(() => loadConfig({ PAGE_MAX_BLOCKS: '0' }), /PAGE_MAX_BLOCKS must be at least 1/);
    assert.throws(
      () => loadConfig({ SPACE_MAX_PAGES: 'many' }),
      /SPACE_MAX_PAGES must be an integer/,
    );
    assert.throws(() => loadConfig({ WORKER_THREADS: '0' }), /WORKER_THREADS must be at least 1/);
    assert.throws(
      () => loadConfig({ RENDER_BUDGET_MS: '-5' }),
      /RENDER_BUDGET_MS must be an integer/,
    );
  });
});

describe('files (checked by Git import)', () => {
  const limits = { ...loadConfig({}).contentLimits, fileBytes: 100, spaceFiles: 2 };
  const cases: [string, { path: string; bytes: number }[], RegExp | undefined][] = [
    ['within both limits', [{ path: 'a.png', bytes: 100 }], undefined],
    [
      'a file over FILE_MAX_BYTES',
      [{ path: '.gitbook/assets/big.png', bytes: 101 }],
      /\.gitbook\/assets\/big\.png: 101 bytes, over the limit of 100 bytes for one file \(FILE_MAX_BYTES\)$/,
    ],
    [
      'more files than SPACE_MAX_FILES',
      [1, 2, 3].map((i) => ({ path: `${i}.png`, bytes: 1 })),
      /files: 3 files, over the limit of 2 files in a space \(SPACE_MAX_FILES\)$/,
    ],
  ];
  for (const [name, files, refused] of cases) {
    test(name, () => {
      if (refused === undefined) checkFiles(files, limits);
      else assert.throws(() => checkFiles(files, limits), refused);
    });
  }
});
