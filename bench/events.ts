import autocannon from 'autocannon';
import { seedContent } from './content-fixture.js';
import {
  apiCall,
  CONNECTIONS,
  DURATION,
  type Measure,
  machine,
  measure,
  median,
  ROUNDS,
  seed,
  withBackends,
} from './lib.js';

/**
 * `npm run bench:events` (issue 30, "Performance"): site analytics events against the published
 * page view, on each backend, in the same rounds (ratios, not absolute times). A published site
 * shows the 220-page space of `npm run bench:content`; GitBook's renderer would report its
 * readers' events with the site's token:
 *   page           GET /s/plain/section-7/topic-5, alone: the reference;
 *   events1        POST …/insights/events (trackEventsInSiteById) with one page_view, site token;
 *   events10       the same with ten events per request;
 *   readerView     POST /s/plain/@livery/view: Livery's own site's page view report (a day's
 *                  count and a page_view event);
 *   pageUnderEvents the page again while trackEventsInSiteById is sent beside it at a fixed
 *                  BENCH_EVENTS_RATE requests/s (default 200, one event each) by a second client.
 * The per-site budget (SITE_EVENTS_PER_MINUTE) is lifted: the question is what the server
 * sustains. After the table: events1 / page (≥ 100% wanted) and pageUnderEvents / page (≥ 95%).
 */

const RATE = Number(process.env.BENCH_EVENTS_RATE ?? 200);
const KINDS = ['page', 'events1', 'events10', 'readerView', 'pageUnderEvents'] as const;
type Kind = (typeof KINDS)[number];

const event = (page: string, space: string) => ({
  type: 'page_view',
  session: {
    visitorId: `v${Math.floor(Math.random() * 1e9)}`,
    sessionId: `s${Math.floor(Math.random() * 1e9)}`,
    cookies: {},
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36',
    language: 'en',
    referrer: null,
  },
  location: {
    url: 'https://docs.example.com/section-7/topic-5',
    siteSection: null,
    siteSpace: null,
    siteShareKey: null,
    space,
    revision: null,
    page,
  },
});

async function targets(
  base: string,
): Promise<Record<Exclude<Kind, 'pageUnderEvents'>, autocannon.Options>> {
  const { getUrl } = await seed(base, 0);
  const org = new URL(getUrl).pathname.split('/')[3] ?? '';
  const content = await seedContent(base, getUrl);
  const made = await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, {
    title: 'plain',
    spaces: [content.space],
  });
  const siteBase = `/v1/orgs/${org}/sites/${String(made.id)}`;
  await apiCall(base, 'PATCH', siteBase, { basename: 'plain' });
  await apiCall(base, 'POST', `${siteBase}/publish`);
  const lookup = await apiCall(base, 'POST', '/v1/urls/published', { url: `${base}/s/plain` });
  const token = String(lookup.apiToken);
  const spaces = await apiCall(base, 'GET', `${siteBase}/site-spaces`);
  const [variant] = spaces.items as { id: string }[];
  const pages = await apiCall(base, 'GET', `/v1/spaces/${content.space}/content/pages`);
  const first = (pages.pages as { id: string; pages: { id: string }[] }[])[0];
  const pageId = first?.pages[0]?.id ?? first?.id ?? '';
  const post = (path: string, body: unknown, auth = true): autocannon.Options => ({
    url: `${base}${path}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(auth ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const one = { events: [event(pageId, content.space)] };
  return {
    page: { url: `${base}/s/plain/section-7/topic-5` },
    events1: post(`${siteBase}/insights/events`, one),
    events10: post(`${siteBase}/insights/events`, {
      events: Array.from({ length: 10 }, () => event(pageId, content.space)),
    }),
    readerView: post(
      '/s/plain/@livery/view',
      { siteSpaceId: variant?.id, pageId, visitorId: 'bench-visitor-0001' },
      false,
    ),
  };
}

/** The page measured while a second client sends one-event requests at RATE per second. */
async function underEvents(page: autocannon.Options, events: autocannon.Options, pid?: number) {
  const background = autocannon({
    ...events,
    connections: 4,
    overallRate: RATE,
    duration: DURATION + 2,
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const m = await measure(page, DURATION, CONNECTIONS, pid);
  const sent = await background;
  if (sent.non2xx + sent.errors > 0) {
    throw new Error(`background events: ${sent.non2xx} non-2xx, ${sent.errors} errors`);
  }
  return m;
}

async function main(): Promise<void> {
  await withBackends('benchev', { SITE_EVENTS_PER_MINUTE: '0' }, async (servers) => {
    process.stdout.write(
      `Site events benchmark: ${ROUNDS} rounds x ${DURATION}s per target, ${CONNECTIONS} connections, background ${RATE} req/s, ${machine()}\n`,
    );
    const results = new Map<string, Measure[]>();
    const prepared = [];
    for (const server of servers) prepared.push({ server, options: await targets(server.base) });
    for (const { options } of prepared) {
      for (const kind of ['page', 'events1'] as const) await measure(options[kind], 2, CONNECTIONS);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const { server, options } of prepared) {
        for (const kind of KINDS) {
          const m =
            kind === 'pageUnderEvents'
              ? await underEvents(options.page, options.events1, server.pid)
              : await measure(options[kind], DURATION, CONNECTIONS, server.pid);
          const name = `${kind} ${server.backend}`;
          results.set(name, [...(results.get(name) ?? []), m]);
          process.stdout.write(
            `  round ${round} ${name.padEnd(26)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms` +
              `${m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : ''}\n`,
          );
          if (m.non2xx + m.errors > 0) process.exitCode = 1;
        }
      }
    }
    report(
      results,
      servers.map((s) => s.backend),
    );
  });
}

function report(results: Map<string, Measure[]>, backends: string[]): void {
  const rps = (name: string) => median((results.get(name) ?? []).map((m) => m.rps));
  const of = (name: string, pick: (m: Measure) => number) =>
    median((results.get(name) ?? []).map(pick));
  process.stdout.write(
    '\n| target | req/s (median) | events/s | p50 ms | p99 ms | server CPU µs/request |\n|---|---|---|---|---|---|\n',
  );
  for (const backend of backends) {
    for (const kind of KINDS) {
      const name = `${kind} ${backend}`;
      const perRequest =
        kind === 'events10' ? 10 : kind === 'page' || kind === 'pageUnderEvents' ? 0 : 1;
      process.stdout.write(
        `| ${name} | ${rps(name).toFixed(0)} | ${perRequest === 0 ? '' : (rps(name) * perRequest).toFixed(0)} | ${of(name, (m) => m.p50)} | ${of(name, (m) => m.p99)} | ${of(name, (m) => m.cpuPerRequest).toFixed(0)} |\n`,
      );
    }
  }
  process.stdout.write(
    '\n| backend | events1 / page (req/s) | pageUnderEvents / page (req/s) | page p50 under events / alone |\n|---|---|---|---|\n',
  );
  for (const backend of backends) {
    const page = rps(`page ${backend}`);
    const p50 = of(`page ${backend}`, (m) => m.p50);
    process.stdout.write(
      `| ${backend} | ${((100 * rps(`events1 ${backend}`)) / page).toFixed(0)}% | ${((100 * rps(`pageUnderEvents ${backend}`)) / page).toFixed(1)}% | ${(of(`pageUnderEvents ${backend}`, (m) => m.p50) / p50).toFixed(2)} |\n`,
    );
  }
}

await main();
