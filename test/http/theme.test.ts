import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  contrast,
  contrastText,
  INK,
  luminance,
  parseHex,
  scale,
  toHex,
  WHITE,
} from '../../src/modules/theme/colors.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';

const hexColor = fc
  .tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
  )
  .map(([r, g, b]) => toHex({ r, g, b }));

describe('colors: parsing', () => {
  const rows: [string, { r: number; g: number; b: number }][] = [
    ['#000', { r: 0, g: 0, b: 0 }],
    ['#fff', { r: 255, g: 255, b: 255 }],
    ['#0B5FFF', { r: 11, g: 95, b: 255 }],
    ['#abc', { r: 0xaa, g: 0xbb, b: 0xcc }],
  ];
  for (const [hex, rgb] of rows) {
    test(`${hex}`, () => assert.deepEqual(parseHex(hex), rgb));
  }
  test('anything else is refused', () => {
    for (const bad of ['0b5fff', '#12', '#1234', '#ggg', 'red']) {
      assert.throws(() => parseHex(bad), /not a #rgb or #rrggbb color/, bad);
    }
  });
});

describe('colors: 12-step scales', () => {
  test('step 9 is the color itself, in both themes', () => {
    fc.assert(
      fc.property(hexColor, (color) => {
        assert.equal(scale(color, 'light')[8], color);
        assert.equal(scale(color, 'dark')[8], color);
      }),
    );
  });

  test('light scales darken from step 1 to 8 and from 11 to 12; dark ones lighten', () => {
    fc.assert(
      fc.property(hexColor, (color) => {
        for (const theme of ['light', 'dark'] as const) {
          const l = scale(color, theme).map((hex) => luminance(parseHex(hex)));
          const ordered = (a: number, b: number) =>
            theme === 'light' ? a >= b - 1e-9 : a <= b + 1e-9;
          for (let i = 0; i < 7; i++)
            assert.ok(ordered(l[i] as number, l[i + 1] as number), `${theme} ${i}`);
          assert.ok(ordered(l[10] as number, l[11] as number), `${theme} 11-12`);
        }
      }),
    );
  });

  test('every step is a #rrggbb color', () => {
    fc.assert(
      fc.property(hexColor, (color) => {
        for (const step of [...scale(color, 'light'), ...scale(color, 'dark')]) {
          assert.match(step, /^#[0-9a-f]{6}$/);
        }
      }),
    );
  });

  test('a light background and dark text in the light theme, the reverse in the dark one', () => {
    const light = scale('#0b5fff', 'light');
    const dark = scale('#0b5fff', 'dark');
    assert.ok(contrast(light[0] as string, light[11] as string) >= 7, 'step 12 on step 1 (light)');
    assert.ok(contrast(dark[0] as string, dark[11] as string) >= 7, 'step 12 on step 1 (dark)');
  });
});

describe('colors: readable text on a color', () => {
  const rows: [string, string][] = [
    ['#0b5fff', WHITE],
    ['#000000', WHITE],
    ['#ffffff', INK],
    ['#ffd60a', INK],
    ['#22c55e', INK],
    ['#7c3aed', WHITE],
  ];
  for (const [background, text] of rows) {
    test(`${background} → ${text}`, () => assert.equal(contrastText(background), text));
  }
  test('the text color is whichever of white and ink contrasts more, at least 4.5:1 … or the best there is', () => {
    fc.assert(
      fc.property(hexColor, (color) => {
        const chosen = contrastText(color);
        const other = chosen === WHITE ? INK : WHITE;
        assert.ok(contrast(color, chosen) >= contrast(color, other));
        // With white and near-black available, the better one always reaches 4.2:1.
        assert.ok(contrast(color, chosen) >= 4.2, `${color}: ${contrast(color, chosen)}`);
      }),
    );
  });
});

describe('GET …/site-spaces/{siteSpaceId}/customization/theme.css', () => {
  let t: TestContext;
  let url: string;
  before(async () => {
    t = await createTestApp();
    const space = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/spaces`,
        payload: { title: 'D' },
      }),
      201,
    );
    const site = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Docs', spaces: [space.id] },
      }),
      201,
    );
    const variants = expectStatus(
      await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites/${site.id}/site-spaces` }),
      200,
    );
    const siteSpace = (variants.items as { id: string }[])[0]?.id;
    url = `/v1/orgs/${t.orgId}/sites/${site.id}/site-spaces/${siteSpace}/customization/theme.css`;
  });
  after(async () => t.close());

  test('CSS of the effective settings: both themes, every scale, corners and fonts', async () => {
    const res = await t.request({ method: 'GET', url });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/css; charset=utf-8');
    for (const name of ['primary', 'tint', 'info', 'success', 'warning', 'danger']) {
      for (let step = 1; step <= 12; step++)
        assert.match(res.body, new RegExp(`--${name}-${step}: #`));
      assert.match(res.body, new RegExp(`--${name}-contrast: #`));
    }
    assert.match(res.body, /\[data-theme="dark"\] \{/);
    assert.match(res.body, /--radius: 8px;/);
    assert.match(res.body, /--font-sans: "Inter",/);
  });

  test('follows the variant override; If-None-Match answers 304 until it changes', async () => {
    const first = await t.request({ method: 'GET', url });
    const etag = String(first.headers.etag);
    const unchanged = await t.request({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${t.token}`, 'if-none-match': etag },
    });
    assert.equal(unchanged.statusCode, 304);
    assert.equal(unchanged.body, '');
    expectStatus(
      await t.request({
        method: 'PATCH',
        url: url.replace('/theme.css', ''),
        payload: {
          styling: { primaryColor: { light: '#FF0000', dark: '#00ff00' }, corners: 'straight' },
        },
      }),
      200,
    );
    const changed = await t.request({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${t.token}`, 'if-none-match': etag },
    });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
    const [light, dark] = changed.body.split('[data-theme="dark"]') as [string, string];
    assert.match(light, /--primary-9: #ff0000;/);
    assert.match(dark, /--primary-9: #00ff00;/);
    assert.match(
      light,
      /--primary-contrast: #111111;/,
      'pure red reads better with ink (4.7:1) than white (4.0:1)',
    );
    assert.match(changed.body, /--radius: 0px;/);
  });

  test('an unknown site-space is a 404 in the error envelope', async () => {
    const res = await t.request({
      method: 'GET',
      url: url.replace(/site-spaces\/[^/]+/, 'site-spaces/sitesp_missing'),
    });
    assert.match(expectError(res, 404), /sitesp_missing/);
  });
});
