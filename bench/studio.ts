import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildStudio } from '../scripts/build-studio.js';
import { launchBrowser } from '../test/helpers/browser.js';
import { seedContent } from './content-fixture.js';
import { apiCall, buildLivery, machine, median, startLivery, stop, TOKEN } from './lib.js';

/**
 * `npm run bench:studio` (issue 18, item 9): Livery Studio's size and load time.
 *   1. the bundle: bytes and gzip of every file `npm run build:studio` writes;
 *   2. time to interactive of /studio on a warm server (`npm start`'s build, SQLite), in headless
 *      Debian Chromium: signed in once through the API, then BENCH_ROUNDS (default 10) fresh
 *      browser contexts (empty cache, the session cookie set) open
 *      `/studio#/orgs/{org}/sites/{site}`; the time is `performance.now()` in the page (from
 *      navigation start) when the primary color's field is visible and enabled;
 *   3. the baseline, interleaved with it: the same site's published home page `/s/studio-bench/`
 *      loaded the same way, timed at DOMContentLoaded with its `<main>` visible.
 * Medians and their ratio are printed. One warm-up round of each is not counted.
 */

/** The field the studio shows once the site's form is usable (issue 18, item 4). */
const READY_SELECTOR = '[data-setting="styling.primaryColor.light"]';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const BASENAME = 'studio-bench';

interface Seeded {
  base: string;
  org: string;
  site: string;
}

async function main(): Promise<void> {
  const build = await buildStudio({ quiet: true });
  printBundle(build.files);
  buildLivery();
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-studio-'));
  const children: ChildProcess[] = [];
  let browser: Browser | undefined;
  try {
    const { base } = await startLivery(
      children,
      `sqlite:${join(dir, 'livery.db')}`,
      join(dir, 'log'),
    );
    const seeded = await seedSite(base);
    const cookies = await signIn(base);
    browser = await launchBrowser();
    const studioUrl = `${base}/studio#/orgs/${seeded.org}/sites/${seeded.site}`;
    const publishedUrl = `${base}/s/${BASENAME}/`;
    const studio: number[] = [];
    const published: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const s = await timeStudio(browser, base, cookies, studioUrl);
      const p = await timePublished(browser, publishedUrl);
      if (round === 0) continue; // warm-up
      studio.push(s);
      published.push(p);
    }
    printLoad(studio, published);
  } finally {
    await browser?.close();
    for (const child of children) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A published site with the 220-page space of bench:content and a realistic customization. */
async function seedSite(base: string): Promise<Seeded> {
  const orgs = (await apiCall(base, 'GET', '/v1/orgs')) as { items: { id: string }[] };
  const org = orgs.items[0]?.id ?? '';
  const { space } = await seedContent(base, `${base}/v1/orgs/${org}/`);
  const site = String(
    (await apiCall(base, 'POST', `/v1/orgs/${org}/sites`, { title: 'Studio', spaces: [space] })).id,
  );
  const siteBase = `/v1/orgs/${org}/sites/${site}`;
  const link = (title: string) => ({
    title,
    to: { kind: 'url', url: `https://example.com/${title}` },
  });
  await apiCall(base, 'PUT', `${siteBase}/customization`, {
    title: 'Studio benchmark',
    styling: { primaryColor: { light: '#0b5fff', dark: '#7aa7ff' }, corners: 'circular' },
    header: {
      links: [
        { ...link('Guides'), links: [link('Start')] },
        { ...link('API'), links: [] },
      ],
    },
    footer: { groups: [{ title: 'Product', links: [link('Pricing')] }], copyright: '© Bench' },
    announcement: { enabled: true, message: 'Version 2 is out', style: 'info' },
  });
  await apiCall(base, 'PATCH', siteBase, { basename: BASENAME });
  await apiCall(base, 'POST', `${siteBase}/publish`);
  return { base, org, site };
}

/** The cookies of a studio session, signed in through the API as the studio does. */
async function signIn(base: string): Promise<{ name: string; value: string }[]> {
  const first = await fetch(`${base}/studio/session`);
  const { csrfToken } = (await first.json()) as { csrfToken: string };
  const csrfCookie = pairsOf(first.headers.getSetCookie());
  const signedIn = await fetch(`${base}/studio/session`, {
    method: 'POST',
    headers: {
      cookie: csrfCookie.map((c) => `${c.name}=${c.value}`).join('; '),
      'content-type': 'application/json',
      'x-csrf-token': csrfToken,
    },
    body: JSON.stringify({ token: TOKEN }),
  });
  if (!signedIn.ok) throw new Error(`sign-in: ${signedIn.status} ${await signedIn.text()}`);
  const session = pairsOf(signedIn.headers.getSetCookie());
  return [...csrfCookie.filter((c) => !session.some((s) => s.name === c.name)), ...session];
}

const pairsOf = (lines: string[]) =>
  lines.map((line) => {
    const pair = line.split(';')[0] ?? '';
    return { name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1) };
  });

/** What readyAt uses of the page (the project's TypeScript has no DOM types). */
interface PageGlobals {
  document: {
    readyState: string;
    querySelector(
      selector: string,
    ): { disabled?: boolean; getClientRects(): ArrayLike<unknown> } | null;
  };
  performance: { now(): number };
}

/**
 * Run in the page every frame (as a function, which the studio's CSP allows, unlike a string):
 * the time from navigation start once the DOM is parsed and `selector`'s element is visible and
 * enabled, else false.
 */
function readyAt(selector: string): number | false {
  const { document, performance } = globalThis as unknown as PageGlobals;
  const element = document.querySelector(selector);
  if (document.readyState === 'loading' || element === null || element.disabled) return false;
  return element.getClientRects().length > 0 && performance.now();
}

/** ms from navigation start until `selector` is ready (readyAt), in a fresh browser context. */
async function timeLoad(
  browser: Browser,
  url: string,
  selector: string,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await prepare?.(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(readyAt, selector, {
      polling: 'raf',
      timeout: 30_000,
    });
    if (errors.length > 0) throw new Error(`${url}: ${errors.join('; ')}`);
    return (await handle.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

function timeStudio(
  browser: Browser,
  base: string,
  cookies: { name: string; value: string }[],
  url: string,
): Promise<number> {
  return timeLoad(browser, url, READY_SELECTOR, (context) =>
    // As the server set them (HttpOnly, SameSite=Strict); fetched outside the browser.
    context.addCookies(
      cookies.map((c) => ({ ...c, url: base, httpOnly: true, sameSite: 'Strict' })),
    ),
  );
}

/** DOMContentLoaded with `<main>` visible (`main` is never disabled). */
const timePublished = (browser: Browser, url: string) => timeLoad(browser, url, 'main');

function printBundle(files: Record<string, { bytes: number; gzip: number }>): void {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const rows = Object.entries(files).filter(([name]) => !name.endsWith('.map'));
  const total = rows.reduce(
    (sum, [, f]) => ({ bytes: sum.bytes + f.bytes, gzip: sum.gzip + f.gzip }),
    {
      bytes: 0,
      gzip: 0,
    },
  );
  process.stdout.write(
    `Livery Studio bundle (npm run build:studio)\n\n| file | KB | KB gzip |\n|---|---|---|\n`,
  );
  for (const [name, f] of rows)
    process.stdout.write(`| ${name} | ${kb(f.bytes)} | ${kb(f.gzip)} |\n`);
  process.stdout.write(`| **total** | ${kb(total.bytes)} | **${kb(total.gzip)}** |\n\n`);
}

function printLoad(studio: number[], published: number[]): void {
  const ms = (n: number) => n.toFixed(0);
  const s = median(studio);
  const p = median(published);
  process.stdout.write(
    `Load on a warm server, ${machine()}, ${ROUNDS} rounds (fresh browser context each, 1280×800)\n\n` +
      '| page | median ms | min ms | max ms |\n|---|---|---|---|\n' +
      `| /studio, until ${READY_SELECTOR} is enabled | **${ms(s)}** | ${ms(Math.min(...studio))} | ${ms(Math.max(...studio))} |\n` +
      `| /s/${BASENAME}/ (published), DOMContentLoaded + <main> visible | ${ms(p)} | ${ms(Math.min(...published))} | ${ms(Math.max(...published))} |\n\n` +
      `studio / published: **${(s / p).toFixed(2)}×**\n`,
  );
}

await main();
