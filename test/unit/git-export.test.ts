/**
 * Git export's pure parts (docs/git-sync.md, "Export"): where pages go, SUMMARY.md, front matter,
 * and each page's file, which a second export writes byte for byte as the first did (a property
 * over generated documents with every block kind).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { StoredPage } from '../../src/modules/content/tree.js';
import { withHeadingIds } from '../../src/modules/documents/anchors.js';
import { documentToMarkdown, pageLinks } from '../../src/modules/documents/index.js';
import * as m from '../../src/modules/documents/model.js';
import { layoutOf } from '../../src/modules/git-sync/export/layout.js';
import { frontMatterOf, pageFileOf } from '../../src/modules/git-sync/export/page-file.js';
import {
  summaryOf,
  tocShapeOfEntries,
  tocShapeOfTree,
} from '../../src/modules/git-sync/export/summary-writer.js';
import { splitPage } from '../../src/modules/git-sync/format/front-matter.js';
import { parseSummary } from '../../src/modules/git-sync/format/summary.js';
import { blobOid } from '../../src/modules/git-sync/git-write.js';
import { tocOf } from '../../src/modules/git-sync/import/toc.js';
import { documents, LINKS } from '../helpers/document-arbitraries.js';

const AT = '2026-01-01T00:00:00.000Z';
let next = 0;
const page = (fields: Partial<StoredPage> & { title: string }): StoredPage => ({
  id: `p${++next}`,
  type: 'document',
  createdAt: AT,
  updatedAt: AT,
  pages: [],
  slug: fields.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  ...fields,
});

describe('layoutOf: where pages go', () => {
  test("GitBook's paths for pages made in Livery; imported pages keep their files", () => {
    const install = page({ title: 'Install', slug: 'install' });
    const guide = page({ title: 'Guide', slug: 'guide', pages: [install] });
    const kept = page({ title: 'Kept', slug: 'kept', git: { oid: 'x', path: 'docs/old/kept.md' } });
    const inGroup = page({ title: 'Api', slug: 'api' });
    const group: StoredPage = {
      ...page({ title: 'Reference', slug: 'reference' }),
      type: 'group',
      pages: [inGroup],
    };
    const twin = page({ title: 'Install', slug: 'install' });
    const home = page({ title: 'Home', slug: 'home' });
    const { files } = layoutOf([home, guide, kept, group, twin], 'docs');
    assert.equal(files.get(home.id), 'docs/README.md', 'the first page is the readme');
    assert.equal(files.get(guide.id), 'docs/guide/README.md', 'a page with children: its folder');
    assert.equal(files.get(install.id), 'docs/guide/install.md');
    assert.equal(files.get(kept.id), 'docs/old/kept.md', 'kept where it came from');
    assert.equal(files.get(inGroup.id), 'docs/reference/api.md', "a group's pages in its folder");
    assert.equal(files.get(twin.id), 'docs/install.md');
    const clash = page({ title: 'Guide', slug: 'guide' });
    const again = layoutOf(
      [home, page({ title: 'X', slug: 'guide', pages: [page({ title: 'Y' })] }), clash],
      '',
    );
    assert.equal(again.files.get(clash.id), 'guide.md');
    const taken = layoutOf(
      [home, page({ title: 'A', slug: 'a' }), page({ title: 'A', slug: 'a' })],
      '',
    );
    assert.deepEqual([...taken.files.values()], ['README.md', 'a.md', 'a-2.md']);
  });
});

describe('SUMMARY.md', () => {
  test('what summaryOf writes, summary.ts reads back as the same tree', () => {
    const child = page({ title: 'Install [beta]', slug: 'install', linkTitle: 'Setup "quick"' });
    const guide = page({ title: 'Guide', slug: 'guide', pages: [child] });
    const groupPage = page({ title: 'Api', slug: 'api' });
    const group: StoredPage = {
      ...page({ title: 'Reference & more', slug: 'ref' }),
      type: 'group',
      pages: [groupPage],
    };
    const external: StoredPage = {
      ...page({ title: 'Elsewhere', slug: 'x' }),
      type: 'link',
      target: { kind: 'url', url: 'https://example.com/docs' },
    };
    const anchor: StoredPage = {
      ...page({ title: 'Install steps', slug: 'y' }),
      type: 'link',
      target: { kind: 'anchor', page: child.id, anchor: 'steps' },
    };
    const after = page({ title: 'After', slug: 'after file' });
    const tree = [page({ title: 'Home', slug: 'home' }), guide, external, group, anchor, after];
    const { files } = layoutOf(tree, '');
    const text = summaryOf(tree, (id) => files.get(id));
    assert.match(text, /^# Table of contents\n\n\* \[Home\]\(README\.md\)\n/);
    assert.match(text, /\n## Reference & more <a href="#ref" id="ref"><\/a>\n/);
    assert.match(text, /\n\*\*\*\n/, 'a rule before top-level pages after a group');
    assert.match(text, /\[After\]\(after%20file\.md\)/);
    const names = new Set([...files.values()]);
    const parsed = parseSummary(text, { file: 'SUMMARY.md', files: names });
    assert.deepEqual(parsed.warnings, []);
    const toc = tocOf(parsed.entries, 'README.md', names, [], 'SUMMARY.md');
    assert.deepEqual(
      tocShapeOfEntries(toc.entries),
      tocShapeOfTree(tree, (id) => files.get(id)),
    );
  });
});

describe('front matter', () => {
  test('kept as written while it says what the fields say; changed keys only, comments kept', () => {
    const raw = '# written by hand\ndescription: Start here\ntitle: Other tool\n';
    assert.equal(
      frontMatterOf(page({ title: 'A', frontMatter: raw, description: 'Start here' })),
      raw,
    );
    assert.equal(
      frontMatterOf(
        page({ title: 'A', frontMatter: raw, description: 'Begin here', hidden: true }),
      ),
      '# written by hand\ndescription: Begin here\ntitle: Other tool\nhidden: true\n',
    );
    // A key removed goes with the comment written on it.
    assert.equal(frontMatterOf(page({ title: 'A', frontMatter: raw })), 'title: Other tool\n');
    assert.equal(frontMatterOf(page({ title: 'A' })), undefined);
    assert.equal(
      frontMatterOf(page({ title: 'A', description: 'New', icon: 'rocket' })),
      'description: New\nicon: rocket\n',
    );
  });
});

/** The files of the generated documents' references: pages G, I, O, A and the files of LINKS. */
const PAGE_FILES: [string, string][] = [
  ['G', 'guide/README.md'],
  ['I', 'guide/install.md'],
  ['O', 'guide/other.md'],
  ['A', 'reference/api.md'],
];
const writeLinks = {
  ...pageLinks(
    PAGE_FILES.map(([id, file]) => [file.replace(/\.md$/, ''), id]),
    'guide/install',
  ),
  file: 'guide/install.md',
  pageFiles: new Map(PAGE_FILES.map(([id, file]) => [file, id])),
  readmeAsFolder: true,
  files: LINKS.files,
  includes: LINKS.includes,
};
const RUNS = Number(process.env.FC_NUM_RUNS ?? 150);

describe("a page's file", () => {
  test('written again from what it was read as, it is the same bytes (generated documents, every block)', () => {
    fc.assert(
      fc.property(
        documents,
        fc.record({
          description: fc.option(fc.stringMatching(/^[A-Za-z][A-Za-z ,.]{0,30}$/), {
            nil: undefined,
          }),
          hidden: fc.boolean(),
        }),
        (nodes, fields) => {
          const doc = m.document(withHeadingIds(nodes));
          // As Livery stores a page made through the API: its Markdown, links by space path.
          const made = page({
            title: 'Generated page',
            markdown: documentToMarkdown(doc, LINKS),
            ...(fields.description === undefined ? {} : { description: fields.description }),
            ...(fields.hidden ? { hidden: true } : {}),
          });
          const context = { file: 'guide/install.md', readLinks: LINKS, writeLinks };
          const first = pageFileOf(made, context);
          // As the import stores that file; its blob id made stale, so it is written again.
          const split = splitPage(first, 'guide/install.md');
          const imported = page({
            title: 'Generated page',
            markdown: split.body,
            ...(split.raw === undefined ? {} : { frontMatter: split.raw }),
            ...(split.frontMatter.description === undefined
              ? {}
              : { description: split.frontMatter.description }),
            ...(split.frontMatter.hidden === true ? { hidden: true } : {}),
            git: { oid: '0'.repeat(40), path: 'guide/install.md' },
          });
          const readBack = { ...writeLinks };
          const second = pageFileOf(imported, { ...context, readLinks: readBack });
          assert.equal(second, first);
          // And kept as is when its blob is the one it was imported from.
          const unchanged = {
            ...imported,
            git: { oid: blobOid(Buffer.from(first)), path: 'guide/install.md' },
          };
          assert.equal(pageFileOf(unchanged, { ...context, readLinks: readBack }), first);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
