import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKEND, createTestDatabase } from '../helpers/backend.js';
import { call } from '../helpers/load.js';
import { run, startServer } from '../helpers/process.js';

const TOKEN = 'gb_seed-test-token-0123456789abcdef';

test(`npm run seed fills a database that the server then serves (${BACKEND})`, async () => {
  const database = await createTestDatabase();
  try {
    const seeded = await run(
      [
        '--import',
        'tsx',
        'scripts/seed.ts',
        '--sites',
        '30',
        '--variants',
        '3',
        '--batch',
        '7',
        '--token',
        TOKEN,
      ],
      { DATABASE_URL: database.url },
    );
    assert.equal(seeded.code, 0, `${seeded.stdout}${seeded.stderr}`);
    const line = /^seed-result (.*)$/m.exec(seeded.stdout)?.[1];
    assert.ok(line, seeded.stdout);
    const result = JSON.parse(line) as Record<string, string | number>;
    assert.equal(result.sites, 30);
    assert.equal(result.rows, 30 * (1 + 3 + 3), 'per site: the site, 3 spaces, 3 site-spaces');

    // The owner's token was created by the seed: the server finds the database non-empty and
    // does not bootstrap another organization.
    const server = await startServer({ DATABASE_URL: database.url, LIVERY_BOOTSTRAP_TOKEN: TOKEN });
    try {
      assert.doesNotMatch(server.stdout(), /Livery first start/);
      const org = `/v1/orgs/${result.organizationId}`;
      const sites = await call(server.url, TOKEN, 'GET', `${org}/sites?limit=10`);
      assert.equal(sites.status, 200);
      assert.equal(sites.body.count, 30);
      const site = `${org}/sites/${result.siteId}`;
      const variants = await call(server.url, TOKEN, 'GET', `${site}/site-spaces`);
      assert.equal(variants.body.count, 3);
      const items = variants.body.items as { path: string; default: boolean }[];
      assert.deepEqual(
        items.map((v) => v.default),
        [true, false, false],
        'the first variant is the default',
      );
      assert.equal(new Set(items.map((v) => v.path)).size, 3, 'paths unique within the site');
      const customization = await call(
        server.url,
        TOKEN,
        'GET',
        `${site}/site-spaces/${result.siteSpaceId}/customization`,
      );
      assert.equal(customization.status, 200);
      assert.ok(customization.etag, 'an ETag from the seeded versions');
      // A seeded row is one the API could have written: a PATCH on it works as on any other.
      const patched = await call(
        server.url,
        TOKEN,
        'PATCH',
        `${site}/site-spaces/${result.siteSpaceId}/customization`,
        { title: 'Patched after seeding' },
        { 'if-match': customization.etag ?? '' },
      );
      assert.equal(patched.status, 200);
      assert.equal(patched.body.title, 'Patched after seeding');
    } finally {
      await server.stop();
    }
  } finally {
    await database.dispose();
  }
});
