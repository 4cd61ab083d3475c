import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { mergeEdit } from '../helpers/git-import.js';
import { TestRemote } from '../helpers/git-remote.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read field by field
type Json = any;

/**
 * exportSiteToGitRepository (docs/git-sync.md, "Export of a whole site"): a site imported from
 * one real repository, changed through the API, exported to a second (bare) repository, and that
 * repository imported into a new site: same structure, same customization.
 */
const SOURCE_DOCS = stringify({
  site: {
    title: 'Round trip docs',
    structure: [
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
          {
            type: 'space',
            key: 'guides-en',
            title: 'Guides',
            path: 'en',
            default: true,
            content: { directory: './guides', language: 'en' },
          },
          {
            type: 'space',
            key: 'guides-fr',
            title: 'Guides FR',
            path: 'fr',
            hidden: true,
            content: { directory: null, language: 'fr' },
          },
        ],
      },
      {
        type: 'section-group',
        key: 'more',
        title: 'More',
        children: [
          {
            type: 'section',
            key: 'api',
            title: 'API',
            path: 'api',
            children: [
              {
                type: 'space',
                key: 'api-ref',
                title: 'API reference',
                path: 'v1',
                default: true,
                content: { directory: '/api' },
              },
            ],
          },
        ],
      },
    ],
  },
});

describe('a whole site to Git (docs.yaml export) and back', () => {
  const source = new TestRemote();
  const target = new TestRemote();
  const other = new TestRemote();
  let t: TestContext;
  const siteUrl = (siteId: string) => `/v1/orgs/${t.orgId}/sites/${siteId}`;
  const newSite = async (title: string): Promise<string> => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/sites`,
      payload: { title },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id;
  };
  const waitEnded = async (siteId: string): Promise<Json> => {
    for (let i = 0; i < 600; i++) {
      const info = await t.request({ url: `${siteUrl(siteId)}/git/info` });
      assert.equal(info.statusCode, 200, info.body);
      if (info.json().operation.state !== 'running') return info.json();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the operation never ended');
  };
  const run = async (siteId: string, op: 'import' | 'export', url: string): Promise<Json> => {
    const payload =
      op === 'import'
        ? { url, ref: 'refs/heads/main' }
        : { url, ref: 'refs/heads/main', commitMessage: 'Site from Livery' };
    const queued = await t.request({
      method: 'POST',
      url: `${siteUrl(siteId)}/git/${op}`,
      payload,
    });
    assert.equal(queued.statusCode, 204, queued.body);
    const state = await waitEnded(siteId);
    assert.equal(state.operation.direction, op);
    assert.equal(state.operation.state, 'success', JSON.stringify(state));
    return state;
  };
  /** The structure without ids, timestamps or addresses: what a reader sees of it. */
  const shape = async (siteId: string): Promise<Json> => {
    const res = await t.request({ url: `${siteUrl(siteId)}/structure` });
    assert.equal(res.statusCode, 200, res.body);
    const strip = (value: Json): Json => {
      if (Array.isArray(value)) return value.map(strip);
      if (value === null || typeof value !== 'object') return value;
      const out: Json = {};
      for (const [k, v] of Object.entries(value)) {
        if (/^(id|urls|createdAt|updatedAt|section|parent|space|sectionGroup|revision)$/.test(k))
          continue;
        out[k] = strip(v);
      }
      return out;
    };
    return strip(res.json());
  };
  const customizationOf = async (siteId: string): Promise<Json> => {
    const site = await t.request({ url: `${siteUrl(siteId)}/customization` });
    assert.equal(site.statusCode, 200, site.body);
    const variants = await t.request({ url: `${siteUrl(siteId)}/site-spaces?limit=50` });
    const overrides: Json = {};
    for (const v of variants.json().items) {
      const o = await t.request({
        url: `${siteUrl(siteId)}/site-spaces/${v.id}/customization/override`,
      });
      assert.equal(o.statusCode, 200, o.body);
      overrides[v.path] = o.json();
    }
    return { site: site.json(), overrides };
  };

  before(async () => {
    t = await createTestApp({
      GIT_LOCAL_DIRS: `${source.root}:${target.root}:${other.root}`,
      GIT_CACHE_DIR: `${source.root}/.cache`,
    });
  });
  after(async () => {
    await t.close();
    source.dispose();
    target.dispose();
    other.dispose();
  });

  test('export writes docs.yaml, each space and the customization file as one commit; a re-import into a new site is the same site', async () => {
    source.push({
      'docs.yaml': SOURCE_DOCS,
      'livery-customization.yaml':
        "site:\n  styling:\n    primaryColor: { light: '#112233', dark: '#445566' }\n",
      'guides/README.md': '# Guides\n\nWelcome.\n',
      'guides/install.md': '# Install\n\nSteps.\n',
      'guides/SUMMARY.md':
        '# Table of contents\n\n* [Guides](README.md)\n* [Install](install.md)\n',
      'api/README.md': '# API\n\nReference.\n',
    });
    const first = await newSite('First');
    await run(first, 'import', source.url);

    // Changed through the API: a link without a key, an override of a variant.
    const structure = await t.request({ url: `${siteUrl(first)}/structure` });
    const group = JSON.stringify(structure.json()).match(/"id":"(sitesg_[^"]+)"/)?.[1];
    const link = await t.request({
      method: 'POST',
      url: `${siteUrl(first)}/external-links`,
      payload: {
        title: 'Status page',
        url: 'https://status.example.com',
        ...(group ? { parent: group } : {}),
      },
    });
    assert.equal(link.statusCode, 201, link.body);
    const variants = (await t.request({ url: `${siteUrl(first)}/site-spaces?limit=50` })).json()
      .items;
    const fr = variants.find((v: Json) => v.path === 'fr');
    const patched = await t.request({
      method: 'PATCH',
      url: `${siteUrl(first)}/site-spaces/${fr.id}/customization`,
      payload: { title: 'Guides en français' },
    });
    assert.equal(patched.statusCode, 200, patched.body);

    const exported = await run(first, 'export', target.url);
    assert.equal(target.count(), 1, 'one commit for the whole site');
    assert.equal(exported.commit, target.head());
    assert.equal(target.message(), 'Site from Livery');
    const files = target.files();
    for (const f of [
      'docs.yaml',
      'livery-customization.yaml',
      'guides/README.md',
      'guides/install.md',
      'guides/SUMMARY.md',
      'api/README.md',
    ]) {
      assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
    }
    // The variant imported from `directory: null` is still empty: null again, nothing written.
    assert.ok(!files.some((f) => f.startsWith('product/')), files.join(', '));
    const docs = parse(target.file('docs.yaml') ?? '');
    const text = JSON.stringify(docs);
    assert.match(text, /"key":"product"/);
    assert.match(text, /"directory":".\/guides"/);
    assert.match(text, /"path":"fr","hidden":true,"content":\{"directory":null,"language":"fr"\}/);
    assert.equal(
      docs.$schema,
      'https://api.gitbook.com/openapi.yaml#/components/schemas/GitSyncSiteConfig',
    );
    assert.match(text, /"key":"link-status-page"/, 'a generated key for the link');
    // The generated key is stored: the next import of this file matches the same link.
    const custom = parse(target.file('livery-customization.yaml') ?? '');
    assert.equal(custom.site.styling.primaryColor.light, '#112233');
    assert.deepEqual(custom.variants, { 'guides-fr': { title: 'Guides en français' } });

    // Exported again, unchanged: no commit.
    const again = await run(first, 'export', target.url);
    assert.equal(target.count(), 1, 'nothing changed, nothing committed');
    assert.equal(again.commit, target.head());

    // Imported into a new site: the same site.
    const second = await newSite('Second');
    await run(second, 'import', target.url);
    assert.deepEqual(await shape(second), await shape(first));
    assert.deepEqual(await customizationOf(second), await customizationOf(first));
    const site = (await t.request({ url: siteUrl(second) })).json();
    assert.equal(site.title, 'Round trip docs');
    const secondVariants = (
      await t.request({ url: `${siteUrl(second)}/site-spaces?limit=50` })
    ).json().items;
    const en = secondVariants.find((v: Json) => v.path === 'en');
    const pages = await t.request({ url: `/v1/spaces/${en.space.id}/content/pages` });
    assert.match(pages.body, /Install/);

    // The first site re-imported from its own export: nothing changes (keys matched).
    const before = await shape(first);
    await run(first, 'import', target.url);
    assert.deepEqual(await shape(first), before);
  });

  test('a page edited in Livery: the next export is one commit changing that file only', async () => {
    const sites = (await t.request({ url: `/v1/orgs/${t.orgId}/sites?limit=50` })).json().items;
    const first = sites.find(
      (s: Json) => s.gitSync?.operation.direction === 'import' && s.title === 'Round trip docs',
    );
    assert.ok(first, 'the first site');
    const variants = (await t.request({ url: `${siteUrl(first.id)}/site-spaces?limit=50` })).json()
      .items;
    const api = variants.find((v: Json) => v.path === 'v1');
    const before = target.count();
    // The API space's first page edited through a merged change request.
    const pages = (await t.request({ url: `/v1/spaces/${api.space.id}/content/pages` })).json();
    const readme = pages.pages[0];
    await mergeEdit(t, api.space.id, [
      {
        operation: 'update_page',
        page: readme.id,
        document: { markdown: '# API\n\nReference, revised.\n' },
      },
    ]);
    const state = await run(first.id, 'export', target.url);
    assert.equal(target.count(), before + 1);
    assert.equal(state.commit, target.head());
    const changed = target.git('diff', '--name-only', 'HEAD~1', 'HEAD').split('\n');
    assert.deepEqual(changed, ['api/README.md']);
    assert.match(target.file('api/README.md') ?? '', /revised/);
  });

  test('bad bodies: the envelope names the field (commitMessage missing, a tag, a path outside GIT_LOCAL_DIRS)', async () => {
    const siteId = await newSite('Bad');
    const missing = await t.request({
      method: 'POST',
      url: `${siteUrl(siteId)}/git/export`,
      payload: { url: target.url, ref: 'refs/heads/main' },
    });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().error.message, /commitMessage/);
    const tag = await t.request({
      method: 'POST',
      url: `${siteUrl(siteId)}/git/export`,
      payload: { url: target.url, ref: 'refs/tags/v1', commitMessage: 'x' },
    });
    assert.equal(tag.statusCode, 400);
    assert.match(tag.json().error.message, /body\.ref/);
    const outside = await t.request({
      method: 'POST',
      url: `${siteUrl(siteId)}/git/export`,
      payload: { url: 'file:///etc/somewhere', ref: 'main', commitMessage: 'x' },
    });
    assert.equal(outside.statusCode, 400, outside.body);
    assert.equal(outside.json().error.code, 400);
  });

  test('an export event older than one already handled is ignored: 204, nothing runs', async () => {
    const siteId = await newSite('Events');
    const space = await t.request({
      method: 'POST',
      url: `${siteUrl(siteId)}/site-spaces`,
      payload: {
        spaceId: (
          await t.request({
            method: 'POST',
            url: `/v1/orgs/${t.orgId}/spaces`,
            payload: { title: 'Only' },
          })
        ).json().id,
      },
    });
    assert.ok(space.statusCode < 300, space.body);
    const body = (timestamp: string) => ({
      url: other.url,
      ref: 'refs/heads/main',
      commitMessage: `at ${timestamp}`,
      timestamp,
    });
    const first = await t.request({
      method: 'POST',
      url: `${siteUrl(siteId)}/git/export`,
      payload: body('2026-01-02T00:00:00Z'),
    });
    assert.equal(first.statusCode, 204, first.body);
    const ended = await waitEnded(siteId);
    assert.equal(ended.operation.state, 'success', JSON.stringify(ended));
    const older = await t.request({
      method: 'POST',
      url: `${siteUrl(siteId)}/git/export`,
      payload: body('2026-01-01T00:00:00Z'),
    });
    assert.equal(older.statusCode, 204, older.body);
    const after = await waitEnded(siteId);
    assert.equal(after.operation.startedAt, ended.operation.startedAt, 'no new operation');
    assert.equal(other.message(), 'at 2026-01-02T00:00:00Z');
  });
});
