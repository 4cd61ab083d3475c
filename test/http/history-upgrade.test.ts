import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMigrator } from '../../src/db/migrate.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { applyPatch, type JsonPatch } from '../../src/settings/json-patch.js';
import type { JsonValue } from '../../src/settings/merge.js';
import { createSite, createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const get = async (url: string) => expectStatus(await t.request({ method: 'GET', url }), 200);

test(`upgrading gives customized sites and variants revision 1 (${BACKEND})`, async () => {
  const site = await createSite(t, 2);
  const variant = `${site.base}/site-spaces/${site.siteSpaceIds[0]}/customization`;
  const plain = `${site.base}/site-spaces/${site.siteSpaceIds[1]}/customization`;
  const put = { title: 'Before history', styling: { corners: 'straight' } };
  expectStatus(
    await t.request({ method: 'PUT', url: `${site.base}/customization`, payload: put }),
    200,
  );
  expectStatus(await t.request({ method: 'PATCH', url: variant, payload: { title: 'Vv' } }), 200);
  const settings = await get(`${site.base}/customization`);
  const effective = await get(variant);

  // Back to the release before history (its tables are dropped), then up again: the database
  // of a server that customized sites before history existed, upgraded.
  const migrator = await createMigrator(t.db);
  const down = await migrator.migrateTo('0012_site_token_keys');
  assert.equal(down.error, undefined);
  assert.ok(down.results?.some((result) => result.migrationName === '0013_history_and_audit'));
  const up = await migrator.migrateToLatest();
  assert.equal(up.error, undefined);

  const siteHistory = await get(`${site.base}/customization/revisions`);
  assert.equal(siteHistory.count, 1);
  const [baseline] = siteHistory.items as Record<string, unknown>[];
  assert.equal(baseline?.number, 1);
  assert.equal(baseline?.actor, null);
  assert.equal(baseline?.operation, 'put');
  const fromDefaults = applyPatch(
    DEFAULT_SETTINGS as unknown as JsonValue,
    baseline?.changes as JsonPatch,
  );
  assert.deepEqual(fromDefaults, settings);
  assert.deepEqual((await get(`${site.base}/customization/revisions/1`)).settings, settings);

  const variantRevision = await get(`${variant}/revisions/1`);
  assert.equal(variantRevision.operation, 'patch');
  assert.deepEqual(variantRevision.settings, { title: 'Vv' });
  assert.deepEqual(variantRevision.effective, effective);
  assert.deepEqual(variantRevision.changes, [{ op: 'add', path: '/title', value: 'Vv' }]);
  assert.equal((await get(`${plain}/revisions`)).count, 0, 'a variant never overridden has none');

  // History goes on from there.
  expectStatus(
    await t.request({ method: 'PUT', url: `${site.base}/customization`, payload: {} }),
    200,
  );
  const restored = await t.request({
    method: 'POST',
    url: `${site.base}/customization/revisions/1/restore`,
  });
  assert.deepEqual(expectStatus(restored, 200), settings);
  assert.equal((await get(`${site.base}/customization/revisions`)).count, 3);
});
