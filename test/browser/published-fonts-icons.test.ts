import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { expectStatus } from '../helpers/app.js';
import { rawVisit } from '../helpers/published.js';
import {
  type BrowserSuite,
  type PublishedFixture,
  publishedSite,
  startBrowserSuite,
} from '../helpers/published-browser.js';

/**
 * `styling.font`, `styling.monospaceFont` and `styling.icons` visibly apply (issue 7): the chosen
 * fonts are served by Livery (assets/fonts/, no CDN) and really load in Chromium; the icons change
 * their look with the icon style. Over HTTP: what is served, and nothing else.
 */
let s: BrowserSuite;
let site: PublishedFixture;
const settings = (styling: Record<string, unknown>) =>
  s.t.request({ method: 'PUT', url: `${site.base}/customization`, payload: { styling } });

before(async () => {
  s = await startBrowserSuite();
  site = await publishedSite(s.t, {
    basename: 'typeset',
    pages: [
      {
        operation: 'insert_page',
        title: 'Typesetting',
        document: { markdown: 'Body text, and `code` in a monospace font.' },
      },
    ],
  });
});
after(async () => s?.close());

/** The faces of `family` the page loaded (status of each FontFace in document.fonts). */
async function loadedFaces(page: Page, family: string): Promise<string[]> {
  // Scripts run in the page, as text: the test's TypeScript has no DOM types.
  return page.evaluate(`document.fonts.ready.then(() =>
    [...document.fonts]
      .filter((face) => face.family.replace(/"/g, '') === ${JSON.stringify(family)})
      .map((face) => face.weight + ':' + face.status))`);
}

describe('fonts', () => {
  test('the chosen sans and monospace fonts load from Livery and are used', async () => {
    expectStatus(await settings({ font: 'RobotoSlab', monospaceFont: 'JetBrainsMono' }), 200);
    const page = await s.page();
    await page.goto(`${s.origin}/s/typeset/`);
    await page.locator('main h1').waitFor();
    assert.ok((await loadedFaces(page, 'Roboto Slab')).includes('400:loaded'));
    assert.ok((await loadedFaces(page, 'JetBrains Mono')).includes('400:loaded'));
    const used = (await page.evaluate(`({
      body: getComputedStyle(document.body).fontFamily,
      code: getComputedStyle(document.querySelector('article code')).fontFamily,
    })`)) as { body: string; code: string };
    assert.match(used.body, /^"Roboto Slab"/);
    assert.match(used.code, /^"JetBrains Mono"/);
    assert.deepEqual(s.external, [], 'no font comes from elsewhere');
    await page.close();
  });

  test('ABCFavorit (not redistributable) names the font, with no file to load', async () => {
    expectStatus(await settings({ font: 'ABCFavorit', monospaceFont: 'FiraCode' }), 200);
    const css = await rawVisit(s.t, `/s/typeset/@livery/theme/${site.siteSpaceId}.css`);
    assert.equal(css.statusCode, 200);
    assert.match(css.body, /--font-sans: "ABC Favorit", system-ui/);
    assert.doesNotMatch(css.body, /font-family: "ABC Favorit"/);
    assert.match(css.body, /@font-face \{ font-family: "Fira Code"; [^}]*fira-code-latin-400/);
  });

  test('font files: served with their type; any other name is a plain 404', async () => {
    const font = await rawVisit(s.t, '/s/@livery/fonts/roboto-slab-latin-700-normal.woff2');
    assert.equal(font.statusCode, 200);
    assert.equal(font.headers['content-type'], 'font/woff2');
    assert.ok(font.headers.etag);
    // Readable with CORS by any origin: the studio's preview frame has an opaque one.
    assert.equal(font.headers['access-control-allow-origin'], '*');
    for (const path of [
      '/s/@livery/fonts/nope.woff2',
      '/s/@livery/fonts/index.txt',
      '/s/@livery/fonts/..%2Findex.txt',
      '/s/@livery/fonts/licenses%2Finter.txt',
    ]) {
      assert.equal((await rawVisit(s.t, path)).statusCode, 404, path);
    }
  });

  test('the API’s theme.css carries @font-face rules with absolute addresses', async () => {
    expectStatus(await settings({ font: 'Lato' }), 200);
    const css = await s.t.request({
      url: `${site.base}/site-spaces/${site.siteSpaceId}/customization/theme.css`,
    });
    assert.equal(css.statusCode, 200);
    assert.match(
      css.body,
      /@font-face \{ font-family: "Lato"; font-style: normal; font-weight: 400; font-display: swap; src: url\("http:\/\/livery\.test\/s\/@livery\/fonts\/lato-latin-400-normal\.woff2"\)/,
    );
  });
});

describe('icons', () => {
  const look = async (icons: string) => {
    expectStatus(await settings({ icons }), 200);
    const page = await s.page();
    await page.goto(`${s.origin}/s/typeset/`);
    const result = (await page.evaluate(`(() => {
      const svg = document.querySelector('.search .icon-search');
      const fill = getComputedStyle(svg.querySelector('.fill'));
      return { fill: fill.fill, opacity: fill.fillOpacity, stroke: getComputedStyle(svg).strokeWidth };
    })()`)) as { fill: string; opacity: string; stroke: string };
    await page.close();
    return result;
  };

  test('styling.icons: outlines of decreasing weight, solid filled, duotone half-filled', async () => {
    const regular = await look('regular');
    const light = await look('light');
    const thin = await look('thin');
    const solid = await look('solid');
    const duotone = await look('duotone');
    assert.equal(regular.fill, 'none');
    assert.deepEqual(
      [regular.stroke, light.stroke, thin.stroke].map((w) => Number.parseFloat(w)),
      [2, 1.5, 1],
    );
    assert.match(solid.fill, /^rgb/);
    assert.equal(solid.opacity, '1');
    assert.match(duotone.fill, /^rgb/);
    assert.equal(duotone.opacity, '0.3');
  });

  test('icons are inline SVG: no icon font, no request for them', async () => {
    const page = await s.page();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${s.origin}/s/typeset/`);
    await page.locator('main h1').waitFor();
    assert.equal(await page.locator('header .icon-search').count(), 1);
    assert.ok(
      requested.every((path) => !/icon|\.svg$/.test(path)),
      requested.join(', '),
    );
    await page.close();
  });
});
