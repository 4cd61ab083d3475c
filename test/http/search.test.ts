/**
 * Site search (docs/search.md) through HTTP: `POST /v1/orgs/{org}/sites/{site}/search`
 * (searchSiteContent) on a published site with an English and a German variant, and the search
 * box of Livery's own published site (`GET /s/{site}/@livery/search`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Static } from 'typebox';
import type { SearchResultsSchema } from '../../src/modules/search/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { recordingClient } from '../helpers/gitbook-0202.js';
import { byTitle, newSpace, publishChanges } from '../helpers/insights.js';
import { cookieSet, publishedSite, visit } from '../helpers/published.js';

let t: TestContext;
let base: string;
let english: string;
let german: string;
let englishSpace: string;
let germanSpace: string;

type ResultsJson = Static<typeof SearchResultsSchema>;

const md = (...lines: string[]) => lines.join('\n');

before(async () => {
  t = await createTestApp();
  englishSpace = await newSpace(t, 'Handbook');
  const first = await publishChanges(t, englishSpace, [
    {
      operation: 'insert_page',
      title: 'Getting started',
      document: {
        markdown: md(
          'Welcome to Acme.',
          '',
          '## Install the CLI',
          '',
          'Run `npm install acme`. The install takes a minute.',
          '',
          '## Configure',
          '',
          'Edit the config file.',
        ),
      },
    },
    {
      operation: 'insert_page',
      title: 'Install',
      document: {
        markdown: md('Install Acme on a server.', '', '## Requirements', '', 'Node 20.'),
      },
    },
    {
      operation: 'insert_page',
      title: 'Deploy',
      document: {
        markdown: md(
          'Deploy after you install. Install first.',
          '',
          '## Rollback',
          '',
          'Restore the previous release.',
        ),
      },
    },
    {
      operation: 'insert_page',
      title: 'Secret',
      hidden: true,
      document: { markdown: 'install rollback secret' },
    },
    { operation: 'insert_page', title: 'Guides', type: 'group' },
  ]);
  await publishChanges(t, englishSpace, [
    {
      operation: 'insert_page',
      title: 'Advanced',
      into: byTitle(first, 'Guides').id,
      document: { markdown: md('## Café setup', '', 'Advanced café options.') },
    },
  ]);
  germanSpace = await newSpace(t, 'Deutsch');
  await publishChanges(t, germanSpace, [
    {
      operation: 'insert_page',
      title: 'Start',
      document: {
        markdown: md(
          'Willkommen.',
          '',
          '## Installation',
          '',
          'Führen Sie `npm install acme` aus.',
        ),
      },
    },
    {
      operation: 'insert_page',
      title: 'Über uns',
      slug: 'über-uns',
      document: { markdown: 'Wir sind Acme. Straße 1.' },
    },
  ]);
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Docs', spaces: [englishSpace, germanSpace] },
  });
  base = `/v1/orgs/${t.orgId}/sites/${expectStatus(created, 201).id as string}`;
  const patch = { basename: 'acme', visibility: 'public' };
  expectStatus(await t.request({ method: 'PATCH', url: base, payload: patch }), 200);
  expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
  const listed = await t.request({ method: 'GET', url: `${base}/site-spaces` });
  const items = expectStatus(listed, 200).items as { id: string; default: boolean }[];
  english = items.find((item) => item.default)?.id ?? '';
  german = items.find((item) => !item.default)?.id ?? '';
  const url = `${base}/site-spaces/${german}`;
  expectStatus(await t.request({ method: 'PATCH', url, payload: { path: 'de' } }), 200);
});
after(async () => t.close());

async function search(payload: object, query = ''): Promise<ResultsJson> {
  const response = await t.request({ method: 'POST', url: `${base}/search${query}`, payload });
  return expectStatus(response, 200) as unknown as ResultsJson;
}

/** `space title › page title` of every page found, in rank order. */
const found = (results: ResultsJson) =>
  results.items
    .flatMap((space) =>
      space.pages.map((page) => ({ rank: page.rank, at: `${space.title} › ${page.title}` })),
    )
    .sort((a, b) => a.rank - b.rank)
    .map((page) => page.at);

describe('searchSiteContent', () => {
  test('queries → ranked pages across both variants', async () => {
    for (const [query, expected] of [
      // Title, then heading, then text by frequency; the last term is a prefix, so the German
      // heading "Installation" is a heading match, unless a space ends the word.
      [
        'install',
        [
          'Handbook › Install',
          'Handbook › Getting started',
          'Deutsch › Start',
          'Handbook › Deploy',
        ],
      ],
      [
        'install ',
        [
          'Handbook › Install',
          'Handbook › Getting started',
          'Handbook › Deploy',
          'Deutsch › Start',
        ],
      ],
      ['installation', ['Deutsch › Start']],
      ['INSTALL the cli', ['Handbook › Getting started']],
      ['conf', ['Handbook › Getting started']],
      ['conf ', []],
      ['uber', ['Deutsch › Über uns']],
      ['strasse', ['Deutsch › Über uns']],
      ['cafe', ['Handbook › Advanced']],
      // hidden pages are not searched
      ['secret', []],
      ['install rollback', ['Handbook › Deploy']],
      ['?!', []],
    ] as const) {
      assert.deepEqual(found(await search({ query, mode: 'all' })), expected, query);
    }
  });

  test('results: space ids, page paths and ancestors, sections with anchors and excerpts', async () => {
    const results = await search({ query: 'rollback', mode: 'all' });
    assert.equal(results.count, 1);
    const [space] = results.items;
    assert.equal(space?.type, 'space');
    assert.equal(space?.id, englishSpace);
    const [page] = space?.pages ?? [];
    assert.equal(page?.path, 'deploy');
    assert.equal(page?.resultType, 'section');
    assert.deepEqual(
      page?.sections.map((s) => [s.id, s.title, s.path, s.body, s.resultType]),
      [['rollback', 'Rollback', 'deploy#rollback', 'Restore the previous release.', 'section']],
    );
    assert.match(
      page?.sections[0]?.urls.app ?? '',
      new RegExp(`/v1/spaces/${englishSpace}/content/page/${page?.id}#rollback$`),
    );
    // The anchor is the published page's heading id.
    assert.match((await visit(t, '/s/acme/deploy')).body, /<h2 id="rollback"/);
    const cafe = (await search({ query: 'café', mode: 'all' })).items[0]?.pages[0];
    assert.deepEqual(cafe?.ancestors, [{ title: 'Guides' }]);
    assert.equal(cafe?.path, 'guides/advanced');
    assert.equal(cafe?.sections[0]?.path, 'guides/advanced#café-setup');
    assert.match((await visit(t, '/s/acme/guides/advanced')).body, /<h2 id="café-setup"/);
    const german = (await search({ query: 'installation', mode: 'all' })).items[0]?.pages[0];
    assert.equal(german?.sections[0]?.path, 'start#installation');
    assert.match((await visit(t, '/s/acme/de/start')).body, /<h2 id="installation"/);
    // Found by its title: resultType page, and its first section as a preview.
    const title = (await search({ query: 'über', mode: 'all' })).items[0]?.pages[0];
    assert.equal(title?.resultType, 'page');
    assert.deepEqual(
      title?.sections.map((s) => [s.id, s.title, s.body, s.resultType]),
      [[title?.id, '', 'Wir sind Acme. Straße 1.', 'page']],
    );
  });

  test('scopes: all, a variant (current, specific), the default, restricted', async () => {
    const spaces = async (payload: object) =>
      (await search({ query: 'install', ...payload })).items.map((s) => s.title);
    assert.deepEqual(await spaces({ mode: 'all' }), ['Handbook', 'Deutsch']);
    assert.deepEqual(await spaces({ scope: { mode: 'all' } }), ['Handbook', 'Deutsch']);
    assert.deepEqual(await spaces({ mode: 'current', siteSpaceId: german }), ['Deutsch']);
    assert.deepEqual(await spaces({ siteSpaceIds: [german] }), ['Deutsch']);
    assert.deepEqual(await spaces({ mode: 'specific', siteSpaceIds: [english, german] }), [
      'Handbook',
      'Deutsch',
    ]);
    assert.deepEqual(await spaces({ scope: { mode: 'specific', siteSpaceIds: [german] } }), [
      'Deutsch',
    ]);
    assert.deepEqual(await spaces({ scope: { mode: 'default' } }), ['Handbook']);
    const current = { mode: 'default', currentSiteSpace: german };
    assert.deepEqual(await spaces({ scope: current }), ['Deutsch']);
    assert.deepEqual(await spaces({ scope: { ...current, restrictTo: 'currentSiteSpace' } }), [
      'Deutsch',
    ]);
    assert.deepEqual(await spaces({ scope: { ...current, restrictTo: 'otherSiteSpaces' } }), []);
    // GitBook 0.202's own client
    const { api } = await recordingClient(t);
    const answer = await api.orgs.searchSiteContent(t.orgId, base.split('/').at(-1) ?? '', {
      query: 'rollback',
      mode: 'current',
      siteSpaceId: english,
    });
    const [first] = answer.data.items;
    assert.equal(first?.type === 'space' ? first.pages[0]?.title : undefined, 'Deploy');
  });

  test('pagination: limit counts pages, ranks run on, the cursor ends', async () => {
    const all = await search({ query: 'install', mode: 'all' });
    const seen: string[] = [];
    let query = '?limit=1';
    for (let i = 0; i < 10; i++) {
      const page = await search({ query: 'install', mode: 'all' }, query);
      assert.equal(page.count, 4);
      seen.push(...found(page));
      assert.deepEqual(
        page.items.flatMap((s) => s.pages.map((p) => p.rank)),
        [i + 1],
      );
      if (page.next === undefined) break;
      query = `?limit=1&page=${page.next.page}`;
    }
    assert.deepEqual(seen, found(all));
    const two = await search({ query: 'install', mode: 'all' }, '?limit=3');
    assert.equal(two.next === undefined, false);
    assert.deepEqual(found(two), found(all).slice(0, 3));
  });

  test('bad bodies and queries: 400 naming the field', async () => {
    const long = 'x'.repeat(513);
    for (const [payload, field, query] of [
      [{}, 'query'],
      [{ mode: 'all' }, 'query'],
      [{ query: long, mode: 'all' }, 'query'],
      [{ query: '   ', mode: 'all' }, 'body.query'],
      [{ query: 7, mode: 'all' }, 'query'],
      [{ query: 'a', mode: 'everything' }, 'mode'],
      [{ query: 'a', mode: 'all', extra: 1 }, 'extra'],
      [{ query: 'a', siteSpaceIds: [] }, 'siteSpaceIds'],
      [{ query: 'a', siteSpaceIds: ['sitesp_nope'] }, 'body.siteSpaceIds'],
      [{ query: 'a', mode: 'current' }, 'body.siteSpaceId'],
      [{ query: 'a', mode: 'all', scope: { mode: 'all' } }, 'body.mode'],
      [{ query: 'a', scope: { mode: 'specific' } }, 'body.scope.siteSpaceIds'],
      [
        { query: 'a', scope: { mode: 'default', restrictTo: 'currentSiteSpace' } },
        'body.scope.currentSiteSpace',
      ],
      [
        { query: 'a', scope: { mode: 'default', currentSiteSpace: 'nope' } },
        'body.scope.currentSiteSpace',
      ],
      [
        { query: 'a', scope: { mode: 'all', currentSiteSpace: english } },
        'body.scope.currentSiteSpace',
      ],
      [{ query: 'a', mode: 'all' }, 'querystring.page', '?page=bm9wZQ'],
      [{ query: 'a', mode: 'all' }, 'limit', '?limit=0'],
    ] as const) {
      const response = await t.request({
        method: 'POST',
        url: `${base}/search${query ?? ''}`,
        payload: payload as object,
      });
      const message = expectError(response, 400);
      assert.ok(message.includes(field), `${JSON.stringify(payload)}${query ?? ''}: ${message}`);
    }
  });

  test('404: unknown site, another organization, an unpublished site', async () => {
    const payload = { query: 'install', mode: 'all' };
    const post = (url: string, token?: string) =>
      t.request({
        method: 'POST',
        url,
        payload,
        ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
      });
    expectError(await post(`/v1/orgs/${t.orgId}/sites/site_nope/search`), 404);
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other organization',
      ownerName: 'Other',
    });
    expectError(await post(`${base}/search`, other.token), 404);
    const theirs = base.replace(t.orgId, other.organization.id);
    expectError(await post(`${theirs}/search`, other.token), 404);
    expectStatus(await t.request({ method: 'POST', url: `${base}/unpublish` }), 200);
    try {
      assert.match(expectError(await post(`${base}/search`), 404), /not published/);
    } finally {
      expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
    }
  });
});

describe("the published site's search box", () => {
  const box = (query: string, headers: Record<string, string> = {}) =>
    visit(t, `/s/acme/@livery/search${query}`, headers);

  test('answers the variant read, with addresses to the page and the section', async () => {
    const english = await box('?q=rollback');
    assert.equal(english.statusCode, 200);
    // Each result names its page, which site.js reports when it is opened (docs/insights.md).
    const answer = english.json() as { results: { pageId?: string }[] };
    assert.equal(typeof answer.results[0]?.pageId, 'string');
    for (const result of answer.results) delete result.pageId;
    assert.deepEqual(answer, {
      results: [
        {
          title: 'Deploy',
          href: '/s/acme/deploy',
          ancestors: [],
          section: {
            title: 'Rollback',
            body: 'Restore the previous release.',
            href: '/s/acme/deploy#rollback',
          },
        },
      ],
    });
    const inGerman = (await box(`?q=installation&siteSpaceId=${german}`)).json();
    assert.deepEqual(
      inGerman.results.map((r: { href: string }) => r.href),
      ['/s/acme/de/start'],
    );
    assert.equal(inGerman.results[0].section.href, '/s/acme/de/start#installation');
    const cafe = (await box('?q=caf')).json().results[0];
    assert.equal(cafe.section.href, `/s/acme/guides/advanced#${encodeURIComponent('café-setup')}`);
    assert.deepEqual(cafe.ancestors, ['Guides']);
    // German words are not in the English variant; hidden pages are in none.
    assert.deepEqual((await box('?q=installation')).json(), { results: [] });
    assert.deepEqual((await box('?q=secret')).json(), { results: [] });
  });

  test('refusals: a long query, an unknown variant, an unknown or unpublished site', async () => {
    assert.equal((await box(`?q=${'x'.repeat(513)}`)).statusCode, 400);
    assert.equal((await box('')).statusCode, 400);
    assert.match(expectError(await box('?q=a&siteSpaceId=nope'), 404), /siteSpaceId/);
    assert.equal((await visit(t, '/s/nope/@livery/search?q=a')).statusCode, 404);
  });

  test("honours the site's access: a share-link site needs its key's cookie", async () => {
    const site = await publishedSite(t, 'shared-search', { visibility: 'share-link' });
    const created = await t.request({
      method: 'POST',
      url: `${site.base}/share-links`,
      payload: { name: 'Partners' },
    });
    const link = expectStatus(created, 201) as { urls: { published: string } };
    const key = new URL(link.urls.published).searchParams.get('share') ?? '';
    const url = '/s/shared-search/@livery/search?q=welcome';
    assert.equal((await visit(t, url)).statusCode, 404);
    assert.equal((await visit(t, `${url}&share=${key}`)).statusCode, 404, 'no key in the query');
    const arrival = await visit(t, `/s/shared-search?share=${key}`);
    const cookie = `livery_share=${encodeURIComponent(cookieSet(arrival, 'livery_share'))}`;
    const answer = await visit(t, url, { cookie });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(
      answer.json().results.map((r: { title: string }) => r.title),
      ['Intro'],
    );
  });
});
