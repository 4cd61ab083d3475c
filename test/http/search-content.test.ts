/**
 * Searching a space or an organization (docs/search.md, "Searching a space or an organization"):
 * `GET /v1/spaces/{spaceId}/search` (searchSpaceContent) and `GET /v1/orgs/{org}/search`
 * (searchOrganizationContent), on the site search's index, over the spaces' current revisions
 * whether a site publishes them or not; and what they refuse.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Static } from 'typebox';
import type {
  SearchPageResultSchema,
  SearchResultsSchema,
} from '../../src/modules/search/schemas.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { newSpace, publishChanges } from '../helpers/insights.js';

let t: TestContext;
let handbook: string;
let recipes: string;
let stranger: { token: string; spaceId: string; orgId: string };

type PageJson = Static<typeof SearchPageResultSchema>;
type SpaceList = Static<typeof SearchResultsSchema>;
type PageList = { items: PageJson[]; next?: { page: string }; count: number };

before(async () => {
  t = await createTestApp();
  handbook = await newSpace(t, 'Handbook');
  await publishChanges(t, handbook, [
    {
      operation: 'insert_page',
      title: 'Install',
      document: { markdown: 'Install Acme.\n\n## Upgrade\n\nInstall the new release.' },
    },
    {
      operation: 'insert_page',
      title: 'Usage',
      document: { markdown: 'After the install, run it.' },
    },
    {
      operation: 'insert_page',
      title: 'Secret',
      hidden: true,
      document: { markdown: 'install secret' },
    },
  ]);
  recipes = await newSpace(t, 'Recipes');
  await publishChanges(t, recipes, [
    {
      operation: 'insert_page',
      title: 'Soup',
      document: { markdown: 'Install the pot on the stove. Soup needs time.' },
    },
  ]);
  // Another organization, with a space saying the same words.
  const other = await t.services.identity.createOrganizationWithOwner({
    title: 'Elsewhere',
    ownerName: 'Stranger',
  });
  const made = await t.request({
    method: 'POST',
    url: `/v1/orgs/${other.organization.id}/spaces`,
    payload: { title: 'Theirs' },
    headers: { authorization: `Bearer ${other.token}` },
  });
  stranger = {
    token: other.token,
    orgId: other.organization.id,
    spaceId: expectStatus(made, 201).id as string,
  };
});
after(async () => t.close());

const get = (url: string) => t.request({ method: 'GET', url });
const spaceSearch = async (spaceId: string, query: string) =>
  expectStatus(await get(`/v1/spaces/${spaceId}/search?${query}`), 200) as unknown as PageList;
const orgSearch = async (query: string) =>
  expectStatus(await get(`/v1/orgs/${t.orgId}/search?${query}`), 200) as unknown as SpaceList;

describe('searchSpaceContent', () => {
  test("the space's current revision, unpublished, one ranked list; hidden pages left out", async () => {
    const found = await spaceSearch(handbook, 'query=install');
    assert.equal(found.count, 2);
    assert.equal(found.next, undefined);
    assert.deepEqual(
      found.items.map((p) => [p.rank, p.title, p.path, p.resultType]),
      [
        [1, 'Install', 'install', 'page'],
        [2, 'Usage', 'usage', 'section'],
      ],
    );
    const [install] = found.items;
    assert.match(install?.urls.app ?? '', new RegExp(`/v1/spaces/${handbook}/content/page/`));
    assert.deepEqual(
      (await spaceSearch(handbook, 'query=upgrade')).items[0]?.sections?.map((s) => [
        s.id,
        s.path,
        s.body,
      ]),
      [['upgrade', 'install#upgrade', 'Install the new release.']],
    );
    assert.equal((await spaceSearch(handbook, 'query=secret')).count, 0);
    // Only this space: the other space's "install" is not here.
    assert.equal((await spaceSearch(recipes, 'query=install')).items[0]?.title, 'Soup');
  });

  test('a merge is searched at once (the live content), without publishing', async () => {
    const space = await newSpace(t, 'Drafts');
    assert.equal((await spaceSearch(space, 'query=zeppelin')).count, 0);
    await publishChanges(t, space, [
      { operation: 'insert_page', title: 'Airships', document: { markdown: 'A zeppelin.' } },
    ]);
    assert.deepEqual(
      (await spaceSearch(space, 'query=zeppelin')).items.map((p) => p.title),
      ['Airships'],
    );
  });

  test('pagination: limit counts pages, next.page continues the ranking', async () => {
    const first = await spaceSearch(handbook, 'query=install&limit=1');
    assert.deepEqual([first.count, first.items.map((p) => p.rank)], [2, [1]]);
    const cursor = first.next?.page;
    assert.equal(typeof cursor, 'string');
    const second = await spaceSearch(handbook, `query=install&limit=1&page=${cursor}`);
    assert.deepEqual(
      [second.items.map((p) => [p.rank, p.title]), second.next],
      [[[2, 'Usage']], undefined],
    );
  });

  test('bad inputs: field-named 400s; another organization\u2019s space and an unknown one: 404', async () => {
    const url = `/v1/spaces/${handbook}/search`;
    for (const [query, field] of [
      ['', 'query'],
      ['?query=', 'query'],
      ['?query=%20%20', 'query'],
      [`?query=${'a'.repeat(513)}`, 'query'],
      ['?query=install&limit=0', 'limit'],
      ['?query=install&limit=1001', 'limit'],
      ['?query=install&limit=two', 'limit'],
      ['?query=install&page=bm9wZQ', 'page'],
    ] as const) {
      assert.match(expectError(await get(`${url}${query}`), 400), new RegExp(field), query);
    }
    expectError(await get(`/v1/spaces/${stranger.spaceId}/search?query=install`), 404);
    expectError(await get('/v1/spaces/space_nope/search?query=install'), 404);
    // The stranger cannot search this organization's space either.
    const theirs = await t.request({
      method: 'GET',
      url: `${url}?query=install`,
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expectError(theirs, 404);
  });
});

describe('searchOrganizationContent', () => {
  test('every space of the organization, ranked across them, grouped by space', async () => {
    // Soup and Usage tie (a word once in their text): reading order, then the spaces' order.
    const found = await orgSearch('query=install');
    assert.equal(found.count, 3);
    assert.deepEqual(
      found.items.map((s) => [s.type, s.id, s.title, s.pages.map((p) => [p.rank, p.title])]),
      [
        [
          'space',
          handbook,
          'Handbook',
          [
            [1, 'Install'],
            [3, 'Usage'],
          ],
        ],
        ['space', recipes, 'Recipes', [[2, 'Soup']]],
      ],
    );
    assert.equal(found.items[0]?.score, found.items[0]?.pages[0]?.score);
    // The other organization's space is not searched.
    assert.equal((await orgSearch('query=theirs')).count, 0);
  });

  test('pagination across spaces keeps the ranks', async () => {
    const first = await orgSearch('query=install&limit=2');
    assert.equal(first.count, 3);
    const next = first.next?.page ?? '';
    const second = await orgSearch(`query=install&limit=2&page=${next}`);
    assert.deepEqual(
      second.items.map((s) => [s.title, s.pages.map((p) => p.rank)]),
      [['Handbook', [3]]],
    );
    assert.equal(second.next, undefined);
  });

  test('bad inputs: field-named 400s; another organization: 404', async () => {
    const url = `/v1/orgs/${t.orgId}/search`;
    for (const [query, field] of [
      ['', 'query'],
      ['?query=%09', 'query'],
      [`?query=${'b'.repeat(513)}`, 'query'],
      ['?query=x&limit=0', 'limit'],
      ['?query=x&page=%2F%2F', 'page'],
    ] as const) {
      assert.match(expectError(await get(`${url}${query}`), 400), new RegExp(field), query);
    }
    expectError(await get(`/v1/orgs/${stranger.orgId}/search?query=install`), 404);
    expectError(await get('/v1/orgs/org_nope/search?query=install'), 404);
  });
});
