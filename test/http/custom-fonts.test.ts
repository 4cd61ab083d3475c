import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { LATO_400, LATO_700, SPACE_MONO_400, upload, uploadFont } from '../helpers/fonts.js';
import { visit } from '../helpers/published.js';
import { publishedSite } from '../helpers/published-browser.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

/**
 * Custom fonts (GitBook 0.202's custom-fonts; docs/customization.md, "Custom fonts"): the
 * operations with good and bad inputs (every refusal names its field and changes nothing), a
 * font chosen by sites and variants, the refusal to delete it while in use, the audit entries,
 * and the font on the published site.
 */
let t: TestContext;
let fonts: string;
let regular: string;
let bold: string;
let mono: string;
before(async () => {
  t = await createTestApp();
  fonts = `/v1/orgs/${t.orgId}/fonts`;
  regular = await uploadFont(t, LATO_400, 'lato-regular.woff2');
  bold = await uploadFont(t, LATO_700, 'lato-bold.woff2');
  mono = await uploadFont(t, SPACE_MONO_400, 'space-mono.woff2');
});
after(async () => t.close());

interface Font {
  id: string;
  custom: boolean;
  fontFamily: string;
  fontFaces: { weight: number; sources: { url: string; format?: string }[] }[];
  permissions: { edit: boolean };
}

const create = (payload: unknown) =>
  t.request({ method: 'PUT', url: fonts, payload: payload as object });
const update = (id: string, payload: unknown) =>
  t.request({ method: 'POST', url: `${fonts}/${id}`, payload: payload as object });
const remove = (id: string) => t.request({ method: 'DELETE', url: `${fonts}/${id}` });
const list = async () =>
  expectStatus(await t.request({ method: 'GET', url: fonts }), 200) as {
    items: Font[];
    count: number;
  };
const made = async (payload: unknown) =>
  expectStatus(await create(payload), 201) as unknown as Font;
const regularFace = () => ({ weight: 400, storageKey: regular });

/** A request that must fail with `status`, naming `field`; the fonts are unchanged. */
async function refused(
  send: () => Promise<LightMyRequestResponse>,
  status: number,
  field: string | RegExp,
) {
  const before = await list();
  const message = expectError(await send(), status);
  if (typeof field === 'string') assert.ok(message.includes(field), `${message} names ${field}`);
  else assert.match(message, field);
  assert.deepEqual(await list(), before, 'a refused request changes nothing');
  return message;
}

describe('the operations', () => {
  test('create, get, list: GitBook’s CustomizationFontDefinition, files served by Livery', async () => {
    const res = await create({
      fontFamily: 'Brand Sans',
      fontFaces: [{ weight: 700, storageKey: bold }, regularFace()],
    });
    const font = expectStatus(res, 201) as unknown as Font;
    assert.match(font.id, /^font_[A-Za-z0-9]{20}$/);
    assert.equal(res.headers.location, `http://livery.test/v1/orgs/${t.orgId}/fonts/${font.id}`);
    assert.equal(font.custom, true);
    assert.equal(font.fontFamily, 'Brand Sans');
    assert.deepEqual(font.permissions, { edit: true });
    assert.deepEqual(
      font.fontFaces.map((f) => f.weight),
      [400, 700],
      'in weight order',
    );
    for (const face of font.fontFaces) {
      assert.equal(face.sources.length, 1);
      assert.equal(face.sources[0]?.format, 'woff2');
      const file = await t.app.inject({
        method: 'GET',
        url: new URL(face.sources[0]?.url as string).pathname,
      });
      assert.equal(file.statusCode, 200, 'the font file is served');
      assert.equal(file.headers['content-type'], 'font/woff2');
      assert.equal(
        file.headers['access-control-allow-origin'],
        '*',
        'readable by the renderer’s origin',
      );
    }
    assert.deepEqual(
      expectStatus(await t.request({ method: 'GET', url: `${fonts}/${font.id}` }), 200),
      font,
    );
    const listed = await list();
    assert.ok(listed.items.some((f) => f.id === font.id));
    assert.equal(listed.count, listed.items.length);
    // A reader sees the fonts, and may not edit them.
    const reader = await memberWithRole(t, 'read');
    const seen = expectStatus(
      await requestAs(t, reader, { method: 'GET', url: `${fonts}/${font.id}` }),
      200,
    );
    assert.deepEqual(seen.permissions, { edit: false });
  });

  test('update: rename, add and replace by weight, null removes; 412 without weight 400', async () => {
    const font = await made({ fontFamily: 'Changing', fontFaces: [regularFace()] });
    const renamed = expectStatus(
      await update(font.id, {
        fontFamily: 'Changed',
        fontFaces: [{ weight: 700, storageKey: bold }],
      }),
      201,
    ) as unknown as Font;
    assert.equal(renamed.fontFamily, 'Changed');
    assert.deepEqual(
      renamed.fontFaces.map((f) => f.weight),
      [400, 700],
    );
    const without = expectStatus(
      await update(font.id, { fontFaces: [{ weight: 700, storageKey: null }] }),
      201,
    ) as unknown as Font;
    assert.deepEqual(
      without.fontFaces.map((f) => f.weight),
      [400],
    );
    const unchanged = expectStatus(await update(font.id, {}), 201) as unknown as Font;
    assert.deepEqual(unchanged.fontFaces, without.fontFaces);
    await refused(
      () => update(font.id, { fontFaces: [{ weight: 400, storageKey: null }] }),
      412,
      'body.fontFaces',
    );
    await refused(
      () => update(font.id, { fontFaces: [{ weight: 400, storageKey: 'nope' }] }),
      400,
      'body.fontFaces[0].storageKey',
    );
    await refused(() => update('font_nope', { fontFamily: 'X' }), 404, 'font_nope');
    expectStatus(await t.request({ method: 'GET', url: `${fonts}/font_nope` }), 404);
  });

  test('delete: 205, then 204', async () => {
    const font = await made({ fontFamily: 'Gone soon', fontFaces: [regularFace()] });
    assert.equal((await remove(font.id)).statusCode, 205);
    assert.equal((await remove(font.id)).statusCode, 204);
    expectError(await t.request({ method: 'GET', url: `${fonts}/${font.id}` }), 404);
  });

  test('a file name with parentheses: the URL holds none (GitBook’s renderer writes url() unquoted)', async () => {
    const key = await uploadFont(t, LATO_400, "Brand (Bold) it's.woff2");
    const font = await made({
      fontFamily: 'Parens',
      fontFaces: [{ weight: 400, storageKey: key }],
    });
    const url = font.fontFaces[0]?.sources[0]?.url as string;
    assert.doesNotMatch(url, /[()' ]/);
    const file = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
    assert.equal(file.statusCode, 200, url);
    assert.equal(file.body.length > 0, true);
  });
});

describe('bad inputs: field-named 4xx, nothing changes', () => {
  test('bodies', async () => {
    const table: [unknown, number, string | RegExp][] = [
      [{ fontFaces: [regularFace()] }, 400, /fontFamily/],
      [{ fontFamily: '', fontFaces: [regularFace()] }, 400, /fontFamily/],
      [{ fontFamily: 'x'.repeat(51), fontFaces: [regularFace()] }, 400, /fontFamily/],
      [{ fontFamily: 'F' }, 400, /fontFaces/],
      [{ fontFamily: 'F', fontFaces: [] }, 400, /fontFaces/],
      [
        { fontFamily: 'F', fontFaces: [{ weight: 0, storageKey: regular }] },
        400,
        /fontFaces\/0\/weight|fontFaces\[0\]\.weight/,
      ],
      [{ fontFamily: 'F', fontFaces: [{ weight: 1001, storageKey: regular }] }, 400, /weight/],
      [{ fontFamily: 'F', fontFaces: [{ weight: 400.5, storageKey: regular }] }, 400, /weight/],
      [{ fontFamily: 'F', fontFaces: [{ weight: 400 }] }, 400, /storageKey/],
      [{ fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: '' }] }, 400, /storageKey/],
      [
        { fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: 'k'.repeat(513) }] },
        400,
        /storageKey/,
      ],
      [{ fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: null }] }, 400, /storageKey/],
      [{ fontFamily: 'F', fontFaces: [regularFace()], extra: 1 }, 400, /extra/],
      [
        {
          fontFamily: 'F',
          fontFaces: Array.from({ length: 21 }, (_, i) => ({ weight: i + 1, storageKey: regular })),
        },
        400,
        /fontFaces/,
      ],
      [{ fontFamily: 'F', fontFaces: [{ weight: 700, storageKey: bold }] }, 412, 'body.fontFaces'],
      [
        { fontFamily: 'F', fontFaces: [regularFace(), { weight: 400, storageKey: bold }] },
        400,
        'body.fontFaces[1].weight',
      ],
      [
        {
          fontFamily: 'F',
          fontFaces: [regularFace(), { weight: 700, storageKey: 'orgs/x/customization_font/y' }],
        },
        400,
        'body.fontFaces[1].storageKey',
      ],
      [[], 400, /body/],
    ];
    for (const [payload, status, field] of table) {
      await refused(() => create(payload), status, field);
    }
    for (const [payload, field] of [
      [{ fontFamily: '' }, /fontFamily/],
      [{ fontFaces: [{ weight: 400 }] }, /storageKey/],
      [
        {
          fontFaces: [
            { weight: 400, storageKey: regular },
            { weight: 400, storageKey: null },
          ],
        },
        'body.fontFaces[1].weight',
      ],
      [{ other: true }, /other/],
    ] as const) {
      const font = (await list()).items[0] as Font;
      await refused(() => update(font.id, payload), 400, field);
    }
  });

  test('a file that is not a font, or not the organization’s', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    const image = await upload(
      t,
      png,
      { name: 'logo.png', type: 'image/png' },
      'organization_file',
    );
    const message = await refused(
      () => create({ fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: image }] }),
      400,
      'body.fontFaces[0].storageKey',
    );
    assert.match(message, /not a font/);
    // Another organization's font file is no file of this one.
    const other = await t.services.identity.createOrganizationWithOwner({
      title: 'Other',
      ownerName: 'O',
    });
    const theirs = await upload(
      t,
      LATO_400,
      { name: 'theirs.woff2', type: 'font/woff2' },
      'customization_font',
      other.organization.id,
      other.token,
    );
    await refused(
      () => create({ fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: theirs }] }),
      400,
      'body.fontFaces[0].storageKey',
    );
    // …and its fonts are not this organization's.
    const otherFont = expectStatus(
      await t.app.inject({
        method: 'PUT',
        url: `/v1/orgs/${other.organization.id}/fonts`,
        headers: { authorization: `Bearer ${other.token}` },
        payload: { fontFamily: 'Theirs', fontFaces: [{ weight: 400, storageKey: theirs }] },
      }),
      201,
    );
    expectError(await t.request({ method: 'GET', url: `${fonts}/${otherFont.id as string}` }), 404);
    assert.equal((await remove(otherFont.id as string)).statusCode, 204);
    expectError(
      await t.request({ method: 'GET', url: `/v1/orgs/${other.organization.id}/fonts` }),
      404,
    );
  });
});

describe('fonts in use', () => {
  test('a site’s or a variant’s font cannot be deleted: 409 naming the sites', async () => {
    const font = await made({ fontFamily: 'Used', fontFaces: [regularFace()] });
    const { permissions: _, ...definition } = font;
    const site = await createSite(t, 2);
    const customize = async (url: string, method: 'PUT' | 'PATCH', styling: object) =>
      expectStatus(
        await t.request({ method, url: `${url}/customization`, payload: { styling } }),
        200,
      );
    await customize(site.base, 'PUT', { headingFont: definition });
    const message = await refused(() => remove(font.id), 409, 'fontId');
    assert.match(message, new RegExp(`"Docs" \\(${site.siteId}\\)`));
    await customize(site.base, 'PUT', { headingFont: null });
    const variant = `${site.base}/site-spaces/${site.siteSpaceIds[1]}`;
    await customize(variant, 'PATCH', { monospaceFont: definition });
    assert.match(await refused(() => remove(font.id), 409, 'fontId'), new RegExp(site.siteId));
    await customize(variant, 'PATCH', { monospaceFont: 'FiraCode' });
    assert.equal((await remove(font.id)).statusCode, 205);
  });

  test('an update leaves the sites’ definitions as they were given', async () => {
    const font = await made({ fontFamily: 'Kept', fontFaces: [regularFace()] });
    const { permissions: _, ...definition } = font;
    const site = await createSite(t, 1);
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${site.base}/customization`,
        payload: { styling: { font: definition } },
      }),
      200,
    );
    expectStatus(
      await update(font.id, {
        fontFamily: 'Renamed',
        fontFaces: [{ weight: 700, storageKey: bold }],
      }),
      201,
    );
    const settings = expectStatus(
      await t.request({ method: 'GET', url: `${site.base}/customization` }),
      200,
    );
    assert.deepEqual((settings.styling as { font: unknown }).font, definition);
  });
});

test('create, update and delete are in the audit log', async () => {
  const font = await made({ fontFamily: 'Audited', fontFaces: [regularFace()] });
  expectStatus(await update(font.id, { fontFaces: [{ weight: 700, storageKey: bold }] }), 201);
  assert.equal((await remove(font.id)).statusCode, 205);
  const log = expectStatus(
    await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/audit-log?limit=1000` }),
    200,
  );
  const entries = (
    log.items as { action: string; target: { kind: string; id: string }; details: unknown }[]
  )
    .filter((e) => e.target.id === font.id)
    .map((e) => [e.action, e.target.kind, e.details]);
  assert.deepEqual(entries.sort(), [
    ['custom-font.created', 'custom-font', { fontFamily: 'Audited', weights: [400] }],
    ['custom-font.deleted', 'custom-font', { fontFamily: 'Audited', weights: [400, 700] }],
    ['custom-font.updated', 'custom-font', { fontFamily: 'Audited', weights: [400, 700] }],
  ]);
});

test('the published site loads a custom font: @font-face, CSS variables, CSP', async () => {
  const font = await made({ fontFamily: 'Published Brand', fontFaces: [regularFace()] });
  const monoFont = await made({
    fontFamily: 'Brand Mono',
    fontFaces: [{ weight: 400, storageKey: mono }],
  });
  const strip = ({ permissions: _, ...definition }: Font) => definition;
  const site = await publishedSite(t, { basename: 'fonts-site', title: 'Docs' });
  expectStatus(
    await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: { styling: { font: strip(font), monospaceFont: strip(monoFont) } },
    }),
    200,
  );
  const page = await visit(t, '/s/fonts-site/');
  assert.equal(page.statusCode, 200);
  const cssPath = /href="([^"]*theme[^"]*\.css[^"]*)"/.exec(page.body)?.[1];
  const css =
    cssPath === undefined ? page.body : (await visit(t, cssPath.replaceAll('&amp;', '&'))).body;
  const url = font.fontFaces[0]?.sources[0]?.url as string;
  assert.ok(
    css.includes(
      `font-family: "Published Brand"; font-style: normal; font-weight: 400; font-display: swap; src: url("${url}") format("woff2")`,
    ),
    css.slice(0, 600),
  );
  assert.match(css, /--font-sans: "Published Brand"/);
  assert.match(css, /--font-mono: "Brand Mono"/);
  // Livery's own origin serves the file: the CSP's font-src 'self' (or its origin) allows it.
  const csp = String(page.headers['content-security-policy'] ?? '');
  assert.ok(
    !/font-src/.test(csp) || csp.includes("'self'") || csp.includes(new URL(url).origin),
    csp,
  );
});
