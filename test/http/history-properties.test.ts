import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalPatch, pageActionsOf } from '../../src/settings/canonical.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { applyPatch, type JsonPatch } from '../../src/settings/json-patch.js';
import { effectiveSettings, type JsonValue } from '../../src/settings/merge.js';
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

/**
 * Customization history replayed: whatever sequence of writes and restores a site and its
 * variants go through, each revision's `changes` turn the previous revision's document into its
 * own, the last document is the current state, and compare?from&to turns one into the other.
 */

const VARIANTS = 2;

/** PUT bodies as properties.test.ts makes them; PATCH bodies as sent. */
const settings = (arbitraryFor(SettingsSchema as never) as fc.Arbitrary<Settings>).map(
  (s) => canonicalPatch(s, () => pageActionsOf([])) as Settings,
);
const sentPatch = arbitraryFor(OverridePatchSchema as never) as fc.Arbitrary<SettingsPatch>;
/** -1: the site; 0…VARIANTS-1: a variant. */
const variant = fc.nat(VARIANTS - 1);

type Step =
  | { kind: 'put'; body: Settings }
  | { kind: 'patch'; variant: number; body: SettingsPatch }
  | { kind: 'delete'; variant: number }
  | { kind: 'restore'; target: number; pick: number };

const put = (body: fc.Arbitrary<Settings>) =>
  fc.record({ kind: fc.constant('put' as const), body });
const patch = (body: fc.Arbitrary<SettingsPatch>) =>
  fc.record({ kind: fc.constant('patch' as const), variant, body });
// Small bodies too: they clear fields (back to the defaults, or out of an override), which the
// large random ones rarely do, so that histories hold `remove` operations.
const small = { title: 'Tt', styling: { corners: 'straight' } } as const;
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: put(settings) },
  { weight: 1, arbitrary: put(fc.constantFrom({}, small) as fc.Arbitrary<Settings>) },
  { weight: 2, arbitrary: patch(sentPatch) },
  { weight: 2, arbitrary: patch(fc.constantFrom(small, { title: null, styling: null })) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), variant }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('restore' as const),
      target: fc.integer({ min: -1, max: VARIANTS - 1 }),
      pick: fc.nat(),
    }),
  },
);

let t: TestContext;
before(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' }); // thousands of requests, one token
});
after(async () => t.close());

const customizationOf = (site: SiteFixture, target: number) =>
  target < 0
    ? `${site.base}/customization`
    : `${site.base}/site-spaces/${site.siteSpaceIds[target]}/customization`;

async function get(url: string) {
  return expectStatus(await t.request({ method: 'GET', url }), 200);
}

async function run(site: SiteFixture, s: Step): Promise<void> {
  switch (s.kind) {
    case 'put': {
      const response = await t.request({
        method: 'PUT',
        url: customizationOf(site, -1),
        payload: s.body,
      });
      expectStatus(response, 200);
      return;
    }
    case 'patch': {
      const url = customizationOf(site, s.variant);
      expectStatus(await t.request({ method: 'PATCH', url, payload: s.body }), 200);
      return;
    }
    case 'delete': {
      const response = await t.request({ method: 'DELETE', url: customizationOf(site, s.variant) });
      assert.ok([204, 205].includes(response.statusCode), response.body);
      return;
    }
    case 'restore': {
      const url = `${customizationOf(site, s.target)}/revisions`;
      const newest = (await get(`${url}?limit=1`)).items as { number: number }[];
      const number =
        newest.length === 0 ? 1 : 1 + (s.pick % (newest[0] as { number: number }).number);
      const response = await t.request({ method: 'POST', url: `${url}/${number}/restore` });
      expectStatus(response, newest.length === 0 ? 404 : 200);
    }
  }
}

interface Revision {
  number: number;
  etag: string;
  changes: JsonPatch;
  document: JsonValue;
  effective?: unknown;
}

/** A history oldest first, each revision with its document (a variant's "none" is `{}`). */
async function historyOf(url: string): Promise<Revision[]> {
  const list = await get(`${url}/revisions?limit=100`);
  const items = (list.items as Omit<Revision, 'document'>[]).toReversed();
  assert.equal(list.count, items.length);
  assert.deepEqual(
    items.map((item) => item.number),
    items.map((_, index) => index + 1),
  );
  const revisions: Revision[] = [];
  for (const item of items) {
    const one = await get(`${url}/revisions/${item.number}`);
    assert.deepEqual(one.changes, item.changes);
    revisions.push({
      ...item,
      document: (one.settings ?? {}) as JsonValue,
      effective: one.effective,
    });
  }
  return revisions;
}

/** Replays a history from `start`; answers the last document. */
function replay(start: JsonValue, revisions: Revision[]): JsonValue {
  let document = start;
  for (const revision of revisions) {
    document = applyPatch(document, revision.changes);
    assert.deepEqual(document, revision.document, `revision ${revision.number}`);
  }
  return document;
}

/** compare?from=i&to=j applied to document i gives document j (0: `start`). */
async function checkCompare(
  url: string,
  start: JsonValue,
  revisions: Revision[],
  pairs: number[][],
) {
  const documents = [start, ...revisions.map((revision) => revision.document)];
  for (const [i = 0, j = 0] of pairs) {
    const [from, to] = [i % documents.length, j % documents.length];
    const comparison = await get(`${url}/revisions/compare?from=${from}&to=${to}`);
    assert.deepEqual({ from: comparison.from, to: comparison.to }, { from, to });
    const changes = comparison.changes as JsonPatch;
    assert.deepEqual(applyPatch(documents[from] as JsonValue, changes), documents[to]);
    if (from === to) assert.deepEqual(changes, []);
  }
}

describe('customization history replays to the stored documents (real app, real database)', () => {
  test('random writes and restores: changes replay, compare applies, the last is current', async () => {
    const pair = fc.tuple(fc.nat(), fc.nat());
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 5, maxLength: 15 }),
        fc.array(pair, { minLength: 1, maxLength: 3 }),
        async (steps, pairs) => {
          const site = await createSite(t, VARIANTS);
          for (const s of steps) await run(site, s);

          const siteUrl = customizationOf(site, -1);
          const defaults = DEFAULT_SETTINGS as unknown as JsonValue;
          const siteHistory = await historyOf(siteUrl);
          const current = await t.request({ method: 'GET', url: siteUrl });
          const siteSettings = expectStatus(current, 200) as unknown as Settings;
          assert.deepEqual(replay(defaults, siteHistory), siteSettings);
          assert.equal(current.headers.etag, siteHistory.at(-1)?.etag ?? current.headers.etag);
          await checkCompare(siteUrl, defaults, siteHistory, pairs);

          for (let index = 0; index < VARIANTS; index++) {
            const url = customizationOf(site, index);
            const history = await historyOf(url);
            const override = replay({}, history) as SettingsPatch;
            const response = await t.request({ method: 'GET', url });
            const effective = expectStatus(response, 200);
            assert.deepEqual(effective, effectiveSettings(siteSettings, override));
            // The same ETag: neither the site nor the override changed since that revision.
            const last = history.at(-1);
            if (last?.etag === response.headers.etag) assert.deepEqual(last?.effective, effective);
            await checkCompare(url, {}, history, pairs);
          }
        },
      ),
      { numRuns: 25, includeErrorInReport: true },
    );
  });
});
