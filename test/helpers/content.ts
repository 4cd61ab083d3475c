import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import * as runtime0202 from 'gitbook-api-0202';
import type { Static } from 'typebox';
import type * as Client0202 from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { GitBookAPIError as Error0202 } from '../../node_modules/gitbook-api-0202/dist/GitBookAPIError.js';
import type { ChangeRequestSchema, RevisionSchema } from '../../src/modules/content/schemas.js';
import { expectStatus, type TestContext } from './app.js';

/**
 * Content fixtures through the HTTP API (docs/content.md): spaces, change requests, change lists
 * and merges, the way a GitBook integration builds content. Plus the 0.202 official client, which
 * has the content-editing operations 0.130 lacks.
 */

/** GitBook's RevisionPage as Livery answers it (document, group or link). */
export interface PageBody {
  id: string;
  title: string;
  type: 'document' | 'group' | 'link';
  kind: string;
  slug?: string;
  path?: string;
  pages?: PageBody[];
  urls?: { app: string };
  layout?: Record<string, unknown>;
  documentId?: string;
  markdown?: string;
  document?: { object: string; nodes: { object: string; type?: string }[] };
  target?: { kind: string; url?: string; page?: string };
  href?: string;
  [key: string]: unknown;
}

export type ChangeRequestBody = Static<typeof ChangeRequestSchema>;

/** GitBook's Revision as Livery answers it, its pages read as PageBody. */
export type RevisionBody = Omit<Static<typeof RevisionSchema>, 'pages'> & { pages: PageBody[] };

/** One entry of a change list (GitBook 0.202's ChangeRequestContentChange plus Livery's type/target). */
export type Change = Record<string, unknown> & {
  operation: 'insert_page' | 'update_page' | 'delete_page';
};

export const spaceUrl = (spaceId: string) => `/v1/spaces/${spaceId}`;
export const crUrl = (spaceId: string, cr: string | number) =>
  `/v1/spaces/${spaceId}/change-requests/${cr}`;

/** A new space of the test organization: its id and its `revision`. */
export async function newSpace(
  t: TestContext,
  title = 'Docs',
): Promise<{ id: string; revision: string }> {
  const body = expectStatus(
    await t.request({ method: 'POST', url: `/v1/orgs/${t.orgId}/spaces`, payload: { title } }),
    201,
  );
  assert.equal(typeof body.id, 'string');
  assert.equal(typeof body.revision, 'string');
  return { id: body.id as string, revision: body.revision as string };
}

export async function openChangeRequest(
  t: TestContext,
  spaceId: string,
  subject = 'Edits',
): Promise<ChangeRequestBody> {
  return expectStatus(
    await t.request({
      method: 'POST',
      url: `${spaceUrl(spaceId)}/change-requests`,
      payload: { subject },
    }),
    201,
  ) as ChangeRequestBody;
}

/** Applies a change list to the change request (200) and answers the updated change request. */
export async function applyChanges(
  t: TestContext,
  spaceId: string,
  cr: string,
  changes: Change[],
): Promise<ChangeRequestBody> {
  return expectStatus(
    await t.request({
      method: 'POST',
      url: `${crUrl(spaceId, cr)}/content`,
      payload: { changes },
    }),
    200,
  ) as ChangeRequestBody;
}

/** Every page of a tree, depth first in reading order. */
export function flatten(pages: PageBody[]): PageBody[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

export async function changeRequestPages(
  t: TestContext,
  spaceId: string,
  cr: string,
): Promise<PageBody[]> {
  const body = expectStatus(
    await t.request({ method: 'GET', url: `${crUrl(spaceId, cr)}/content/pages` }),
    200,
  ) as { pages: PageBody[] };
  return body.pages;
}

/** The space's current page tree (GET …/content/pages). */
export async function spacePages(t: TestContext, spaceId: string): Promise<PageBody[]> {
  const body = expectStatus(
    await t.request({ method: 'GET', url: `${spaceUrl(spaceId)}/content/pages` }),
    200,
  ) as { pages: PageBody[] };
  return body.pages;
}

/** Inserts one page (a single-change list) and answers the new page's id. */
export async function insertPage(
  t: TestContext,
  spaceId: string,
  cr: string,
  change: Record<string, unknown>,
): Promise<string> {
  const before = new Set(flatten(await changeRequestPages(t, spaceId, cr)).map((p) => p.id));
  await applyChanges(t, spaceId, cr, [{ operation: 'insert_page', ...change }]);
  const added = flatten(await changeRequestPages(t, spaceId, cr)).filter((p) => !before.has(p.id));
  assert.equal(added.length, 1, 'one insert_page adds one page');
  return (added[0] as PageBody).id;
}

export async function mergeChangeRequest(
  t: TestContext,
  spaceId: string,
  cr: string,
): Promise<{ revision: string; result: string }> {
  return expectStatus(
    await t.request({ method: 'POST', url: `${crUrl(spaceId, cr)}/merge` }),
    200,
  ) as { revision: string; result: string };
}

/** A document insert with a Markdown body opening with its title as a heading. */
export const doc = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  document: { markdown: `# ${title}\n\nAbout ${title}.\n` },
  ...extra,
});

/** The official client 0.202 (aliased `gitbook-api-0202`), typed like test/helpers/gitbook.ts. */
export type GitBookClient0202 = Client0202.Api<{ authToken?: string }>;
export type ContentChange0202 = Client0202.ChangeRequestContentChange;

type GitBookAPIError0202 = InstanceType<typeof Error0202>;

const pkg0202 = runtime0202 as unknown as {
  GitBookAPI: new (options: { authToken?: string; endpoint?: string }) => GitBookClient0202;
  GitBookAPIError: typeof Error0202;
};

/** A 0.202 client for an endpoint `listenWithClient` answered, with the owner's token. */
export function client0202(t: TestContext, endpoint: string): GitBookClient0202 {
  return new pkg0202.GitBookAPI({ authToken: t.token, endpoint });
}

/**
 * A GET sent byte for byte over a socket, as curl sends it: the path's non-ASCII characters go
 * as raw UTF-8, which neither `app.inject` (it percent-encodes through URL) nor node:http (it
 * refuses unescaped characters) can send. The app must be listening.
 */
export async function rawGet(
  t: TestContext,
  path: string,
): Promise<{ status: number; body: string }> {
  const address = t.app.server.address();
  assert.ok(address !== null && typeof address === 'object', 'the app is listening');
  const socket = connect(address.port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = once(socket, 'close');
  // write, not end: the server closes the connection after answering (Connection: close).
  socket.write(
    Buffer.from(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${t.token}\r\nConnection: close\r\n\r\n`,
      'utf8',
    ),
  );
  await closed;
  const response = Buffer.concat(chunks).toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
  const head = response.indexOf('\r\n\r\n');
  const headers = response.slice(0, head).toLowerCase();
  let body = response.slice(head + 4);
  if (headers.includes('transfer-encoding: chunked')) body = unchunk(body);
  return { status, body };
}

function unchunk(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    const size = Number.parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(out).toString('utf8');
}

/** The GitBookAPIError (0.202's own class) a call through the 0.202 client must fail with. */
export async function clientFailure0202(promise: Promise<unknown>): Promise<GitBookAPIError0202> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof pkg0202.GitBookAPIError, String(error));
    return error;
  }
  assert.fail('expected the 0.202 client to throw GitBookAPIError');
}
