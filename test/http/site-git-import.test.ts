import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { TestRepo } from '../helpers/git-repo.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = any;

const space = (key: string, directory: string | null, extra: Json = {}) => ({
  type: 'space',
  key,
  title: `Space ${key}`,
  path: key,
  content: { directory, ...(extra.language ? { language: extra.language } : {}) },
  ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'language')),
});
const docs = (structure: Json[]) => stringify({ site: { title: 'Product docs', structure } });

const sectioned = docs([
  {
    type: 'section',
    key: 'product',
    title: 'Product',
    localizedTitle: { fr: 'Produit' },
    description: 'All about it',
    icon: 'book',
    path: 'product',
    default: true,
    children: [
      space('guides-en', './guides', {
        default: true,
        language: 'en',
        localizedTitle: { fr: 'Guides' },
      }),
      space('guides-fr', null, { language: 'fr', hidden: true }),
    ],
  },
  {
    type: 'section-group',
    key: 'more',
    title: 'More',
    icon: 'circle-info',
    children: [
      {
        type: 'section',
        key: 'api',
        title: 'API',
        path: 'api',
        children: [space('api-ref', '/api', { default: true })],
      },
      { type: 'external-link', key: 'status', title: 'Status', url: 'https://status.example.com' },
    ],
  },
]);

describe('a whole site from Git (docs.yaml)', () => {
  const repo = new TestRepo();
  let t: TestContext;
  let siteId: string;
  const base = () => `/v1/orgs/${t.orgId}/sites/${siteId}`;
  const importSite = async (): Promise<Json> => {
    const queued = await t.request({
      method: 'POST',
      url: `${base()}/git/import`,
      payload: { url: `file://${repo.dir}`, ref: 'refs/heads/main' },
    });
    assert.equal(queued.statusCode, 204, queued.body);
    for (let i = 0; i < 600; i++) {
      const info = await t.request({ url: `${base()}/git/info` });
      assert.equal(info.statusCode, 200, info.body);
      const state = info.json();
      if (state.operation.state !== 'running') return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the import never ended');
  };
  const structure = async (): Promise<Json> => {
    const res = await t.request({ url: `${base()}/structure` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  before(async () => {
    t = await createTestApp({ GIT_LOCAL_DIRS: repo.root, GIT_CACHE_DIR: `${repo.root}/.cache` });
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { title: 'Empty site' },
    });
    assert.equal(res.statusCode, 201, res.body);
    siteId = res.json().id;
  });
  after(async () => {
    await t.close();
    repo.dispose();
  });

  test('before any import: getSiteGitInfo is a 404 with the envelope', async () => {
    const res = await t.request({ url: `${base()}/git/info` });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.code, 404);
    const site = await t.request({ url: base() });
    assert.equal(site.json().gitSync, undefined, 'no Site.gitSync before any operation');
  });

  test('a sectioned site with a group, a link, localized titles, a null directory and customization', async () => {
    repo.commit(
      {
        'docs.yaml': sectioned,
        'livery-customization.yaml':
          "site:\n  styling:\n    primaryColor: { light: '#112233', dark: '#445566' }\nvariants:\n  guides-fr:\n    title: Guides FR\n",
        'guides/README.md': '# Guides\n\nWelcome.\n',
        'guides/install.md': '# Install\n\nSteps.\n',
        'guides/SUMMARY.md':
          '# Table of contents\n\n* [Guides](README.md)\n* [Install](install.md)\n',
        'api/README.md': '# API\n\nReference.\n',
      },
      'First site',
    );
    const state = await importSite();
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    const site = await t.request({ url: base() });
    assert.equal(site.json().title, 'Product docs');
    // Site.gitSync: the site's state, in the site and in the listing.
    assert.equal(site.json().gitSync.operation.state, 'success');
    assert.equal(site.json().gitSync.operation.direction, 'import');
    assert.equal(site.json().gitSync.installationId, `livery-${siteId}`);
    const listed = await t.request({ url: `/v1/orgs/${t.orgId}/sites` });
    const mine = listed.json().items.find((x: Json) => x.id === siteId);
    assert.equal(mine.gitSync.commit, state.commit);
    const s = await structure();
    assert.equal(s.type, 'sections', JSON.stringify(s));
    const text = JSON.stringify(s);
    for (const expected of [
      'Product',
      'Produit',
      'More',
      'API',
      'Status',
      'https://status.example.com',
      'Space guides-en',
      'Space guides-fr',
    ]) {
      assert.ok(text.includes(expected), `${expected} in ${text}`);
    }
    // The English space has the repository's pages; the French one is empty and not fed.
    const variants = await t.request({ url: `${base()}/site-spaces?limit=50` });
    const items: Json[] = variants.json().items;
    assert.equal(items.length, 3, variants.body);
    const en = items.find((v) => v.title === 'Space guides-en');
    const fr = items.find((v) => v.title === 'Space guides-fr');
    assert.ok(en && fr);
    assert.equal(fr.hidden, true);
    const pages = await t.request({ url: `/v1/spaces/${en.space.id}/content/pages` });
    assert.equal(pages.statusCode, 200, pages.body);
    assert.match(pages.body, /Install/);
    const frInfo = await t.request({ url: `/v1/spaces/${fr.space.id}/git/info` });
    assert.equal(frInfo.statusCode, 404, 'a null directory is not fed from the repository');
    // Customization from the file, recorded with the commit in its history message.
    const custom = await t.request({ url: `${base()}/customization` });
    assert.equal(custom.json().styling.primaryColor.light, '#112233');
    const frCustom = await t.request({ url: `${base()}/site-spaces/${fr.id}/customization` });
    assert.equal(frCustom.json().title, 'Guides FR');
    const history = await t.request({ url: `${base()}/customization/revisions` });
    assert.equal(history.statusCode, 200, history.body);
    assert.match(history.body, /Imported from Git: commit [0-9a-f]{12} \(First site\)/);
  });

  test('a re-import after changes: matched by key, moved, renamed, removed; the space is kept', async () => {
    const before = await t.request({ url: `${base()}/site-spaces?limit=50` });
    const apiVariant = before.json().items.find((v: Json) => v.title === 'Space api-ref');
    repo.commit(
      {
        'docs.yaml': docs([
          {
            type: 'section',
            key: 'product',
            title: 'Product renamed',
            path: 'product',
            default: true,
            children: [space('guides-en', './guides', { default: true, language: 'en' })],
          },
          {
            type: 'section',
            key: 'api',
            title: 'API',
            path: 'reference',
            children: [space('api-ref', '/api', { default: true })],
          },
        ]),
        'livery-customization.yaml': null,
      },
      'Second site',
    );
    const state = await importSite();
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    const text = JSON.stringify(await structure());
    assert.ok(text.includes('Product renamed'));
    assert.ok(!text.includes('"More"') && !text.includes('status.example.com'), text);
    const after = await t.request({ url: `${base()}/site-spaces?limit=50` });
    const items: Json[] = after.json().items;
    assert.equal(items.length, 2);
    assert.equal(items.find((v) => v.title === 'Space api-ref')?.id, apiVariant.id, 'same variant');
    // The removed variant's space still exists.
    const spaces = await t.request({ url: `/v1/orgs/${t.orgId}/spaces?limit=100` });
    assert.match(spaces.body, /Space guides-fr/);
    // Without the file, the customization stays as it was.
    const custom = await t.request({ url: `${base()}/customization` });
    assert.equal(custom.json().styling.primaryColor.light, '#112233');
  });

  const broken: [string, string, string][] = [
    [
      'two defaults',
      docs([space('a', './guides', { default: true }), space('b', './api', { default: true })]),
      'one-default-space',
    ],
    [
      'duplicate keys',
      docs([space('a', './guides', { default: true }), space('a', './api')]),
      'unique-keys',
    ],
    ['a `..` directory', docs([space('a', '../guides', { default: true })]), 'directory-parent'],
    [
      'two languages on one directory',
      docs([
        space('a', './guides', { default: true, language: 'en' }),
        space('b', 'guides', { language: 'fr' }),
      ]),
      'directory-language',
    ],
    [
      'a top-level space beside a section',
      docs([
        {
          type: 'section',
          key: 's',
          title: 'Sec',
          path: 's',
          default: true,
          children: [space('a', './guides', { default: true })],
        },
        space('b', './api', { default: true }),
      ]),
      'no-top-level-spaces',
    ],
    [
      'a link in a site without sections',
      docs([
        space('a', './guides', { default: true }),
        { type: 'external-link', key: 'l', title: 'Link', url: 'https://example.com' },
      ]),
      'external-link-needs-section',
    ],
    [
      'a section in a section',
      docs([
        {
          type: 'section',
          key: 's',
          title: 'Sec',
          path: 's',
          default: true,
          children: [
            space('a', './guides', { default: true }),
            { type: 'section', key: 'in', title: 'In', path: 'in' },
          ],
        },
      ]),
      'section-children',
    ],
    [
      'an unknown field',
      docs([space('a', './guides', { default: true, colour: 'red' })]),
      'rule: schema',
    ],
    [
      'a directory with no files',
      docs([space('a', './nowhere', { default: true })]),
      'directory-missing',
    ],
  ];
  for (const [what, text, rule] of broken) {
    test(`a docs.yaml with ${what} fails the import naming the rule, and changes nothing`, async () => {
      const before = JSON.stringify(await structure());
      repo.commit({ 'docs.yaml': text }, `Broken: ${what}`);
      const state = await importSite();
      assert.equal(state.operation.state, 'failure');
      assert.match(state.operation.error, new RegExp(rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.match(state.operation.error, /docs\.yaml:\d+: node "/);
      assert.equal(JSON.stringify(await structure()), before);
    });
  }

  test('a customization file the schema refuses fails the import with its line, nothing changed', async () => {
    const before = JSON.stringify(await structure());
    repo.commit(
      {
        'docs.yaml': sectioned,
        'livery-customization.yaml': 'site:\n  styling:\n    primaryColor: red\n',
      },
      'Bad colour',
    );
    const state = await importSite();
    assert.equal(state.operation.state, 'failure');
    assert.match(
      state.operation.error,
      /livery-customization\.yaml:3: site\.styling\.primaryColor/,
    );
    assert.equal(JSON.stringify(await structure()), before);
  });

  test('a repository without docs.yaml', async () => {
    repo.commit({ 'docs.yaml': null, 'livery-customization.yaml': null }, 'No site file');
    const state = await importSite();
    assert.equal(state.operation.state, 'failure');
    assert.match(state.operation.error, /no docs\.yaml/);
  });

  test('a URL Livery may not fetch is a 400 naming the field', async () => {
    const res = await t.request({
      method: 'POST',
      url: `${base()}/git/import`,
      payload: { url: 'file:///etc', ref: 'refs/heads/main' },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error.code, 400);
  });
});
