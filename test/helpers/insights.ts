import assert from 'node:assert/strict';
import * as runtime from 'gitbook-api-091';
import type * as Client from '../../node_modules/gitbook-api-091/dist/client.js';
import type { GitBookAPIError as GitBookAPIErrorType } from '../../node_modules/gitbook-api-091/dist/GitBookAPIError.js';
import { expectStatus, type TestContext } from './app.js';

/**
 * The official client of GitBook 0.91 (the version with content insights), installed as the
 * alias `gitbook-api-091`, typed. Its declaration files import `./client` without an extension,
 * which NodeNext resolution cannot follow, so they are imported by path (as test/helpers/gitbook.ts
 * does for 0.130). Runtime values are the package's, untouched.
 */
export type GitBookClient091 = Client.Api<{ authToken?: string }>;
export type GitBookAPIError091 = GitBookAPIErrorType;

const pkg = runtime as unknown as typeof Client & {
  GitBookAPI: new (options: { authToken?: string; endpoint?: string }) => GitBookClient091;
  GitBookAPIError: new (...args: never[]) => GitBookAPIErrorType;
};

export const { GitBookAPI, GitBookAPIError, PageFeedbackRating, AnalyticsSearchPeriod } = pkg;

/** Makes the app listen on a free loopback port (once) and answers a 0.91 client pointed at it. */
export async function listenWith091(t: TestContext, token = t.token): Promise<GitBookClient091> {
  if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return new GitBookAPI({ authToken: token, endpoint: `http://127.0.0.1:${address.port}` });
}

/** The GitBookAPIError (0.91) a call through the client must fail with. */
export async function clientFailure091(promise: Promise<unknown>): Promise<GitBookAPIErrorType> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GitBookAPIError, String(error));
    return error;
  }
  assert.fail('expected the client to throw GitBookAPIError');
}

/** A page of `GET …/content/pages` (RevisionPage), the fields the tests read. */
export interface ListedPage {
  id: string;
  title: string;
  type: 'document' | 'group' | 'link';
  path?: string;
  pages?: ListedPage[];
  [field: string]: unknown;
}

/** A new space of the test organization, through the API; its id. */
export async function newSpace(t: TestContext, title = 'Space'): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/spaces`,
    payload: { title },
  });
  return expectStatus(response, 201).id as string;
}

/**
 * Applies `changes` to the space the way a writer does: a change request, its content, a merge.
 * Answers the space's page tree afterwards (GET …/content/pages).
 */
export async function publishChanges(
  t: TestContext,
  spaceId: string,
  changes: Record<string, unknown>[],
): Promise<ListedPage[]> {
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const cr = expectStatus(await t.request({ method: 'POST', url: base, payload: {} }), 201);
  const id = cr.id as string;
  expectStatus(
    await t.request({ method: 'POST', url: `${base}/${id}/content`, payload: { changes } }),
    200,
  );
  const merged = expectStatus(await t.request({ method: 'POST', url: `${base}/${id}/merge` }), 200);
  assert.equal(merged.result, 'merge');
  return pagesOf(t, spaceId);
}

export async function pagesOf(t: TestContext, spaceId: string): Promise<ListedPage[]> {
  const response = await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/content/pages` });
  return (expectStatus(response, 200) as { pages: ListedPage[] }).pages;
}

/** Every page of a tree, depth first (reading order). */
export function flatten(pages: readonly ListedPage[]): ListedPage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

/** The page of the tree with that title (asserted to exist once). */
export function byTitle(pages: readonly ListedPage[], title: string): ListedPage {
  const found = flatten(pages).filter((page) => page.title === title);
  assert.equal(found.length, 1, `one page titled ${title}`);
  return found[0] as ListedPage;
}

/**
 * A space with a mixed tree (two rounds: children need their parents' ids):
 * Intro (document) › Child (document); Guides (group) › Install (document), Elsewhere (link);
 * External (link, top level); Last (document). Reading order of documents: Intro, Child,
 * Install, Last.
 */
export async function spaceWithTree(t: TestContext, title = 'Insights space') {
  const spaceId = await newSpace(t, title);
  const first = await publishChanges(t, spaceId, [
    { operation: 'insert_page', title: 'Intro', document: { markdown: 'Welcome' } },
    { operation: 'insert_page', title: 'Guides', type: 'group' },
    {
      operation: 'insert_page',
      title: 'External',
      type: 'link',
      target: { kind: 'url', url: 'https://example.test' },
    },
    { operation: 'insert_page', title: 'Last', document: { markdown: 'The end' } },
  ]);
  const intro = byTitle(first, 'Intro').id;
  const guides = byTitle(first, 'Guides').id;
  const pages = await publishChanges(t, spaceId, [
    { operation: 'insert_page', title: 'Child', into: intro, document: { markdown: 'Child' } },
    { operation: 'insert_page', title: 'Install', into: guides, document: { markdown: 'npm i' } },
    {
      operation: 'insert_page',
      title: 'Elsewhere',
      type: 'link',
      into: guides,
      target: { kind: 'page', page: intro },
    },
  ]);
  const id = (name: string) => byTitle(pages, name).id;
  return {
    spaceId,
    pages,
    intro: id('Intro'),
    child: id('Child'),
    guides: id('Guides'),
    install: id('Install'),
    elsewhere: id('Elsewhere'),
    external: id('External'),
    last: id('Last'),
  };
}
