import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { up as upgrade0010 } from '../../src/db/migrations/0010_customization_0202.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import { settings0202 } from '../helpers/settings-0202.js';

/**
 * The settings fields of GitBook 0.202 over HTTP: a whole 0.202 body round-trips, both API
 * generations' forms of `pageActions` map to one stored form, and every new field is validated
 * (docs/customization.md, "Both API generations").
 */

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const variantUrl = (site: SiteFixture, index = 1) =>
  `${site.base}/site-spaces/${site.siteSpaceIds[index]}/customization`;

async function put(site: SiteFixture, payload: object) {
  return t.request({ method: 'PUT', url: `${site.base}/customization`, payload });
}
async function patch(site: SiteFixture, payload: object) {
  return t.request({ method: 'PATCH', url: variantUrl(site), payload });
}

describe('a settings body valid under GitBook 0.202', () => {
  test('round-trips through PUT, GET, PATCH on a variant and DELETE', async () => {
    const site = await createSite(t, 2);
    const body = settings0202();
    const stored = expectStatus(await put(site, body), 200);
    assert.deepEqual(stored, body, 'PUT answers the body as stored (already in canonical form)');
    const read = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.deepEqual(expectStatus(read, 200), body);

    // The variant inherits all of it, then overrides 0.202 fields of its own.
    const inherited = await t.request({ method: 'GET', url: variantUrl(site) });
    assert.deepEqual(expectStatus(inherited, 200), body);
    const german = {
      localizedTitle: { de: 'Acme Doku' },
      styling: {
        codeTheme: { default: { light: 'github-light', dark: 'github-dark' } },
        headingFont: 'Merriweather',
      },
      header: { primaryLink: { kind: 'url', url: 'https://acme.example/de' } },
      socialAccounts: [
        {
          platform: 'mastodon',
          handle: 'acme@social.example',
          display: { footer: true, header: true },
        },
      ],
    };
    const effective = expectStatus(await patch(site, german), 200) as typeof body;
    assert.deepEqual(effective.localizedTitle, { de: 'Acme Doku' });
    assert.deepEqual(effective.styling.codeTheme, {
      default: { light: 'github-light', dark: 'github-dark' },
      openapi: body.styling.codeTheme.openapi,
    });
    assert.equal(effective.styling.headingFont, 'Merriweather');
    assert.deepEqual(effective.styling.font, body.styling.font, 'the custom font is inherited');
    assert.deepEqual(effective.header.primaryLink, german.header.primaryLink);
    assert.deepEqual(effective.header.links, body.header.links);
    assert.deepEqual(effective.socialAccounts, german.socialAccounts);
    const again = await t.request({ method: 'GET', url: variantUrl(site) });
    assert.deepEqual(expectStatus(again, 200), effective);

    const removed = await t.request({ method: 'DELETE', url: variantUrl(site) });
    assert.equal(removed.statusCode, 205);
    const back = await t.request({ method: 'GET', url: variantUrl(site) });
    assert.deepEqual(expectStatus(back, 200), body);
  });

  test('null resets the new fields of an override to the site value', async () => {
    const site = await createSite(t, 2);
    expectStatus(await put(site, settings0202()), 200);
    expectStatus(
      await patch(site, {
        localizedTitle: { fr: 'Docs Acme' },
        styling: { headingFont: 'Lato', codeTheme: { openapi: { light: 'nord', dark: 'nord' } } },
        header: { primaryLink: { kind: 'space', space: 'other' } },
      }),
      200,
    );
    const reset = expectStatus(
      await patch(site, {
        localizedTitle: null,
        styling: { headingFont: null, codeTheme: { openapi: null } },
        header: { primaryLink: null },
      }),
      200,
    );
    assert.deepEqual(reset, settings0202());
  });

  test('a 0.130 body is still accepted and answered with the 0.202 fields too', async () => {
    const site = await createSite(t, 1);
    const { codeTheme: _c, ...styling0130 } = DEFAULT_SETTINGS.styling;
    const { socialAccounts: _s, ...rest } = DEFAULT_SETTINGS;
    const body0130 = {
      ...rest,
      styling: styling0130,
      pageActions: { externalAI: false, markdown: true },
    };
    const stored = expectStatus(await put(site, body0130), 200) as typeof DEFAULT_SETTINGS;
    assert.deepEqual(stored.pageActions, {
      items: ['markdown'],
      externalAI: false,
      markdown: true,
    });
    assert.deepEqual(stored.styling.codeTheme, DEFAULT_SETTINGS.styling.codeTheme);
    assert.deepEqual(stored.socialAccounts, []);
  });
});

describe('pageActions: both generations in, one stored form', () => {
  const cases: [string, object, string[]][] = [
    ['items only (0.202)', { items: ['pdf', 'markdown'] }, ['pdf', 'markdown']],
    ['duplicates are dropped, the first kept', { items: ['git', 'pdf', 'git'] }, ['git', 'pdf']],
    ['an empty list: no menu', { items: [] }, []],
    [
      'booleans only (0.130) edit the defaults',
      { externalAI: false, markdown: true },
      ['markdown'],
    ],
    ['one boolean only', { externalAI: false }, ['markdown']],
    [
      'true adds a missing action at the end',
      { externalAI: true, markdown: true },
      ['markdown', 'external-ai'],
    ],
    [
      'items win over the booleans sent beside them (a 0.202 client sends back what it read)',
      { items: ['external-ai'], externalAI: true, markdown: true },
      ['external-ai'],
    ],
    ['an empty object takes the defaults', {}, ['markdown', 'external-ai']],
  ];
  for (const [name, pageActions, items] of cases) {
    test(`PUT: ${name}`, async () => {
      const site = await createSite(t, 1);
      const stored = expectStatus(await put(site, { pageActions }), 200);
      assert.deepEqual(stored.pageActions, {
        items,
        externalAI: items.includes('external-ai'),
        markdown: items.includes('markdown'),
      });
    });
  }

  test('PATCH: booleans edit the variant’s current list; items replace it', async () => {
    const site = await createSite(t, 2);
    expectStatus(await put(site, { pageActions: { items: ['mcp', 'markdown'] } }), 200);
    const edited = expectStatus(await patch(site, { pageActions: { externalAI: true } }), 200);
    assert.deepEqual(edited.pageActions, {
      items: ['mcp', 'markdown', 'external-ai'],
      externalAI: true,
      markdown: true,
    });
    const twice = await patch(site, { pageActions: { externalAI: true } });
    assert.deepEqual(expectStatus(twice, 200).pageActions, edited.pageActions, 'idempotent');
    const replaced = expectStatus(await patch(site, { pageActions: { items: ['pdf'] } }), 200);
    assert.deepEqual(replaced.pageActions, { items: ['pdf'], externalAI: false, markdown: false });
    const site0 = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.deepEqual((expectStatus(site0, 200).pageActions as { items: string[] }).items, [
      'mcp',
      'markdown',
    ]);
  });
});

describe('other canonical forms', () => {
  test('an empty header condition is no condition; headingFont null is the main font', async () => {
    const site = await createSite(t, 1);
    const item = { title: 'Status', to: null, links: [] };
    const stored = expectStatus(
      await put(site, {
        header: {
          links: [
            { ...item, condition: '' },
            { ...item, condition: 'visitor.claims.beta' },
          ],
        },
        styling: { headingFont: null },
      }),
      200,
    ) as typeof DEFAULT_SETTINGS;
    assert.deepEqual(stored.header.links, [item, { ...item, condition: 'visitor.claims.beta' }]);
    assert.equal('headingFont' in stored.styling, false);
  });
});

describe('bad values of the new fields: a 400 naming the field, nothing stored', () => {
  const font = (face: object) => ({
    styling: { font: { id: 'acme', custom: true, fontFamily: 'Acme Sans', fontFaces: [face] } },
  });
  const source = { url: 'https://fonts.example/acme.woff2', format: 'woff2' };
  const cases: [string, object, RegExp][] = [
    [
      'font weight 0',
      font({ weight: 0, sources: [source] }),
      /fontFaces\[0\]\.weight must be >= 1/,
    ],
    [
      'font weight 1001',
      font({ weight: 1001, sources: [source] }),
      /fontFaces\[0\]\.weight must be <= 1000/,
    ],
    ['font weight 400.5', font({ weight: 400.5, sources: [source] }), /weight must be an integer/],
    ['no font source', font({ weight: 400, sources: [] }), /sources must have at least 1 item/],
    [
      'ftp font URL',
      font({ weight: 400, sources: [{ url: 'ftp://x/a.woff2' }] }),
      /sources\[0\]\.url must be an absolute http\(s\) URL/,
    ],
    [
      'relative font URL',
      font({ weight: 400, sources: [{ url: '/a.woff2' }] }),
      /sources\[0\]\.url must be/,
    ],
    [
      'font format ttf',
      font({ weight: 400, sources: [{ ...source, format: 'ttf' }] }),
      /format must be one of "woff2", "woff"/,
    ],
    [
      'font family over 50',
      {
        styling: {
          font: {
            id: 'a',
            custom: true,
            fontFamily: 'x'.repeat(51),
            fontFaces: [{ weight: 400, sources: [source] }],
          },
        },
      },
      /fontFamily must be at most 50 characters/,
    ],
    [
      'unknown default font',
      { styling: { headingFont: 'Comic Sans' } },
      /styling\.headingFont must be one of/,
    ],
    [
      'unknown code theme',
      {
        styling: {
          codeTheme: {
            default: { light: 'neon', dark: 'nord' },
            openapi: { light: 'nord', dark: 'nord' },
          },
        },
      },
      /codeTheme\.default\.light must be one of "default-light"/,
    ],
    [
      'code theme without dark',
      { styling: { codeTheme: { default: { light: 'nord' } } } },
      /codeTheme\.default\.dark is required/,
    ],
    [
      'unknown platform',
      {
        socialAccounts: [
          { platform: 'myspace', handle: 'a', display: { footer: true, header: false } },
        ],
      },
      /socialAccounts\[0\]\.platform must be one of/,
    ],
    [
      'empty handle',
      {
        socialAccounts: [
          { platform: 'github', handle: '', display: { footer: true, header: false } },
        ],
      },
      /socialAccounts\[0\]\.handle must be at least 1/,
    ],
    [
      'display incomplete',
      { socialAccounts: [{ platform: 'github', handle: 'a', display: { footer: true } }] },
      /display\.header is required/,
    ],
    [
      '11 social accounts',
      {
        socialAccounts: Array(11).fill({
          platform: 'github',
          handle: 'a',
          display: { footer: true, header: false },
        }),
      },
      /socialAccounts must have at most 10 items/,
    ],
    [
      'unknown language key',
      { localizedTitle: { klingon: 'Qapla' } },
      /localizedTitle\.klingon is not a known key/,
    ],
    [
      'localized title over 128',
      { localizedTitle: { fr: 'x'.repeat(129) } },
      /localizedTitle\.fr must be at most 128/,
    ],
    [
      'announcement localized message over 128',
      {
        announcement: {
          enabled: true,
          message: 'Hi',
          style: 'info',
          localizedMessage: { de: 'x'.repeat(129) },
        },
      },
      /announcement\.localizedMessage\.de must be at most 128/,
    ],
    [
      'link localized title over 64',
      {
        footer: {
          groups: [
            {
              title: 'G',
              links: [
                {
                  title: 'L',
                  localizedTitle: { fr: 'x'.repeat(65) },
                  to: { kind: 'url', url: 'https://a.example' },
                },
              ],
            },
          ],
        },
      },
      /links\[0\]\.localizedTitle\.fr must be at most 64/,
    ],
    [
      'unknown page action',
      { pageActions: { items: ['print'] } },
      /pageActions\.items\[0\] must be one of "assistant"/,
    ],
    ['page actions not an object', { pageActions: ['markdown'] }, /pageActions must be an object/],
    [
      'greeting over 256',
      { ai: { mode: 'assistant', greeting: 'x'.repeat(257) } },
      /ai\.greeting must be at most 256/,
    ],
    [
      'six suggestions',
      {
        ai: {
          mode: 'assistant',
          suggestions: ['How?', 'Why?', 'When?', 'Who?', 'What?', 'Where?'],
        },
      },
      /ai\.suggestions must have at most 5/,
    ],
    [
      'a two-character suggestion',
      { ai: { mode: 'search', suggestions: ['Hi'] } },
      /ai\.suggestions\[0\] must be at least 3/,
    ],
    [
      'instructions over 10,000',
      { ai: { mode: 'search', instructions: 'x'.repeat(10_001) } },
      /ai\.instructions must be at most 10000/,
    ],
    [
      'primary link of an unknown kind',
      { header: { primaryLink: { kind: 'email', email: 'a@b' } } },
      /header\.primaryLink\.kind must be one of/,
    ],
    [
      'primary link javascript:',
      { header: { primaryLink: { kind: 'url', url: 'javascript:alert(1)' } } },
      /header\.primaryLink\.url must be an absolute http\(s\) or mailto: URL/,
    ],
    [
      'tag link without tag',
      { header: { primaryLink: { kind: 'tag' } } },
      /header\.primaryLink\.tag is required/,
    ],
    [
      'external link target',
      { externalLinks: { target: 'new' } },
      /externalLinks\.target must be one of "self", "blank"/,
    ],
    [
      'theme mode',
      { themes: { default: 'sepia', toggeable: true } },
      /themes\.default must be one of "light", "dark", "system"/,
    ],
  ];

  for (const [name, body, message] of cases) {
    test(`${name}: PUT and PATCH refuse it`, async () => {
      const site = await createSite(t, 2);
      const before = await t.request({ method: 'GET', url: variantUrl(site) });
      assert.match(expectError(await put(site, body), 400), message);
      const forPatch = { ...(body as object) } as Record<string, unknown>;
      delete forPatch.ai; // site-level only: the PATCH refuses `ai` itself
      if (Object.keys(forPatch).length > 0) {
        assert.match(expectError(await patch(site, forPatch), 400), message);
      }
      const after = await t.request({ method: 'GET', url: variantUrl(site) });
      assert.equal(after.headers.etag, before.headers.etag, 'nothing stored');
      assert.equal(after.body, before.body);
    });
  }
});

describe('migration 0010: settings stored before GitBook 0.202 fields existed', () => {
  test('get the 0.202 fields, the items derived from the 0.130 booleans; idempotent', async () => {
    const site = await createSite(t, 3);
    const { codeTheme: _c, ...oldStyling } = DEFAULT_SETTINGS.styling;
    const { socialAccounts: _s, ...oldRest } = DEFAULT_SETTINGS;
    const old = {
      ...oldRest,
      styling: oldStyling,
      pageActions: { externalAI: true, markdown: false },
    };
    await t.db
      .updateTable('sites')
      .set({ customization: JSON.stringify(old) })
      .where('id', '=', site.siteId)
      .execute();
    const overrides = [
      { pageActions: { markdown: true } },
      { title: 'Kept', pageActions: { externalAI: false } },
    ];
    for (const [i, override] of overrides.entries()) {
      await t.db
        .updateTable('site_spaces')
        .set({ override: JSON.stringify(override) })
        .where('id', '=', site.siteSpaceIds[i + 1] ?? '')
        .execute();
    }
    await upgrade0010(t.db as never);
    await upgrade0010(t.db as never);

    const row = await t.db
      .selectFrom('sites')
      .select('customization')
      .where('id', '=', site.siteId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.customization ?? ''), {
      ...old,
      styling: { ...oldStyling, codeTheme: DEFAULT_SETTINGS.styling.codeTheme },
      pageActions: { items: ['external-ai'], externalAI: true, markdown: false },
      socialAccounts: [],
    });
    const stored = await t.db
      .selectFrom('site_spaces')
      .select(['id', 'override'])
      .where('site_id', '=', site.siteId)
      .execute();
    const overrideOf = (id: string | undefined) =>
      JSON.parse(stored.find((r) => r.id === id)?.override ?? 'null');
    assert.equal(overrideOf(site.siteSpaceIds[0]), null);
    assert.deepEqual(overrideOf(site.siteSpaceIds[1]), {
      pageActions: { items: ['external-ai', 'markdown'], externalAI: true, markdown: true },
    });
    assert.deepEqual(overrideOf(site.siteSpaceIds[2]), {
      title: 'Kept',
      pageActions: { items: [], externalAI: false, markdown: false },
    });
  });
});
