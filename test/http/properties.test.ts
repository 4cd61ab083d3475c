import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createBodyAjv } from '../../src/http/validation.js';
import { canonicalPatch, pageActionsOf } from '../../src/settings/canonical.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { effectiveSettings, mergeOverride, type Override } from '../../src/settings/merge.js';
import {
  OverridePatchSchema,
  type Settings,
  type SettingsPatch,
  SettingsSchema,
} from '../../src/settings/settings-schema.js';
import {
  createSite,
  createTestApp,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import { arbitraryFor } from '../helpers/arbitrary.js';

const ajv = createBodyAjv();
const isSettings = ajv.compile(SettingsSchema);
const isOverridePatch = ajv.compile(OverridePatchSchema);

/** Settings in stored form: `pageActions` booleans follow `items`, no empty header condition. */
const settings = (arbitraryFor(SettingsSchema as never) as fc.Arbitrary<Settings>).map(
  (s) => canonicalPatch(s, () => pageActionsOf([])) as Settings,
);
/** PATCH bodies as sent, and in stored form (what the merge functions receive). */
const sentPatch = arbitraryFor(OverridePatchSchema as never) as fc.Arbitrary<SettingsPatch>;
const patch = sentPatch.map((p) => canonicalPatch(p, () => DEFAULT_SETTINGS.pageActions));
/** A stored override is whatever PATCH bodies leave behind. */
const storedOverride = patch.map((p) => mergeOverride({}, p));

describe('properties of the merge (pure functions, many runs)', () => {
  test('the generators produce what the validators accept', () => {
    fc.assert(
      fc.property(settings, (s) => isSettings(s)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(sentPatch, (p) => isOverridePatch(p)),
      { numRuns: 300 },
    );
  });

  test('applying the same PATCH twice equals applying it once', () => {
    fc.assert(
      fc.property(storedOverride, patch, (stored, p) => {
        const once = mergeOverride(stored, p);
        assert.deepEqual(mergeOverride(once, p), once);
      }),
      { numRuns: 500 },
    );
  });

  test('PATCH {} changes nothing', () => {
    fc.assert(
      fc.property(storedOverride, (stored) => assert.deepEqual(mergeOverride(stored, {}), stored)),
      { numRuns: 300 },
    );
  });

  test('effective settings always validate against the settings schema', () => {
    fc.assert(
      fc.property(settings, fc.array(patch, { maxLength: 4 }), (site, patches) => {
        const override = patches.reduce<Override>((o, p) => mergeOverride(o, p), {});
        const effective = effectiveSettings(site, override);
        assert.ok(isSettings(effective), JSON.stringify(isSettings.errors));
      }),
      { numRuns: 500 },
    );
  });

  test('removing every overridden field (null) gives the site settings back', () => {
    fc.assert(
      fc.property(settings, patch, (site, p) => {
        const override = mergeOverride({}, p);
        const clearAll = Object.fromEntries(Object.keys(override).map((k) => [k, null]));
        const cleared = mergeOverride(override, clearAll as SettingsPatch);
        const expected = 'title' in clearAll ? withoutTitle(site) : site;
        assert.deepEqual(effectiveSettings(site, cleared), expected);
      }),
      { numRuns: 300 },
    );
  });
});

function withoutTitle(s: Settings): Settings {
  const { title: _title, ...rest } = s;
  return rest as Settings;
}

describe('properties through HTTP (real app, real database)', () => {
  let t: TestContext;
  let site: SiteFixture;
  before(async () => {
    t = await createTestApp();
    site = await createSite(t, 1);
  });
  after(async () => t.close());

  const variant = () => `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;

  test('random valid settings survive PUT → GET unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(settings, async (s) => {
        const put = await t.request({
          method: 'PUT',
          url: `${site.base}/customization`,
          payload: s,
        });
        assert.deepEqual(expectStatus(put, 200), s);
        const get = await t.request({ method: 'GET', url: `${site.base}/customization` });
        assert.deepEqual(expectStatus(get, 200), s);
      }),
      { numRuns: 60 },
    );
  });

  test('PATCH twice = PATCH once, PATCH {} changes nothing, effective settings validate', async () => {
    await fc.assert(
      fc.asyncProperty(sentPatch, async (p) => {
        const once = await t.request({ method: 'PATCH', url: variant(), payload: p });
        const effective = expectStatus(once, 200);
        assert.ok(isSettings(effective), JSON.stringify(isSettings.errors));
        const twice = await t.request({ method: 'PATCH', url: variant(), payload: p });
        assert.equal(twice.body, once.body);
        assert.equal(twice.headers.etag, once.headers.etag);
        const empty = await t.request({ method: 'PATCH', url: variant(), payload: {} });
        assert.equal(empty.body, once.body);
        assert.equal(empty.headers.etag, once.headers.etag);
      }),
      { numRuns: 60 },
    );
  });
});
