import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

const variantBase = (site: SiteFixture, index = 0) =>
  `${site.base}/site-spaces/${site.siteSpaceIds[index]}/customization`;

async function put(site: SiteFixture, payload: Record<string, unknown>, headers = {}) {
  return t.request({ method: 'PUT', url: `${site.base}/customization`, payload, headers });
}

async function auditOf(target: string) {
  const response = await t.request({
    method: 'GET',
    url: `/v1/orgs/${t.orgId}/audit-log?target=${target}&action=customization.*`,
  });
  return expectStatus(response, 200).items as Record<string, unknown>[];
}

describe('site customization history', () => {
  test('PUT a, PUT b, restore 1: the settings are a again, with three revisions', async () => {
    const site = await createSite(t, 1);
    const a = expectStatus(await put(site, { title: 'Aa' }), 200);
    expectStatus(await put(site, { title: 'Bb' }), 200);
    const restored = await t.request({
      method: 'POST',
      url: `${site.base}/customization/revisions/1/restore`,
    });
    assert.deepEqual(expectStatus(restored, 200), a);
    const etag = restored.headers.etag;
    const get = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.deepEqual(expectStatus(get, 200), a);
    assert.equal(get.headers.etag, etag);

    const list = expectStatus(
      await t.request({ method: 'GET', url: `${site.base}/customization/revisions` }),
      200,
    );
    assert.equal(list.count, 3);
    const items = list.items as Record<string, unknown>[];
    assert.deepEqual(
      items.map((item) => [item.number, item.operation, item.restoredFrom]),
      [
        [3, 'restore', 1],
        [2, 'put', undefined],
        [1, 'put', undefined],
      ],
    );
    assert.equal(items[0]?.etag, etag);
    const actor = items[0]?.actor as { user: string; token: string };
    assert.equal(actor.user, t.userId);
    assert.equal(typeof actor.token, 'string', 'the token the change was made with');
    assert.deepEqual(items[1]?.changes, [{ op: 'replace', path: '/title', value: 'Bb' }]);
    assert.equal('settings' in (items[0] as object), false, 'lists carry no documents');

    const one = expectStatus(
      await t.request({ method: 'GET', url: `${site.base}/customization/revisions/2` }),
      200,
    );
    assert.equal((one.settings as { title: string }).title, 'Bb');
    assert.equal('effective' in one, false);

    const audit = await auditOf(site.siteId);
    assert.deepEqual(
      audit.map((entry) => [entry.action, (entry.details as { revision: number }).revision]),
      [
        ['customization.restored', 3],
        ['customization.updated', 2],
        ['customization.updated', 1],
      ],
    );
  });

  test('a write or restore that changes nothing records nothing', async () => {
    const site = await createSite(t, 1);
    expectStatus(await put(site, { title: 'Same' }), 200);
    expectStatus(await put(site, { title: 'Same' }), 200);
    const again = await t.request({
      method: 'POST',
      url: `${site.base}/customization/revisions/1/restore`,
    });
    expectStatus(again, 200);
    const list = await t.request({ method: 'GET', url: `${site.base}/customization/revisions` });
    assert.equal(expectStatus(list, 200).count, 1);
    assert.equal((await auditOf(site.siteId)).length, 1);
  });

  test('compare: from 0 (the defaults) to 2, and 2 to 1', async () => {
    const site = await createSite(t, 1);
    expectStatus(await put(site, { title: 'One' }), 200);
    expectStatus(await put(site, { title: 'Two', styling: { corners: 'straight' } }), 200);
    const url = `${site.base}/customization/revisions/compare`;
    const forward = expectStatus(
      await t.request({ method: 'GET', url: `${url}?from=0&to=2` }),
      200,
    );
    assert.deepEqual(forward.changes, [
      { op: 'replace', path: '/styling/corners', value: 'straight' },
      { op: 'add', path: '/title', value: 'Two' },
    ]);
    assert.equal('title' in DEFAULT_SETTINGS, false);
    assert.equal(DEFAULT_SETTINGS.styling.corners, 'rounded');
    const back = expectStatus(await t.request({ method: 'GET', url: `${url}?from=2&to=1` }), 200);
    assert.deepEqual(back.changes, [
      { op: 'replace', path: '/styling/corners', value: 'rounded' },
      { op: 'replace', path: '/title', value: 'One' },
    ]);
  });

  test('refusals change nothing and record nothing', async () => {
    const site = await createSite(t, 1);
    const first = await put(site, { title: 'Kept' });
    expectStatus(first, 200);
    expectStatus(await put(site, { title: 'Later' }), 200);
    const url = `${site.base}/customization/revisions`;
    const cases: [string, string, number, RegExp][] = [
      ['POST', `${url}/9/restore`, 404, /params\.number: no revision 9/],
      ['GET', `${url}/9`, 404, /params\.number/],
      ['GET', `${url}/0`, 400, /params\.number/],
      ['GET', `${url}/x`, 400, /params\.number/],
      ['GET', `${url}/compare?from=1&to=7`, 404, /querystring\.to: no revision 7/],
      ['GET', `${url}/compare?from=-1&to=1`, 400, /querystring\.from/],
      ['GET', `${url}/compare?from=a&to=1`, 400, /querystring\.from/],
      ['GET', `${url}/compare?from=1.5&to=1`, 400, /querystring\.from/],
      ['GET', `${url}/compare?to=1`, 400, /from/],
    ];
    for (const [method, target, status, message] of cases) {
      const response = await t.request({ method: method as 'GET', url: target });
      assert.match(expectError(response, status), message, target);
    }
    const stale = await t.request({
      method: 'POST',
      url: `${url}/1/restore`,
      headers: { 'if-match': first.headers.etag as string },
    });
    expectError(stale, 412);
    assert.notEqual(stale.headers.etag, first.headers.etag);
    const list = expectStatus(await t.request({ method: 'GET', url }), 200);
    assert.equal(list.count, 2);
    assert.equal((await auditOf(site.siteId)).length, 2);
    const current = await t.request({ method: 'GET', url: `${site.base}/customization` });
    assert.equal(expectStatus(current, 200).title, 'Later');
  });

  test("a variant's revision is not reachable through the site route or another site", async () => {
    const site = await createSite(t, 1);
    const other = await createSite(t, 1);
    expectStatus(
      await t.request({ method: 'PATCH', url: variantBase(site), payload: { title: 'Vv' } }),
      200,
    );
    for (const url of [
      `${site.base}/customization/revisions/1`,
      `${site.base}/customization/revisions/1/restore`,
      `${other.base}/customization/revisions/1/restore`,
      `${other.base}/site-spaces/${site.siteSpaceIds[0]}/customization/revisions/1/restore`,
    ]) {
      const method = url.endsWith('restore') ? 'POST' : 'GET';
      expectError(await t.request({ method, url }), 404);
    }
  });
});

describe('variant customization history', () => {
  test('PATCH, PATCH, DELETE, restore 2: the override and effective settings come back', async () => {
    const site = await createSite(t, 2);
    const base = variantBase(site);
    expectStatus(await t.request({ method: 'PATCH', url: base, payload: { title: 'V1' } }), 200);
    const second = await t.request({
      method: 'PATCH',
      url: base,
      payload: { styling: { corners: 'straight' } },
    });
    const effective = expectStatus(second, 200);
    assert.equal((await t.request({ method: 'DELETE', url: base })).statusCode, 205);
    const restored = await t.request({ method: 'POST', url: `${base}/revisions/2/restore` });
    assert.deepEqual(expectStatus(restored, 200), effective);

    const list = expectStatus(await t.request({ method: 'GET', url: `${base}/revisions` }), 200);
    const items = list.items as Record<string, unknown>[];
    assert.deepEqual(
      items.map((item) => [item.number, item.operation]),
      [
        [4, 'restore'],
        [3, 'delete'],
        [2, 'patch'],
        [1, 'patch'],
      ],
    );
    assert.deepEqual(items[1]?.changes, [
      { op: 'remove', path: '/styling' },
      { op: 'remove', path: '/title' },
    ]);
    assert.deepEqual(items[3]?.changes, [{ op: 'add', path: '/title', value: 'V1' }]);
    const deleted = expectStatus(
      await t.request({ method: 'GET', url: `${base}/revisions/3` }),
      200,
    );
    assert.equal(deleted.settings, null);
    const two = expectStatus(await t.request({ method: 'GET', url: `${base}/revisions/2` }), 200);
    assert.deepEqual(two.settings, { title: 'V1', styling: { corners: 'straight' } });
    assert.deepEqual(two.effective, effective);
    // The other variant's history is its own.
    const otherList = await t.request({ method: 'GET', url: `${variantBase(site, 1)}/revisions` });
    assert.equal(expectStatus(otherList, 200).count, 0);
  });

  test('revisions page newest first, each exactly once', async () => {
    const site = await createSite(t, 1);
    const base = variantBase(site);
    for (let i = 1; i <= 5; i++) {
      const patch = await t.request({ method: 'PATCH', url: base, payload: { title: `T${i}` } });
      expectStatus(patch, 200);
    }
    const seen: number[] = [];
    let url = `${base}/revisions?limit=2`;
    for (;;) {
      const page = expectStatus(await t.request({ method: 'GET', url }), 200);
      assert.equal(page.count, 5);
      seen.push(...(page.items as { number: number }[]).map((item) => item.number));
      const next = page.next as { page: string } | undefined;
      if (next === undefined) break;
      url = `${base}/revisions?limit=2&page=${next.page}`;
    }
    assert.deepEqual(seen, [5, 4, 3, 2, 1]);
  });
});

describe('retention', () => {
  test('CUSTOMIZATION_HISTORY_KEEP=3 keeps the newest three; numbers go on', async () => {
    const kept = await createTestApp({ CUSTOMIZATION_HISTORY_KEEP: '3' });
    try {
      const site = await createSite(kept, 1);
      for (let i = 1; i <= 6; i++) {
        const response = await kept.request({
          method: 'PUT',
          url: `${site.base}/customization`,
          payload: { title: `K${i}` },
        });
        expectStatus(response, 200);
      }
      const url = `${site.base}/customization/revisions`;
      const list = expectStatus(await kept.request({ method: 'GET', url }), 200);
      assert.deepEqual(
        (list.items as { number: number }[]).map((item) => item.number),
        [6, 5, 4],
      );
      assert.match(
        expectError(await kept.request({ method: 'GET', url: `${url}/3` }), 404),
        /pruned/,
      );
      assert.match(
        expectError(await kept.request({ method: 'GET', url: `${url}/compare?from=2&to=5` }), 404),
        /querystring\.from/,
      );
      const restore = await kept.request({ method: 'POST', url: `${url}/4/restore` });
      assert.equal(expectStatus(restore, 200).title, 'K4');
      const after = expectStatus(await kept.request({ method: 'GET', url }), 200);
      assert.deepEqual(
        (after.items as { number: number }[]).map((item) => item.number),
        [7, 6, 5],
      );
    } finally {
      await kept.close();
    }
  });
});
