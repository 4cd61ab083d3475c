import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { expectStatus, type TestContext } from './app.js';
import { byTitle, newSpace, publishChanges, spaceWithTree } from './insights.js';
import { type RawResponse, rawRequest } from './raw-http.js';

/**
 * Published-site fixtures through the API (docs/published-site.md): a site whose default variant
 * shows test/helpers/insights.ts's tree (Intro › Child, Guides (group) › Install + Elsewhere,
 * External, Last) and, optionally, a second variant at `/de/` with a non-ASCII slug.
 */
export interface PublishedSite {
  siteId: string;
  /** `/v1/orgs/{org}/sites/{site}` */
  base: string;
  /** `/s/{basename}` */
  address: string;
  basename: string;
  /** Site-space ids, the default one first. */
  siteSpaceIds: string[];
  /** The default variant's site-space path (it redirects to the root). */
  defaultPath: string;
  tree: Awaited<ReturnType<typeof spaceWithTree>>;
  /** The second variant (at `/de/`), when asked for. */
  second?: { siteSpaceId: string; spaceId: string; start: string; uber: string };
}

export interface PublishedOptions {
  visibility?: 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
  /** Default true. */
  publish?: boolean;
  /** Adds a second variant at path `de` with pages Start and Über uns (slug `über-uns`). */
  second?: boolean;
}

export async function publishedSite(
  t: TestContext,
  basename: string,
  options: PublishedOptions = {},
): Promise<PublishedSite> {
  const tree = await spaceWithTree(t, 'Handbook');
  const spaces = [tree.spaceId];
  let secondSpace: { spaceId: string; start: string; uber: string } | undefined;
  if (options.second === true) {
    const spaceId = await newSpace(t, 'Deutsch');
    const pages = await publishChanges(t, spaceId, [
      { operation: 'insert_page', title: 'Start', document: { markdown: 'Willkommen' } },
      {
        operation: 'insert_page',
        title: 'Über uns',
        slug: 'über-uns',
        document: { markdown: 'Wir sind Acme' },
      },
    ]);
    secondSpace = {
      spaceId,
      start: byTitle(pages, 'Start').id,
      uber: byTitle(pages, 'Über uns').id,
    };
    spaces.push(spaceId);
  }
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Docs', spaces },
  });
  const siteId = expectStatus(created, 201).id as string;
  const base = `/v1/orgs/${t.orgId}/sites/${siteId}`;
  const patch = { basename, visibility: options.visibility ?? 'public' };
  expectStatus(await t.request({ method: 'PATCH', url: base, payload: patch }), 200);
  if (options.publish !== false) {
    expectStatus(await t.request({ method: 'POST', url: `${base}/publish` }), 200);
  }
  const listed = await t.request({ method: 'GET', url: `${base}/site-spaces` });
  const items = expectStatus(listed, 200).items as { id: string; path: string; default: boolean }[];
  const defaultVariant = items.find((item) => item.default);
  assert.ok(defaultVariant);
  const others = items.filter((item) => !item.default);
  const fixture: PublishedSite = {
    siteId,
    base,
    address: `/s/${basename}`,
    basename,
    siteSpaceIds: [defaultVariant.id, ...others.map((item) => item.id)],
    defaultPath: defaultVariant.path,
    tree,
  };
  const other = others[0];
  if (secondSpace !== undefined && other !== undefined) {
    const url = `${base}/site-spaces/${other.id}`;
    expectStatus(await t.request({ method: 'PATCH', url, payload: { path: 'de' } }), 200);
    fixture.second = { siteSpaceId: other.id, ...secondSpace };
  }
  return fixture;
}

/** A visitor's GET: no API token, only the cookies and headers given. */
export function visit(
  t: TestContext,
  url: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers });
}

/** A visitor's GET over a real connection, the path sent exactly as written (raw-http.ts). */
export function rawVisit(t: TestContext, path: string): Promise<RawResponse> {
  return rawRequest(t.app, path);
}

/** A visitor's POST of JSON to the site's own endpoints (feedback, view). */
export function visitorPost(
  t: TestContext,
  url: string,
  payload: object,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, payload, headers });
}

/** PUT of the site's customization (fields not given take their defaults). */
export async function customize(t: TestContext, site: PublishedSite, settings: object) {
  const url = `${site.base}/customization`;
  expectStatus(await t.request({ method: 'PUT', url, payload: settings }), 200);
}

/** Every Set-Cookie value of a response. */
export function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

/** The value a response sets for cookie `name` (asserted to be set). */
export function cookieSet(response: LightMyRequestResponse, name: string): string {
  const found = setCookies(response).find((cookie) => cookie.startsWith(`${name}=`));
  assert.ok(found, `Set-Cookie ${name} in ${JSON.stringify(setCookies(response))}`);
  return decodeURIComponent(found.slice(name.length + 1).split(';', 1)[0] ?? '');
}

/** The plain 404 of an address that names nothing a visitor may see. */
export function assertPlain404(
  response: { statusCode: number; headers: Record<string, unknown>; body: string },
  what: string,
) {
  assert.equal(response.statusCode, 404, `${what}: ${response.body.slice(0, 200)}`);
  assert.match(String(response.headers['content-type']), /^text\/html/, what);
  assert.match(response.body, /<h1>Not found<\/h1>/, what);
  assert.doesNotMatch(response.body, /site-header|Handbook|sidebar/, `${what} says nothing`);
}
