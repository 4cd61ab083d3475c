import type autocannon from 'autocannon';
import { CODE_PAGE } from './code-page.js';
import { seedContent } from './content-fixture.js';
import { HOSTILE_ENV, measureStalls, seedHostile, stallReport } from './hostile.js';
import {
  apiCall,
  compareOnBackends,
  type Measure,
  median,
  seed,
  TOKEN,
  withBackends,
} from './lib.js';
import { type SectionedTargets, sectionedTargets } from './sectioned-site.js';

/**
 * `npm run bench:published`: the published site (issue 7) against the customization GET of the
 * same instance, in the same run and rounds (ratios, not absolute times). The site is the one of
 * `npm run bench` (header links, footer, announcement, logo, a German variant) showing the
 * 220-page space of `npm run bench:content`:
 *   baseline   GET …/site-spaces/{id}/customization, with an API token;
 *   page       GET /s/bench/{variant}/section-7/topic-5: a public page, with a 220-entry sidebar;
 *   shared     the same page of a share-link site, with its cookie (the key checked each time);
 *   themeCss   GET /s/bench/@livery/theme/{id}.css;
 *   view       POST /s/bench/@livery/view (a visitor's page view);
 *   feedback   POST /s/bench/@livery/feedback over 64 visitors (mostly replacements);
 *   preview    POST /v1/orgs/{o}/sites/{s}/preview with a draft primary color;
 *   previewCode the same, of a page with three highlighted code blocks (nothing is cached);
 * and issue 29's sectioned site (bench/sectioned-site.ts: 5 sections × 3 variants × 100 pages,
 * 5,000 redirects) against a one-variant site showing the same 100-page space:
 *   oneVariant        GET /s/onevariant/heading-7/topic-4 (the reference of the ratios);
 *   sectionedDeep     the same page of the same space, section 5's variant 3 (the deepest address);
 *   sectionedDefault  the same page in the default section's default variant (its own space).
 * After the table, the ratios sectioned / one-variant per backend, of the server's CPU time per
 * request (the steadier figure on a shared machine) and of req/s.
 * BENCH_PUBLISHED_ONLY=sectioned measures the baseline and the three sectioned targets alone.
 * Before the runs, it prints what a fresh process spends on the first page without code and the
 * first page with code (Shiki loaded then), and its resident memory around them. After them, the
 * longest the server's event loop stood still while the hostile pages of issue 25 were rendered
 * (bench/hostile.ts, as `npm run bench:stall`).
 */

const KINDS = [
  'baseline',
  'page',
  'shared',
  'themeCss',
  'view',
  'feedback',
  'preview',
  'previewCode',
] as const;
type Kind = (typeof KINDS)[number];
const SECTIONED = ['oneVariant', 'sectionedDeep', 'sectionedDefault'] as const;
const ONLY_SECTIONED = process.env.BENCH_PUBLISHED_ONLY === 'sectioned';
let sent = 0;

interface Site {
  origin: string;
  org: string;
  site: string;
  variant: string;
  /** The page's address below the site: the variant's path, then the page's. */
  path: string;
  page: string;
  shareCookie: string;
}

async function main(): Promise<void> {
  const results = await compareOnBackends('Published-site benchmark', 'benchps', async (base) => {
    const { getUrl } = await seed(base, 0);
    const org = new URL(getUrl).pathname.split('/')[3] ?? '';
    const sectioned: SectionedTargets = await sectionedTargets(base, org);
    if (ONLY_SECTIONED) {
      return { baseline: optionsOf('baseline', getUrl, undefined), ...sectioned };
    }
    const site = await publish(base, getUrl);
    return {
      ...Object.fromEntries(KINDS.map((kind) => [kind, optionsOf(kind, getUrl, site)])),
      ...sectioned,
    };
  });
  sectionedRatios(results);
  if (ONLY_SECTIONED) return;
  await withBackends('benchph', HOSTILE_ENV, async (servers) => {
    for (const { base, backend } of servers) {
      const stalls = await measureStalls(base, await seedHostile(base), `Bearer ${TOKEN}`);
      process.stdout.write(`${stallReport(backend, stalls)}\n`);
      if (stalls.some((s) => s.status !== 200)) process.exitCode = 1;
    }
  });
}

/** Sectioned page view / one-variant page view, per backend: CPU per request, then req/s. */
function sectionedRatios(results: Map<string, Measure[]>): void {
  const backends = [...results.keys()]
    .filter((name) => name.startsWith('oneVariant '))
    .map((name) => name.slice('oneVariant '.length));
  process.stdout.write(
    '\n| sectioned / one-variant | backend | CPU µs/request | ratio (CPU) | ratio (req/s) |\n|---|---|---|---|---|\n',
  );
  for (const backend of backends) {
    const of = (kind: string) => results.get(`${kind} ${backend}`) ?? [];
    const cpu = (kind: string) => median(of(kind).map((m) => m.cpuPerRequest));
    const rps = (kind: string) => median(of(kind).map((m) => m.rps));
    for (const kind of SECTIONED) {
      const cpuRatio = cpu(kind) / cpu('oneVariant');
      const rpsRatio = rps('oneVariant') / rps(kind);
      process.stdout.write(
        `| ${kind} | ${backend} | ${cpu(kind).toFixed(0)} | ${cpuRatio.toFixed(2)}× | ${rpsRatio.toFixed(2)}× |\n`,
      );
    }
  }
}

/** The benchmark site shows the 220-page space, published as `bench`; a second one by share link. */
async function publish(base: string, getUrl: string): Promise<Site> {
  const [, , , org = '', , site = '', , variant = ''] = new URL(getUrl).pathname.split('/');
  const content = await seedContent(base, getUrl);
  const siteBase = `/v1/orgs/${org}/sites/${site}`;
  const shown = await apiCall(base, 'PATCH', `${siteBase}/site-spaces/${variant}`, {
    spaceId: content.space,
  });
  const path = `${String(shown.path)}/section-7/topic-5`;
  await addCodePage(base, content.space);
  await apiCall(base, 'PATCH', siteBase, { basename: 'bench' });
  await apiCall(base, 'PUT', `${siteBase}/customization`, { feedback: { enabled: true } });
  await apiCall(base, 'POST', `${siteBase}/publish`);
  await coldRenders(base, String(shown.path));
  // The share-link site: the same space, its key kept in a cookie as a browser would.
  const shared = await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, {
    title: 'Shared',
    spaces: [content.space],
  });
  const sharedBase = `/v1/orgs/${org}/sites/${String(shared.id)}`;
  await apiCall(base, 'PATCH', sharedBase, { basename: 'shared', visibility: 'share-link' });
  await apiCall(base, 'POST', `${sharedBase}/publish`);
  const link = await apiCall(base, 'POST', `${sharedBase}/share-links`, { name: 'bench' });
  const entry = await fetch(`${String((link.urls as { published: string }).published)}`, {
    redirect: 'manual',
  });
  const shareCookie = (entry.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!shareCookie.startsWith('livery_share=')) throw new Error('no share cookie');
  return { origin: base, org, site, variant, path, page: content.page, shareCookie };
}

async function addCodePage(base: string, space: string): Promise<void> {
  const crBase = `/v1/spaces/${space}/change-requests`;
  const cr = String((await apiCall(base, 'POST', crBase, { subject: 'Code' })).id);
  await apiCall(base, 'POST', `${crBase}/${cr}/content`, {
    changes: [
      { operation: 'insert_page', title: 'Code sample', document: { markdown: CODE_PAGE } },
    ],
  });
  await apiCall(base, 'POST', `${crBase}/${cr}/merge`, {});
}

/** The first renders of a fresh process: a page without code, then one with (Shiki's start). */
async function coldRenders(base: string, variantPath: string): Promise<void> {
  const rss = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1]) / 2 ** 20;
  };
  const timed = async (path: string) => {
    const start = performance.now();
    const response = await fetch(`${base}/s/bench/${variantPath}/${path}`);
    await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return (performance.now() - start).toFixed(1);
  };
  const before = await rss();
  const plain = await timed('section-7/topic-4');
  const afterPlain = await rss();
  const code = await timed('code-sample');
  const afterCode = await rss();
  const again = await timed('code-sample');
  process.stdout.write(
    `cold renders: first page without code ${plain} ms (RSS ${before.toFixed(0)} → ${afterPlain.toFixed(0)} MiB); ` +
      `first page with code ${code} ms (RSS → ${afterCode.toFixed(0)} MiB); the same page again (cached) ${again} ms\n`,
  );
}

function optionsOf(kind: Kind, getUrl: string, site: Site | undefined): autocannon.Options {
  if (kind === 'baseline') return { url: getUrl, headers: { authorization: `Bearer ${TOKEN}` } };
  if (site === undefined) throw new Error(`${kind} needs the published site`);
  const s = site;
  const json = { 'content-type': 'application/json' };
  const post = (path: string, body: () => unknown, headers = {}) => ({
    url: `${s.origin}${path}`,
    requests: [
      {
        method: 'POST' as const,
        headers: { ...json, ...headers },
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          path,
          body: JSON.stringify(body()),
        }),
      },
    ],
  });
  switch (kind) {
    case 'page':
      return { url: `${s.origin}/s/bench/${s.path}` };
    case 'shared':
      return { url: `${s.origin}/s/shared/section-7/topic-5`, headers: { cookie: s.shareCookie } };
    case 'themeCss':
      return { url: `${s.origin}/s/bench/@livery/theme/${s.variant}.css` };
    case 'view':
      return post('/s/bench/@livery/view', () => ({ siteSpaceId: s.variant, pageId: s.page }));
    case 'feedback':
      return post('/s/bench/@livery/feedback', () => ({
        siteSpaceId: s.variant,
        pageId: s.page,
        rating: ['good', 'ok', 'bad'][++sent % 3],
        visitorId: `visitor-${sent % 64}`,
      }));
    case 'preview':
      return post(
        `/v1/orgs/${s.org}/sites/${s.site}/preview`,
        () => ({
          siteSpaceId: s.variant,
          pagePath: 'section-7/topic-5',
          customization: { styling: { primaryColor: { light: '#d9480f', dark: '#ff922b' } } },
        }),
        { authorization: `Bearer ${TOKEN}` },
      );
    case 'previewCode':
      return post(
        `/v1/orgs/${s.org}/sites/${s.site}/preview`,
        () => ({
          siteSpaceId: s.variant,
          pagePath: 'code-sample',
          customization: { styling: { primaryColor: { light: '#d9480f', dark: '#ff922b' } } },
        }),
        { authorization: `Bearer ${TOKEN}` },
      );
  }
}

await main();
