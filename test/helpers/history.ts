import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import type { RevisionSchema } from '../../src/modules/customization/history-schemas.js';
import { call } from './load.js';
import type { ServerProcess } from './process.js';

/** One customization revision as GET …/revisions/{n} answers it. */
export type Revision = Static<typeof RevisionSchema>;

/**
 * Every item of a Livery list, page after page, asserting that each page gives the same
 * `count`. `path` may carry a query already.
 */
export async function listAll(
  base: string,
  token: string,
  path: string,
  limit = 40,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const counts = new Set<unknown>();
  const join = path.includes('?') ? '&' : '?';
  let page: string | undefined;
  for (;;) {
    const cursor = page === undefined ? '' : `&page=${encodeURIComponent(page)}`;
    const reply = await call(base, token, 'GET', `${path}${join}limit=${limit}${cursor}`);
    assert.equal(reply.status, 200, `GET ${path}: ${JSON.stringify(reply.body)}`);
    items.push(...(reply.body.items as Record<string, unknown>[]));
    if (reply.body.count !== undefined) counts.add(reply.body.count);
    page = (reply.body.next as { page: string } | undefined)?.page;
    if (page === undefined) break;
  }
  assert.ok(counts.size <= 1, `${path}: every page gives the same count (${[...counts]})`);
  const [count] = counts;
  if (count !== undefined) assert.equal(count, items.length, `${path}: count is the items'`);
  return items;
}

/** Runs `tasks` with at most `width` of them at a time, in order of their results. */
async function inBatches<T>(tasks: (() => Promise<T>)[], width = 25): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += width) {
    results.push(...(await Promise.all(tasks.slice(i, i + width).map((task) => task()))));
  }
  return results;
}

/**
 * The history of one customization (a site's `…/customization` or a variant's), checked for what
 * must hold whatever the writers did: numbered exactly 1..N newest first over all pages, one
 * distinct ETag per revision, the current state (GET, and its ETag) that of revision N, and the
 * organization's `customization.*` audit entries for `target` exactly one per revision, naming
 * its number and operation. Answers the revisions with their documents, oldest first.
 */
export async function checkedHistory(
  base: string,
  token: string,
  orgId: string,
  customization: string,
  target: string,
): Promise<Revision[]> {
  const summaries = await listAll(base, token, `${customization}/revisions`);
  const numbers = summaries.map((item) => item.number as number);
  const n = numbers.length;
  assert.deepEqual(
    numbers,
    Array.from({ length: n }, (_, i) => n - i),
    `${customization}: revisions ${n}..1, newest first, none missing or twice`,
  );
  const revisions = await inBatches(
    [...numbers].reverse().map((number) => async () => {
      const reply = await call(base, token, 'GET', `${customization}/revisions/${number}`);
      assert.equal(reply.status, 200, `revision ${number}`);
      return reply.body as unknown as Revision;
    }),
  );
  const etags = new Set(revisions.map((revision) => revision.etag));
  assert.equal(etags.size, n, `${customization}: every revision has its own ETag`);

  const current = await call(base, token, 'GET', customization);
  assert.equal(current.status, 200);
  const latest = revisions.at(-1);
  if (latest !== undefined) {
    const variant = customization.includes('/site-spaces/');
    assert.deepEqual(current.body, variant ? latest.effective : latest.settings, 'GET is N');
    assert.equal(current.etag, latest.etag, 'the current ETag is that of revision N');
  }

  const audit = await listAll(
    base,
    token,
    `/v1/orgs/${orgId}/audit-log?action=customization.*&target=${target}`,
  );
  const recorded = audit
    .map((entry) => {
      const details = entry.details as { revision: number; operation?: string };
      const operation = entry.action === 'customization.restored' ? 'restore' : details.operation;
      return [details.revision, operation] as const;
    })
    .sort((x, y) => x[0] - y[0]);
  assert.deepEqual(
    recorded,
    revisions.map((revision) => [revision.number, revision.operation]),
    `${target}: one audit entry per revision, none for anything else`,
  );
  return revisions;
}

/** The titles of revisions' documents, each with the revision that holds it. */
export function byTitle(revisions: Revision[]): Map<string, Revision> {
  const titles = new Map<string, Revision>();
  for (const revision of revisions) {
    const title = revision.settings?.title;
    if (typeof title !== 'string') continue;
    assert.equal(titles.has(title), false, `title ${title} in one revision only`);
    titles.set(title, revision);
  }
  return titles;
}

/** A site with `variants` empty spaces, and its customization paths. */
export async function newSite(
  server: ServerProcess,
  token: string,
  orgId: string,
  variants: number,
) {
  const spaceIds: string[] = [];
  for (let i = 0; i < variants; i++) {
    const space = await call(server.url, token, 'POST', `/v1/orgs/${orgId}/spaces`, {
      title: `Variant ${i}`,
    });
    assert.equal(space.status, 201);
    spaceIds.push(space.body.id as string);
  }
  const site = await call(server.url, token, 'POST', `/v1/orgs/${orgId}/sites`, {
    title: 'Docs',
    spaces: spaceIds,
  });
  assert.equal(site.status, 201);
  const siteId = site.body.id as string;
  const base = `/v1/orgs/${orgId}/sites/${siteId}`;
  const list = await call(server.url, token, 'GET', `${base}/site-spaces`);
  const siteSpaceIds = (list.body.items as { id: string }[]).map((item) => item.id);
  return {
    siteId,
    siteSpaceIds,
    site: `${base}/customization`,
    variant: (i = 0) => `${base}/site-spaces/${siteSpaceIds[i]}/customization`,
  };
}
