import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createSite,
  createTestApp,
  expectError,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';

let t: TestContext;
let site: SiteFixture;
let targets: Record<'PUT' | 'PATCH', string>;

before(async () => {
  t = await createTestApp();
  site = await createSite(t, 1);
  targets = {
    PUT: `${site.base}/customization`,
    PATCH: `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`,
  };
  // Both documents hold something, so "unchanged" is checked against a non-default state.
  await t.request({
    method: 'PUT',
    url: targets.PUT,
    payload: { title: 'Stored', styling: { corners: 'straight' } },
  });
  await t.request({
    method: 'PATCH',
    url: targets.PATCH,
    payload: { title: 'Variant', favicon: { emoji: '🎉' } },
  });
});
after(async () => t.close());

// Built as text: JSON.stringify itself would overflow the stack on such depths.
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const deepArray = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const link = { title: 'x', to: { kind: 'url', url: 'https://x.test' } };

interface Case {
  name: string;
  body: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string;
  contentType?: string;
  status: number;
  message: RegExp;
  only?: 'PUT' | 'PATCH';
}

const cases: Case[] = [
  {
    name: 'malformed JSON',
    body: null,
    raw: '{"title": "x",',
    status: 400,
    message: /not valid JSON/,
  },
  {
    name: 'trailing garbage',
    body: null,
    raw: '{"title":"ok"} x',
    status: 400,
    message: /not valid JSON/,
  },
  {
    name: 'wrong content type',
    body: null,
    raw: 'title=x',
    contentType: 'text/plain',
    status: 415,
    message: /must be JSON/,
  },
  {
    name: 'form content type',
    body: null,
    raw: 'title=x',
    contentType: 'application/x-www-form-urlencoded',
    status: 415,
    message: /must be JSON/,
  },
  { name: 'no body at all', body: null, raw: '', status: 400, message: /^body must be an object/ },
  {
    name: 'JSON null body',
    body: null,
    raw: 'null',
    status: 400,
    message: /^body must be an object/,
  },
  { name: 'an array body', body: [], status: 400, message: /^body must be an object/ },
  { name: 'a string body', body: 'x', status: 400, message: /^body must be an object/ },
  {
    name: 'unknown top-level field',
    body: { colour: 'red' },
    status: 400,
    message: /^body\.colour is not a known field/,
  },
  {
    name: 'unknown nested field',
    body: { styling: { shadow: 'big' } },
    status: 400,
    message: /^body\.styling\.shadow is not a known field/,
  },
  {
    name: 'misspelled toggleable',
    body: { themes: { toggleable: true } },
    status: 400,
    message: /^body\.themes\.toggleable is not a known field \(did you mean "toggeable"\?\)/,
  },
  {
    name: 'wrong enum',
    body: { styling: { corners: 'round' } },
    status: 400,
    message: /^body\.styling\.corners must be one of "straight", "rounded", "circular"/,
  },
  {
    name: 'unknown font',
    body: { styling: { font: 'Comic Sans' } },
    status: 400,
    message: /^body\.styling\.font must be one of .*"Inter"/,
  },
  {
    name: 'unknown locale',
    body: { internationalization: { locale: 'xx' } },
    status: 400,
    message: /^body\.internationalization\.locale must be one of/,
  },
  {
    name: 'bad color',
    body: { styling: { primaryColor: { light: 'red', dark: '#000' } } },
    status: 400,
    message: /^body\.styling\.primaryColor\.light must be a hex color/,
  },
  {
    name: 'color with 4 digits',
    body: { styling: { infoColor: { light: '#0000', dark: '#000' } } },
    status: 400,
    message: /^body\.styling\.infoColor\.light must be a hex color/,
  },
  {
    name: 'half a themed color',
    body: { styling: { primaryColor: { light: '#000' } } },
    status: 400,
    message: /^body\.styling\.primaryColor\.dark is required/,
  },
  {
    name: 'relative URL',
    body: { header: { logo: { light: '/logo.png', dark: '/logo.png' } } },
    status: 400,
    message: /^body\.header\.logo\.light must be an absolute http\(s\) URL/,
  },
  {
    name: 'javascript: URL',
    body: { privacyPolicy: { url: 'javascript:alert(1)' } },
    status: 400,
    message: /^body\.privacyPolicy\.url must be an absolute http\(s\) URL/,
  },
  {
    name: 'URL over 2048 characters',
    body: { socialPreview: { url: `https://x.test/${'a'.repeat(2040)}` } },
    status: 400,
    message: /^body\.socialPreview\.url must be at most 2048 characters/,
  },
  {
    name: 'title too short',
    body: { title: 'x' },
    status: 400,
    message: /^body\.title must be at least 2 characters/,
  },
  {
    name: 'title too long',
    body: { title: 'x'.repeat(129) },
    status: 400,
    message: /^body\.title must be at most 128 characters/,
  },
  {
    name: 'title of the wrong type',
    body: { title: 5 },
    status: 400,
    message: /^body\.title must be a string or null \(got 5\)/,
  },
  {
    name: 'boolean sent as a string (no coercion)',
    body: { themes: { toggeable: 'true' } },
    status: 400,
    message: /^body\.themes\.toggeable must be a boolean or null \(got "true"\)/,
  },
  {
    name: 'boolean sent as a number (no coercion)',
    body: { pdf: { enabled: 0 } },
    status: 400,
    message: /^body\.pdf\.enabled must be a boolean or null \(got 0\)/,
  },
  {
    name: 'group sent as an array',
    body: { styling: [] },
    status: 400,
    message: /^body\.styling must be an object or null/,
  },
  {
    name: 'array sent as an object',
    body: { header: { links: {} } },
    status: 400,
    message: /^body\.header\.links must be an array or null/,
  },
  {
    name: 'favicon as a string',
    body: { favicon: '🎉' },
    status: 400,
    message: /^body\.favicon must be an object or null/,
  },
  {
    name: 'favicon with icon and emoji',
    body: {
      favicon: {
        emoji: '🎉',
        icon: { light: 'https://a.test/i.png', dark: 'https://a.test/i.png' },
      },
    },
    status: 400,
    message: /^body\.favicon must have at most 1 field/,
  },
  {
    name: 'favicon emoji that is not an emoji',
    body: { favicon: { emoji: 'smile' } },
    status: 400,
    message: /^body\.favicon\.emoji must be an emoji/,
  },
  {
    name: 'copyright over 512 characters',
    body: { footer: { copyright: 'c'.repeat(513) } },
    status: 400,
    message: /^body\.footer\.copyright must be at most 512 characters/,
  },
  {
    name: 'announcement message over 128',
    body: { announcement: { enabled: true, message: 'm'.repeat(129), style: 'info' } },
    status: 400,
    message: /^body\.announcement\.message must be at most 128/,
  },
  {
    name: 'incomplete announcement',
    body: { announcement: { enabled: true } },
    status: 400,
    message: /^body\.announcement\.message is required/,
  },
  {
    name: 'link title over 64',
    body: { footer: { groups: [{ title: 'G', links: [{ ...link, title: 't'.repeat(65) }] }] } },
    status: 400,
    message: /^body\.footer\.groups\[0\]\.links\[0\]\.title must be at most 64/,
  },
  {
    name: 'unknown link kind',
    body: { header: { links: [{ title: 'x', to: { kind: 'ftp', url: 'x' }, links: [] }] } },
    status: 400,
    message: /^body\.header\.links\[0\]\.to\.kind must be one of "file", "url", "page"/,
  },
  {
    name: 'url link without url',
    body: { header: { links: [{ title: 'x', to: { kind: 'url' }, links: [] }] } },
    status: 400,
    message: /^body\.header\.links\[0\]\.to\.url is required/,
  },
  {
    name: 'page link with a url field',
    body: {
      announcement: {
        enabled: true,
        message: 'Hi',
        style: 'info',
        link: { title: 'x', to: { kind: 'page', page: 'p1', url: 'https://x.test' } },
      },
    },
    status: 400,
    message: /^body\.announcement\.link\.to\.url is not a known field/,
  },
  {
    name: 'header link style',
    body: { header: { links: [{ title: 'x', style: 'button', to: null, links: [] }] } },
    status: 400,
    message:
      /^body\.header\.links\[0\]\.style must be one of "link", "button-primary", "button-secondary"/,
  },
  {
    name: '__proto__ key',
    body: null,
    raw: '{"__proto__": {"polluted": true}}',
    status: 400,
    message: /forbidden key/,
  },
  {
    name: 'nested __proto__ key',
    body: null,
    raw: '{"styling": {"__proto__": {"polluted": true}}}',
    status: 400,
    message: /forbidden key/,
  },
  {
    name: 'constructor.prototype keys',
    body: null,
    raw: '{"constructor": {"prototype": {"polluted": true}}}',
    status: 400,
    message: /forbidden key/,
  },
  {
    name: 'a constructor field',
    body: { constructor: { x: 1 } },
    status: 400,
    message: /^body\.constructor is not a known field/,
  },
  {
    name: '5,000-deep nesting in a field',
    body: null,
    raw: `{"styling":${deepObject(5000)}}`,
    status: 400,
    message: /^body\.styling\.a is not a known field/,
  },
  {
    name: '100,000-deep nesting',
    body: null,
    raw: deepObject(100_000),
    status: 400,
    message: /^body\.a is not a known field/,
  },
  {
    name: '5,000-deep arrays as the body',
    body: null,
    raw: deepArray(5000),
    status: 400,
    message: /^body must be an object/,
  },
  {
    name: 'site-level field in an override',
    body: { insights: { trackingCookie: false } },
    status: 400,
    message: /^body\.insights is not allowed/,
    only: 'PATCH',
  },
];

describe('bad input gets a clear 4xx and changes nothing', () => {
  for (const method of ['PUT', 'PATCH'] as const) {
    for (const c of cases.filter((x) => x.only === undefined || x.only === method)) {
      test(`${method}: ${c.name} → ${c.status}`, async () => {
        const url = targets[method];
        const before = await t.request({ method: 'GET', url });
        const res = await t.request({
          method,
          url,
          headers: { 'content-type': c.contentType ?? 'application/json' },
          payload: c.raw ?? JSON.stringify(c.body),
        });
        assert.match(expectError(res, c.status), c.message);
        assert.doesNotMatch(res.body, /at \w+ \(|node_modules|SQLITE|stack/i, 'no internals leak');
        const afterwards = await t.request({ method: 'GET', url });
        assert.equal(afterwards.body, before.body, 'stored settings unchanged');
        assert.equal(afterwards.headers.etag, before.headers.etag);
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
      });
    }
  }

  test('a body over 1 MiB → 413', async () => {
    const before = await t.request({ method: 'GET', url: targets.PUT });
    const res = await t.request({
      method: 'PUT',
      url: targets.PUT,
      payload: JSON.stringify({ footer: { copyright: 'x'.repeat(1024 * 1024) } }),
      headers: { 'content-type': 'application/json' },
    });
    assert.match(expectError(res, 413), /1 MiB/);
    const afterwards = await t.request({ method: 'GET', url: targets.PUT });
    assert.equal(afterwards.body, before.body);
  });

  test('invalid querystring and unknown cursor → 400 naming the parameter', async () => {
    const limit = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites?limit=0` });
    assert.match(expectError(limit, 400), /^querystring\.limit must be >= 1/);
    const huge = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites?limit=1001` });
    assert.match(expectError(huge, 400), /^querystring\.limit must be <= 1000/);
    const page = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/sites?page=garbage` });
    assert.match(expectError(page, 400), /querystring\.page is not a page cursor/);
  });
});
