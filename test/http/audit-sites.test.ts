import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Static } from 'typebox';
import type { AuditEntrySchema } from '../../src/modules/audit/schemas.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

/**
 * The audit entries of sites, share links and visitor authentication (issue 17): each write
 * through HTTP adds exactly its entry (action, target, details, the caller's user and token), a
 * write that changes nothing adds none, and a refused one (400/403/404/409) adds none either.
 */
let t: TestContext;
let actor: { user: string; token: string };
before(async () => {
  t = await createTestApp();
  const tokens = expectStatus(await t.request({ method: 'GET', url: '/v1/user/tokens' }), 200);
  const [own] = tokens.items as { id: string }[];
  actor = { user: t.userId, token: (own as { id: string }).id };
});
after(async () => t.close());

type Entry = Static<typeof AuditEntrySchema>;

async function log(): Promise<Entry[]> {
  const res = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/audit-log?limit=1000` });
  return expectStatus(res, 200).items as Entry[];
}

/** Sends the request, expects `status`, and answers the audit entries it added. */
async function added(options: InjectOptions, status: number, as = t.request) {
  const seen = new Set((await log()).map((e) => e.id));
  const res = await as(options);
  if (status >= 400) expectError(res, status);
  else expectStatus(res, status);
  const entries = (await log()).filter((e) => !seen.has(e.id));
  return { res, entries };
}

/** The request adds exactly this entry, made by the test app's owner with their token. */
async function expectEntry(
  options: InjectOptions,
  status: number,
  action: string,
  target: Entry['target'],
  details: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  const { res, entries } = await added(options, status);
  assert.equal(entries.length, 1, `one entry for ${action}: ${JSON.stringify(entries)}`);
  const [entry] = entries as [Entry];
  assert.deepEqual(
    { object: entry.object, actor: entry.actor, action: entry.action, target: entry.target },
    { object: 'audit-entry', actor, action, target },
  );
  assert.deepEqual(entry.details, details);
  return res;
}

/** The request (refused with `status`, or changing nothing) adds no entry. */
async function expectNone(options: InjectOptions, status: number): Promise<void> {
  const { entries } = await added(options, status);
  assert.deepEqual(entries, [], `no entry for ${options.method} ${options.url} (${status})`);
}

const site = (id: string) => ({ kind: 'site', id });
const sitesUrl = () => `/v1/orgs/${t.orgId}/sites`;

describe('sites', () => {
  test('createSite records site.created with the title; refused creations record nothing', async () => {
    const payload = { title: 'Handbook', spaces: 'empty' };
    const { res, entries } = await added({ method: 'POST', url: sitesUrl(), payload }, 201);
    assert.deepEqual(
      entries.map(({ actor, action, target, details }) => ({ actor, action, target, details })),
      [
        {
          actor,
          action: 'site.created',
          target: site(res.json().id),
          details: { title: 'Handbook' },
        },
      ],
    );
    const refused = { title: 'No', spaces: ['space_nope'] };
    await expectNone({ method: 'POST', url: sitesUrl(), payload: refused }, 400);
    const sample = { title: 'No', spaces: 'sample' };
    await expectNone({ method: 'POST', url: sitesUrl(), payload: sample }, 400);
  });

  test('publishSite and unpublishSite record only real changes; refusals record nothing', async () => {
    const f = await createSite(t, 1);
    const post = (what: string): InjectOptions => ({ method: 'POST', url: `${f.base}/${what}` });
    await expectEntry(post('publish'), 200, 'site.published', site(f.siteId), {});
    await expectNone(post('publish'), 200);
    await expectEntry(post('unpublish'), 200, 'site.unpublished', site(f.siteId), {});
    await expectNone(post('unpublish'), 200);
    const empty = await createSite(t, 0);
    await expectNone({ method: 'POST', url: `${empty.base}/publish` }, 400);
    await expectNone({ method: 'POST', url: `${sitesUrl()}/site_nope/publish` }, 404);
    const creator = await memberWithRole(t, 'create');
    const { entries } = await added(post('publish'), 403, (o) => requestAs(t, creator, o));
    assert.deepEqual(entries, []);
  });

  test('updateSiteById records visibility and basename changes with from and to', async () => {
    const f = await createSite(t, 1);
    const patch = (payload: object): InjectOptions => ({ method: 'PATCH', url: f.base, payload });
    await expectEntry(
      patch({ visibility: 'unlisted' }),
      200,
      'site.visibility.changed',
      site(f.siteId),
      {
        from: 'public',
        to: 'unlisted',
      },
    );
    await expectNone(patch({ visibility: 'unlisted' }), 200);
    await expectNone(patch({ title: 'Renamed' }), 200);
    const basename = `docs-${f.siteId.slice(-6).toLowerCase()}`;
    await expectEntry(patch({ basename }), 200, 'site.basename.changed', site(f.siteId), {
      from: null,
      to: basename,
    });
    await expectNone(patch({ basename }), 200);
    const { entries } = await added(
      patch({ visibility: 'share-link', basename: `${basename}-2` }),
      200,
    );
    assert.deepEqual(entries.map((e) => [e.action, e.target, e.details, e.actor]).sort(), [
      ['site.basename.changed', site(f.siteId), { from: basename, to: `${basename}-2` }, actor],
      ['site.visibility.changed', site(f.siteId), { from: 'unlisted', to: 'share-link' }, actor],
    ]);
  });

  test('a refused updateSiteById records nothing (all or nothing)', async () => {
    const f = await createSite(t, 1);
    const other = await createSite(t, 1);
    const taken = `taken-${other.siteId.slice(-6).toLowerCase()}`;
    expectStatus(
      await t.request({ method: 'PATCH', url: other.base, payload: { basename: taken } }),
      200,
    );
    const patch = (payload: object): InjectOptions => ({ method: 'PATCH', url: f.base, payload });
    await expectNone(patch({ visibility: 'unlisted', basename: taken }), 409);
    await expectNone(patch({ visibility: 'unlisted', defaultSiteSpace: 'sitesp_nope' }), 400);
    await expectNone(patch({ visibility: 'nobody' }), 400);
    await expectNone(
      { method: 'PATCH', url: `${sitesUrl()}/site_nope`, payload: { visibility: 'unlisted' } },
      404,
    );
    const creator = await memberWithRole(t, 'create');
    const { entries } = await added(patch({ visibility: 'unlisted' }), 403, (o) =>
      requestAs(t, creator, o),
    );
    assert.deepEqual(entries, []);
  });

  test('the deprecated PATCH /v1/spaces/{spaceId} records the site change too', async () => {
    const f = await createSite(t, 1);
    const url = `/v1/spaces/${f.spaceIds[0]}`;
    await expectEntry(
      { method: 'PATCH', url, payload: { published: true } },
      200,
      'site.published',
      site(f.siteId),
      {},
    );
    await expectEntry(
      { method: 'PATCH', url, payload: { visibility: 'unlisted' } },
      200,
      'site.visibility.changed',
      site(f.siteId),
      { from: 'public', to: 'unlisted' },
    );
  });

  test('deleteSiteById records site.deleted with the title, once; the entry outlives the site', async () => {
    const f = await createSite(t, 1);
    await expectEntry({ method: 'DELETE', url: f.base }, 205, 'site.deleted', site(f.siteId), {
      title: 'Docs',
    });
    await expectNone({ method: 'DELETE', url: f.base }, 204);
    const entries = (await log()).filter((e) => e.target.id === f.siteId);
    assert.deepEqual(
      entries.map((e) => e.action),
      ['site.deleted', 'site.created'],
    );
  });
});

describe('share links', () => {
  const link = (id: string) => ({ kind: 'share-link', id });

  test('createSiteShareLink records share-link.created with site and name, never the key', async () => {
    const f = await createSite(t, 1);
    const payload = { name: 'Reviewers' };
    const { res, entries } = await added(
      { method: 'POST', url: `${f.base}/share-links`, payload },
      201,
    );
    const created = res.json() as { id: string; urls: { published: string } };
    assert.deepEqual(
      entries.map(({ actor, action, target, details }) => ({ actor, action, target, details })),
      [
        {
          actor,
          action: 'share-link.created',
          target: link(created.id),
          details: { siteId: f.siteId, name: 'Reviewers' },
        },
      ],
    );
    const key = new URL(created.urls.published).searchParams.get('share') as string;
    assert.ok(!JSON.stringify(await log()).includes(key), 'the key is in no entry');
    await expectNone({ method: 'POST', url: `${f.base}/share-links`, payload: {} }, 400);
    const missing = `${sitesUrl()}/site_nope/share-links`;
    await expectNone({ method: 'POST', url: missing, payload }, 404);
  });

  test('updateSiteShareLinkById records only the fields that change', async () => {
    const f = await createSite(t, 1);
    const made = await t.request({
      method: 'POST',
      url: `${f.base}/share-links`,
      payload: { name: 'a' },
    });
    const id = expectStatus(made, 201).id as string;
    const patch = (payload: object): InjectOptions => ({
      method: 'PATCH',
      url: `${f.base}/share-links/${id}`,
      payload,
    });
    const updated = (changed: object) => ({ siteId: f.siteId, changed });
    await expectEntry(
      patch({ name: 'b' }),
      200,
      'share-link.updated',
      link(id),
      updated({ name: 'b' }),
    );
    await expectNone(patch({ name: 'b' }), 200);
    await expectEntry(
      patch({ name: 'b', active: false }),
      200,
      'share-link.updated',
      link(id),
      updated({ active: false }),
    );
    await expectEntry(
      patch({ name: 'c', active: true }),
      200,
      'share-link.updated',
      link(id),
      updated({ name: 'c', active: true }),
    );
    await expectNone(patch({}), 400);
    await expectNone(patch({ key: 'x' }), 400);
    await expectNone({ ...patch({ name: 'd' }), url: `${f.base}/share-links/shl_nope` }, 404);
    const other = await createSite(t, 1);
    await expectNone({ ...patch({ name: 'd' }), url: `${other.base}/share-links/${id}` }, 404);
  });

  test('deleteSiteShareLinkById records share-link.revoked once', async () => {
    const f = await createSite(t, 1);
    const made = await t.request({
      method: 'POST',
      url: `${f.base}/share-links`,
      payload: { name: 'a' },
    });
    const id = expectStatus(made, 201).id as string;
    const url = `${f.base}/share-links/${id}`;
    await expectEntry({ method: 'DELETE', url }, 205, 'share-link.revoked', link(id), {
      siteId: f.siteId,
    });
    await expectNone({ method: 'DELETE', url }, 204);
    await expectNone({ method: 'DELETE', url: `${sitesUrl()}/site_nope/share-links/${id}` }, 404);
  });

  test('the deprecated space-keyed forms record the same entries', async () => {
    const f = await createSite(t, 1);
    const base = `/v1/spaces/${f.spaceIds[0]}/share-links`;
    const { res, entries } = await added(
      { method: 'POST', url: base, payload: { name: 'old' } },
      201,
    );
    const id = res.json().id as string;
    assert.deepEqual(
      entries.map((e) => [e.action, e.target, e.details, e.actor]),
      [['share-link.created', link(id), { siteId: f.siteId, name: 'old' }, actor]],
    );
    await expectEntry(
      { method: 'DELETE', url: `${base}/${id}` },
      205,
      'share-link.revoked',
      link(id),
      {
        siteId: f.siteId,
      },
    );
  });
});

describe('visitor authentication', () => {
  const auth = (f: SiteFixture) => `${f.base}/publishing/auth`;
  const patch = (f: SiteFixture, payload: object): InjectOptions => ({
    method: 'PATCH',
    url: auth(f),
    payload,
  });

  test('updateSitePublishingAuthById records the names of the fields that change', async () => {
    const f = await createSite(t, 1);
    await expectNone({ method: 'GET', url: auth(f) }, 200);
    const fallbackURL = 'https://login.example.com/start';
    const logoutURL = 'https://login.example.com/logout';
    await expectEntry(
      patch(f, { backend: 'custom', fallbackURL }),
      200,
      'visitor-auth.updated',
      site(f.siteId),
      {
        changed: ['fallbackURL'],
      },
    );
    await expectNone(patch(f, { backend: 'custom', fallbackURL }), 200);
    await expectNone(patch(f, { backend: 'custom' }), 200);
    await expectEntry(
      patch(f, { backend: 'custom', fallbackURL: null, logoutURL }),
      200,
      'visitor-auth.updated',
      site(f.siteId),
      { changed: ['fallbackURL', 'logoutURL'] },
    );
  });

  test("a site's first settings write records what it changes", async () => {
    const f = await createSite(t, 1);
    await expectNone(patch(f, { backend: 'custom' }), 200);
    await expectEntry(
      patch(f, { backend: 'custom', logoutURL: 'https://example.com/out' }),
      200,
      'visitor-auth.updated',
      site(f.siteId),
      { changed: ['logoutURL'] },
    );
  });

  test('refused updates record nothing', async () => {
    const f = await createSite(t, 1);
    await expectNone(patch(f, { backend: 'integration' }), 400);
    await expectNone(patch(f, { backend: 'custom', fallbackURL: 'ftp://example.com' }), 400);
    await expectNone(patch(f, { fallbackURL: 'https://example.com' }), 400);
    await expectNone(
      { ...patch(f, { backend: 'custom' }), url: `${sitesUrl()}/site_nope/publishing/auth` },
      404,
    );
    const creator = await memberWithRole(t, 'create');
    const body = { backend: 'custom', fallbackURL: 'https://example.com/in' };
    const { entries } = await added(patch(f, body), 403, (o) => requestAs(t, creator, o));
    assert.deepEqual(entries, []);
  });

  test('regenerateSitePublishingAuthById records visitor-auth.key.regenerated, never the key', async () => {
    const f = await createSite(t, 1);
    const url = `${auth(f)}/regenerate`;
    const res = await expectEntry(
      { method: 'POST', url },
      200,
      'visitor-auth.key.regenerated',
      site(f.siteId),
      {},
    );
    const { privateKey } = res.json() as { privateKey: string };
    const again = await expectEntry(
      { method: 'POST', url },
      200,
      'visitor-auth.key.regenerated',
      site(f.siteId),
      {},
    );
    const text = JSON.stringify(await log());
    assert.ok(
      !text.includes(privateKey) && !text.includes(again.json().privateKey),
      'no key in any entry',
    );
    await expectNone(
      { method: 'POST', url: `${sitesUrl()}/site_nope/publishing/auth/regenerate` },
      404,
    );
    const space = `/v1/spaces/${f.spaceIds[0]}/publishing/auth/regenerate`;
    await expectEntry(
      { method: 'POST', url: space },
      200,
      'visitor-auth.key.regenerated',
      site(f.siteId),
      {},
    );
  });
});
