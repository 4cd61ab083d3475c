import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { contrast, contrastText, toHex } from '../../src/modules/theme/colors.js';
import { expectStatus } from '../helpers/app.js';
import {
  type BrowserSuite,
  type PublishedFixture,
  publishedSite,
  startBrowserSuite,
} from '../helpers/published-browser.js';

/**
 * The bold header (`styling.theme: bold`) paints the header in the primary color and its text in
 * `--primary-contrast`. What sits on other backgrounds inside it, the dropdown's sub-links (on
 * the page background) and the text typed into the search box (on the surface color), must stay
 * readable whichever text color the primary asks for: white (the default blue) or near-black
 * (a light orange). Measured in Chromium as WCAG contrast ratios of the computed colors.
 */
let s: BrowserSuite;
let site: PublishedFixture;
before(async () => {
  s = await startBrowserSuite();
  site = await publishedSite(s.t, { basename: 'bold', spaceTitle: 'Bold docs' });
});
after(async () => s?.close());

/** A computed `rgb(…)` color as #rrggbb. */
async function colorOf(page: Page, selector: string, property: string): Promise<string> {
  const value = await page
    .locator(selector)
    .first()
    .evaluate(
      (el, name) => el.ownerDocument.defaultView?.getComputedStyle(el).getPropertyValue(name) ?? '',
      property,
    );
  const [r, g, b] = (value.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  assert.ok(r !== undefined && g !== undefined && b !== undefined, `${selector}: ${value}`);
  return toHex({ r, g, b });
}

const AA = 4.5;
const cases = [
  { primary: '#346DDB', theme: 'light' }, // GitBook's default blue: white header text
  { primary: '#346DDB', theme: 'dark' },
  { primary: '#ff922b', theme: 'light' }, // a light orange: near-black header text
  { primary: '#ff922b', theme: 'dark' },
] as const;

for (const { primary, theme } of cases) {
  test(`bold header, primary ${primary} (text ${contrastText(primary)}), ${theme} theme: sub-links and search text are readable`, async () => {
    const details = site.pages.find((p) => p.title === 'Details');
    assert.ok(details);
    const settings = {
      styling: { theme: 'bold', primaryColor: { light: primary, dark: primary } },
      themes: { default: theme, toggeable: false },
      header: {
        links: [
          {
            title: 'More',
            to: null,
            links: [{ title: 'Details', to: { kind: 'page', page: details.id } }],
          },
        ],
      },
    };
    expectStatus(
      await s.t.request({ method: 'PUT', url: `${site.base}/customization`, payload: settings }),
      200,
    );
    const page = await s.page();
    await page.goto(`${s.origin}/s/bold/`);
    await page.waitForSelector(`html[data-theme="${theme}"] .dropdown summary`, {
      timeout: 30_000,
    });
    await page.click('.dropdown summary');
    await page.locator('.header-sublink').waitFor({ state: 'visible', timeout: 30_000 });
    await page.fill('.search input', 'typed words');

    // The header's own text on the primary color: the contrast text does its job.
    const header = await colorOf(page, '.site-header', 'background-color');
    assert.equal(header, primary.toLowerCase());
    const summary = await colorOf(page, '.dropdown summary', 'color');
    assert.ok(contrast(summary, header) >= AA, `header text ${summary} on ${header}`);

    const sub = await colorOf(page, '.header-sublink', 'color');
    const menu = await colorOf(page, '.dropdown ul', 'background-color');
    const typed = await colorOf(page, '.search input', 'color');
    const box = await colorOf(page, '.search input', 'background-color');
    const problems = [
      contrast(sub, menu) < AA ? `dropdown sub-link ${sub} on ${menu}` : undefined,
      contrast(typed, box) < AA ? `search text ${typed} on ${box}` : undefined,
    ].filter((problem) => problem !== undefined);
    assert.deepEqual(problems, [], 'text below 4.5:1 against its own background');
    await page.close();
  });
}
