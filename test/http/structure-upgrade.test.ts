/**
 * Migration 0019 (site structure) on a database with sites: `site_spaces` is rebuilt on SQLite
 * and altered on PostgreSQL; every site-space keeps its fields, its customization override and
 * its place, and the rules of the new indexes hold (issue 29). Down and up again, too.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMigrator } from '../../src/db/migrate.js';
import { createSite, createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { BACKEND } from '../helpers/backend.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.request({ method, url, ...(payload === undefined ? {} : { payload }) });

test(`site-spaces survive migration 0019, down and up (${BACKEND})`, async () => {
  const site = await createSite(t, 2);
  const second = `${site.base}/site-spaces/${site.siteSpaceIds[1]}`;
  expectStatus(await send('PATCH', second, { hidden: true, path: 'two' }), 200);
  expectStatus(await send('PATCH', `${second}/customization`, { title: 'Second' }), 200);
  const before = expectStatus(await send('GET', `${site.base}/site-spaces`), 200);

  const migrator = await createMigrator(t.db);
  const down = await migrator.migrateTo('0018_change_request_previews');
  assert.equal(down.error, undefined);
  assert.ok(down.results?.some((r) => r.migrationName === '0019_site_structure'));
  const up = await migrator.migrateToLatest();
  assert.equal(up.error, undefined);

  assert.deepEqual(expectStatus(await send('GET', `${site.base}/site-spaces`), 200), before);
  const effective = expectStatus(await send('GET', `${second}/customization`), 200);
  assert.equal(effective.title, 'Second');

  // The new indexes: a path is unique per section, one default per section.
  const section = expectStatus(
    await send('POST', `${site.base}/sections`, { spaceId: null, title: 'Second section' }),
    201,
  );
  const added = expectStatus(
    await send('POST', `${site.base}/site-spaces`, {
      spaceId: site.spaceIds[0],
      sectionId: section.id,
      title: 'Two',
    }),
    201,
  );
  assert.equal(added.default, false);
  expectStatus(await send('PATCH', `${site.base}/site-spaces/${added.id}`, { path: 'two' }), 200);
  const taken = await send('PATCH', `${site.base}/site-spaces/${site.siteSpaceIds[0]}`, {
    path: 'two',
  });
  assert.equal(taken.statusCode, 409, 'the first section already has a site-space at "two"');
});
