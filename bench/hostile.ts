import { Worker } from 'node:worker_threads';
import { HOSTILE_LIMITS, HOSTILE_PAGES, LONG_PAGES } from '../test/helpers/hostile-pages.js';
import { apiCall } from './lib.js';

/**
 * The hostile pages of issue 25, in a published site of their own, and what serving each costs
 * the rest of the server: while a page is requested (its first view, nothing cached), a prober
 * (a thread of its own) sends `GET /healthz` one after another, and the server's event-loop lag is read from
 * /metrics (prom-client's `nodejs_eventloop_lag_max_seconds`, reset at each scrape). The
 * longest /healthz wait and the longest lag are the longest the request thread stood still.
 * The same is measured while an ordinary page is requested, as the baseline of the same run.
 * Used by `npm run bench:stall` and `npm run bench:published`.
 */

/** The server's settings: the hostile pages are past the default limits. */
export const HOSTILE_ENV = HOSTILE_LIMITS;

const PAGES: Record<string, string> = {
  ordinary: `# Ordinary\n\n${'A paragraph of **ordinary** text with a [link](https://example.com).\n\n'.repeat(40)}`,
  ...HOSTILE_PAGES,
};

export interface HostileSite {
  /** `/s/hostile/` */
  root: string;
  orgId: string;
  spaceId: string;
  revision: string;
  /** Page ids by name. */
  ids: Record<string, string>;
}

/** The site, one page a change list (each near the largest body a list may have). */
export async function seedHostile(base: string): Promise<HostileSite> {
  const orgs = await apiCall(base, 'GET', '/v1/orgs');
  const org = String((orgs.items as { id: string }[])[0]?.id);
  const space = String(
    (await apiCall(base, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Hostile' })).id,
  );
  const changes = Object.entries(PAGES).map(([title, markdown]) => ({ title, markdown }));
  for (const [i, markdown] of LONG_PAGES.entries())
    changes.push({ title: `strasse-${i}`, markdown });
  for (const { title, markdown } of changes) {
    const crBase = `/v1/spaces/${space}/change-requests`;
    const cr = String((await apiCall(base, 'POST', crBase, {})).id);
    const change = { operation: 'insert_page', title, slug: title, document: { markdown } };
    await apiCall(base, 'POST', `${crBase}/${cr}/content`, { changes: [change] });
    await apiCall(base, 'POST', `${crBase}/${cr}/merge`, {});
  }
  const site = String(
    (await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, { title: 'Hostile', spaces: [space] }))
      .id,
  );
  await apiCall(base, 'PATCH', `/v1/orgs/${org}/sites/${site}`, { basename: 'hostile' });
  await apiCall(base, 'POST', `/v1/orgs/${org}/sites/${site}/publish`);
  const current = await apiCall(base, 'GET', `/v1/spaces/${space}/content`);
  const ids: Record<string, string> = {};
  for (const page of current.pages as { id: string; slug: string }[]) ids[page.slug] = page.id;
  return { root: '/s/hostile/', orgId: org, spaceId: space, revision: String(current.id), ids };
}

export interface Stall {
  name: string;
  status: number;
  /** How long the request took, ms. */
  took: number;
  /** The longest a /healthz sent meanwhile waited for its answer, ms. */
  healthz: number;
  /** The longest event-loop lag the server measured meanwhile, ms (10 ms resolution). */
  lag: number;
}

/** Every case: the page's first view, its document, and six concurrent search-box queries. */
export async function measureStalls(
  base: string,
  site: HostileSite,
  auth: string,
): Promise<Stall[]> {
  const page = (name: string) => () => fetch(`${base}${site.root}${name}`);
  const documentOf = (name: string) => () =>
    fetch(
      `${base}/v1/spaces/${site.spaceId}/revisions/${site.revision}/page/${site.ids[name]}/document`,
      {
        headers: { authorization: auth },
      },
    );
  const search = () =>
    Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fetch(`${base}${site.root}@livery/search?q=zielwort${i === 0 ? '' : `+m%C3%A4dchen${i}`}`),
      ),
    ).then((answers) => answers.find((a) => !a.ok) ?? (answers[0] as Response));
  // The same six queries through the API's space and organization search (searchSpaceContent,
  // searchOrganizationContent): the index the site search built, the organization's other
  // spaces (none here but this one) added to the ranking.
  const apiSearch = (path: string) => () =>
    Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fetch(`${base}${path}?query=zielwort${i === 0 ? '' : `+m%C3%A4dchen${i}`}`, {
          headers: { authorization: auth },
        }),
      ),
    ).then((answers) => answers.find((a) => !a.ok) ?? (answers[0] as Response));
  const cases: [string, () => Promise<Response>][] = [
    ['ordinary page (baseline)', page('ordinary')],
    ['ordinary page, cached', page('ordinary')],
    ['emphasis 480 KB: page', page('emphasis')],
    ['emphasis 480 KB: document', documentOf('emphasis')],
    ['241 languages: page', page('languages')],
    ['80,000-row table: page', page('table')],
    ['80,000-row table: document', documentOf('table')],
    ['120,000 headings: page', page('headings')],
    ['120,000 headings: document', documentOf('headings')],
    ['2,500 code blocks: page', page('code-blocks')],
    ['search: 6 queries over 12 long pages', search],
    ['searchSpaceContent: the same 6 queries', apiSearch(`/v1/spaces/${site.spaceId}/search`)],
    ['searchOrganizationContent: the same 6', apiSearch(`/v1/orgs/${site.orgId}/search`)],
  ];
  const stalls: Stall[] = [];
  for (const [name, request] of cases) stalls.push(await measured(base, name, request));
  return stalls;
}

/**
 * The prober: a thread of its own, so that it measures the server and not this process, which
 * meanwhile receives the answer being measured (tens of MB for a document).
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
let busy = true;
let longest = 0;
parentPort.on('message', () => { busy = false; });
(async () => {
  // The first fetch of a thread loads its HTTP client: not counted.
  await (await fetch(workerData + '/healthz')).arrayBuffer();
  parentPort.postMessage('ready');
  while (busy) {
    const start = performance.now();
    await (await fetch(workerData + '/healthz')).arrayBuffer();
    longest = Math.max(longest, performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  parentPort.postMessage(longest);
})();
`;

async function measured(
  base: string,
  name: string,
  request: () => Promise<Response>,
): Promise<Stall> {
  await lagSinceLastScrape(base); // resets the server's histogram
  const prober = new Worker(PROBER, { eval: true, workerData: base });
  const next = () => new Promise<unknown>((resolve) => prober.once('message', resolve));
  await next(); // ready
  const probed = next() as Promise<number>;
  const start = performance.now();
  const response = await request();
  await response.arrayBuffer();
  const took = performance.now() - start;
  prober.postMessage('stop');
  const healthz = await probed;
  await prober.terminate();
  const lag = await lagSinceLastScrape(base);
  return { name, status: response.status, took, healthz, lag };
}

async function lagSinceLastScrape(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return 1000 * Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? Number.NaN);
}

/** The report: a table a backend, the longest stall of the hostile cases against the baseline's. */
export function stallReport(backend: string, stalls: Stall[]): string {
  const rows = stalls.map(
    (s) =>
      `| ${s.name} | ${s.status} | ${s.took.toFixed(0)} | ${s.healthz.toFixed(1)} | ${s.lag.toFixed(1)} |`,
  );
  const hostile = stalls.slice(2);
  const worst = Math.max(...hostile.map((s) => Math.max(s.healthz, s.lag)));
  const baseline = Math.max(stalls[0]?.healthz ?? 0, stalls[0]?.lag ?? 0);
  const failed = stalls.filter((s) => s.status !== 200).length;
  return [
    `\n${backend}: the longest stall while the hostile pages were served: ${worst.toFixed(1)} ms (the ordinary page's: ${baseline.toFixed(1)} ms)${failed > 0 ? `, ${failed} FAILED requests` : ''}`,
    '| case (first view) | status | request ms | longest /healthz wait ms | longest event-loop lag ms |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
