import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import {
  applyChanges,
  crUrl,
  mergeChangeRequest,
  newSpace,
  openChangeRequest,
} from '../helpers/content.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';
import { assertPlain404, rawVisit, visit } from '../helpers/published.js';
import { memberWithRole, requestAs } from '../helpers/roles.js';

/**
 * Change request previews (Livery extension, docs/change-request-previews.md): the
 * link's API (open is idempotent, GET, DELETE), the public page of a change request's content
 * under `/s/@livery/preview/{id}.{signature}/`, its headers, its end (410: closed, merged),
 * forged and junk addresses (404, never a 5xx), and who may make a link.
 */
let t: TestContext;
const repo = new TestRepo();
before(async () => {
  t = await createTestApp({
    SECRET_KEY: 'change-request-previews-test-key-0123456789',
    GIT_LOCAL_DIRS: repo.root,
    GIT_CACHE_DIR: `${repo.root}/.cache`,
  });
});
after(async () => {
  await t.close();
  repo.dispose();
});

interface Link {
  id: string;
  url: string;
  label: string | null;
  createdAt: string;
}

const SUBJECT = 'Install <b>guide</b> & more';

/** A space, and an open change request adding two pages (not merged). */
async function changeRequestWithPages(title = 'Handbook') {
  const space = await newSpace(t, title);
  const cr = await openChangeRequest(t, space.id, SUBJECT);
  await applyChanges(t, space.id, cr.id, [
    {
      operation: 'insert_page',
      title: 'Getting started',
      slug: 'getting-started',
      document: { markdown: 'Welcome to the preview of the handbook.' },
    },
    {
      operation: 'insert_page',
      title: 'Install',
      slug: 'install',
      document: { markdown: 'Run the installer, then read [Getting started](getting-started).' },
    },
  ]);
  return { spaceId: space.id, cr };
}

const linkUrl = (spaceId: string, cr: string | number) => `${crUrl(spaceId, cr)}/preview-link`;

async function openLink(spaceId: string, cr: string | number, payload?: object): Promise<Link> {
  const res = await t.request({
    method: 'POST',
    url: linkUrl(spaceId, cr),
    ...(payload === undefined ? {} : { payload }),
  });
  return expectStatus(res, 200) as unknown as Link;
}

/** The link's address as this app serves it: PUBLIC_URL stripped, `/s/` put back. */
function pathOf(url: string): string {
  const publicUrl = t.config.publicUrl;
  assert.ok(url.startsWith(publicUrl), `${url} under ${publicUrl}`);
  return `/s/${url.slice(publicUrl.length)}`;
}

function assertPrivate(res: { headers: Record<string, unknown> }, what: string) {
  assert.equal(res.headers['x-robots-tag'], 'noindex', what);
  assert.equal(res.headers['cache-control'], 'private, no-store', what);
  assert.equal(res.headers['referrer-policy'], 'no-referrer', what);
}

const BANNER = 'Preview of change request <strong>#1: Install &lt;b&gt;guide&lt;/b&gt; &amp; more';

describe('a preview link', () => {
  let spaceId: string;
  let crId: string;
  let link: Link;

  before(async () => {
    const made = await changeRequestWithPages();
    spaceId = made.spaceId;
    crId = made.cr.id;
    link = await openLink(spaceId, crId, { label: 'feature/install' });
  });

  test('is made once: opening again, by id or number, answers the same link', async () => {
    assert.match(link.id, /^crp_/);
    assert.equal(link.label, 'feature/install');
    assert.match(
      link.url,
      /^http:\/\/livery\.test\/s\/@livery\/preview\/crp_[A-Za-z0-9]+\.[A-Za-z0-9_-]{43}\/$/,
    );
    assert.deepEqual(await openLink(spaceId, crId, { label: 'other' }), link);
    assert.deepEqual(await openLink(spaceId, 1), link);
    const got = expectStatus(await t.request({ url: linkUrl(spaceId, crId) }), 200);
    assert.deepEqual(got, link);
    const listed = await t.services.previews.list(spaceId);
    assert.deepEqual(listed, [link]);
    assert.deepEqual(await t.services.previews.forChangeRequest(crId), link);
  });

  test("shows the change request's first page to anyone, with the banner, never cached", async () => {
    const res = await visit(t, pathOf(link.url));
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assertPrivate(res, 'the page');
    assert.match(res.body, /Welcome to the preview of the handbook\./);
    assert.ok(res.body.includes(BANNER), 'the banner, escaped');
    assert.ok(res.body.includes('(feature/install)'), 'the label');
    assert.doesNotMatch(res.body, /<b>guide/, 'the subject is text');
    assert.match(res.body, /<meta name="robots" content="noindex">/);
    // No feedback or view reports from a preview: they would go to no site.
    assert.doesNotMatch(res.body, /data-feedback-href|data-view-href/);
    // The space itself has none of it: the change request is not merged.
    const pages = expectStatus(
      await t.request({ url: `/v1/spaces/${spaceId}/content/pages` }),
      200,
    );
    assert.deepEqual(pages.pages, []);
  });

  test('shows another page by its path; links stay inside the preview', async () => {
    const root = pathOf(link.url);
    const res = await visit(t, `${root}install`);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assertPrivate(res, 'the second page');
    assert.match(res.body, /Run the installer/);
    assert.ok(res.body.includes(BANNER));
    const hrefs = [...res.body.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1] ?? '');
    const internal = hrefs.filter((href) => href.startsWith('/'));
    assert.ok(internal.length >= 2, `links: ${hrefs.join(' ')}`);
    for (const href of internal) assert.ok(href.startsWith(root), `${href} inside ${root}`);
    assert.ok(internal.includes(`${root}getting-started`), 'the body link and the sidebar');
    // The page's Markdown, as the published site's page menu offers it.
    const markdown = await visit(t, `${root}install.md`);
    assert.equal(markdown.statusCode, 200);
    assert.match(markdown.body, /^# Install/);
    assertPrivate(markdown, 'the Markdown');
    // A page the change request does not have: the site's styled 404, still private.
    const missing = await visit(t, `${root}nowhere`);
    assert.equal(missing.statusCode, 404);
    assertPrivate(missing, 'a missing page');
  });

  test('a forged or altered signature, or an unknown id, is the plain 404', async () => {
    const root = pathOf(link.url);
    const [id, signature] = (root.split('/')[4] ?? '').split('.') as [string, string];
    const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const unknown = await visit(t, `/s/@livery/preview/crp_unknown.${signature}/`);
    assertPlain404(unknown, 'an unknown id');
    for (const path of [
      `/s/@livery/preview/${id}.${flipped}/`,
      `/s/@livery/preview/${id}.${flipped}/install`,
      `/s/@livery/preview/${id}/`,
      `/s/@livery/preview/${id}.${signature.slice(0, 42)}/`,
      `/s/@livery/preview/crp_other.${signature}/install`,
    ]) {
      const res = await visit(t, path);
      assertPlain404(res, path);
      assert.equal(res.body, unknown.body, `${path}: the same page as an unknown id`);
      assertPrivate(res, path);
    }
  });
});

describe('a preview ends', () => {
  test('when its link is deleted: 410, and a new link is another address', async () => {
    const { spaceId, cr } = await changeRequestWithPages();
    const link = await openLink(spaceId, cr.id);
    const res = await t.request({ method: 'DELETE', url: linkUrl(spaceId, cr.id) });
    assert.equal(res.statusCode, 204);
    expectError(await t.request({ url: linkUrl(spaceId, cr.id) }), 404);
    const ended = await visit(t, `${pathOf(link.url)}install`);
    assert.equal(ended.statusCode, 410);
    assertPrivate(ended, 'the ended page');
    assert.match(ended.body, /This preview has ended/);
    assert.match(ended.body, /the preview link was closed/);
    assert.ok(ended.body.includes('Install &lt;b&gt;guide&lt;/b&gt; &amp; more'));
    assert.doesNotMatch(ended.body, /Run the installer/);
    // Deleting again: nothing to close, still 204.
    assert.equal(
      (await t.request({ method: 'DELETE', url: linkUrl(spaceId, cr.id) })).statusCode,
      204,
    );
    const again = await openLink(spaceId, cr.id);
    assert.notEqual(again.id, link.id);
    assert.notEqual(again.url, link.url);
    assert.equal((await visit(t, pathOf(again.url))).statusCode, 200);
    assert.equal((await visit(t, pathOf(link.url))).statusCode, 410, 'the old one stays ended');
  });

  test('when the service closes it, with the reason shown', async () => {
    const { spaceId, cr } = await changeRequestWithPages();
    const link = await t.services.previews.open({
      spaceId,
      changeRequestId: cr.id,
      label: 'feature/x',
      actor: null,
    });
    await t.services.previews.close(cr.id, 'the branch was deleted');
    await t.services.previews.close(cr.id); // nothing left to close: no error, the reason stays
    assert.equal(await t.services.previews.forChangeRequest(cr.id), undefined);
    const ended = await visit(t, pathOf(link.url));
    assert.equal(ended.statusCode, 410);
    assert.match(ended.body, /the branch was deleted/);
  });

  test('when its change request is merged (410 saying so), and none can be opened then', async () => {
    const { spaceId, cr } = await changeRequestWithPages();
    const link = await openLink(spaceId, cr.id);
    await mergeChangeRequest(t, spaceId, cr.id);
    const ended = await visit(t, pathOf(link.url));
    assert.equal(ended.statusCode, 410);
    assert.match(ended.body, /was merged/);
    assertPrivate(ended, 'merged');
    expectError(await t.request({ url: linkUrl(spaceId, cr.id) }), 404);
    assert.deepEqual(await t.services.previews.list(spaceId), []);
    const refused = expectError(
      await t.request({ method: 'POST', url: linkUrl(spaceId, cr.id) }),
      409,
    );
    assert.match(refused, /is merged/);
  });

  test('while its change request is archived (410: closed)', async () => {
    const { spaceId, cr } = await changeRequestWithPages();
    const link = await openLink(spaceId, cr.id);
    const archive = { method: 'PATCH' as const, url: crUrl(spaceId, cr.id) };
    expectStatus(await t.request({ ...archive, payload: { status: 'archived' } }), 200);
    const ended = await visit(t, pathOf(link.url));
    assert.equal(ended.statusCode, 410);
    assert.match(ended.body, /change request was closed/);
  });
});

describe('opening a link', () => {
  test('simultaneously: one link for all', async () => {
    const { spaceId, cr } = await changeRequestWithPages();
    const links = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.services.previews.open({ spaceId, changeRequestId: cr.id, label: `l${i}` }),
      ),
    );
    assert.equal(new Set(links.map((link) => link.id)).size, 1);
    assert.equal(new Set(links.map((link) => link.url)).size, 1);
  });
});

describe('images and files', () => {
  test("a change request of imported content shows the revision's images", async () => {
    repo.commit({
      'README.md': '# Imported\n\n![A pixel](.gitbook/assets/pixel.png)\n',
      '.gitbook/assets/pixel.png': pngOf(2, 2),
    });
    const space = await newSpace(t, 'Imported');
    const url = `/v1/spaces/${space.id}/git/import`;
    const payload = { url: `file://${repo.dir}`, ref: 'main' };
    expectStatus(await t.request({ method: 'POST', url, payload }), 204);
    for (let i = 0; i < 400; i++) {
      const info = expectStatus(await t.request({ url: `/v1/spaces/${space.id}/git/info` }), 200);
      if ((info.operation as { state: string }).state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const cr = await openChangeRequest(t, space.id, 'More');
    await applyChanges(t, space.id, cr.id, [
      { operation: 'insert_page', title: 'Later', document: { markdown: 'Added later.' } },
    ]);
    const res = await visit(t, pathOf((await openLink(space.id, cr.id)).url));
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    const src = /<img [^>]*src="(\/s\/@livery\/files\/[^"]+)"/.exec(res.body)?.[1];
    assert.ok(src, `an image from the revision's files in ${res.body.slice(0, 2000)}`);
    const image = await visit(t, src.replaceAll('&amp;', '&'));
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/png');
  });
});

describe('the look of a preview', () => {
  test("a space shown by a site: the site's customization; otherwise the defaults", async () => {
    const { spaceId, cr } = await changeRequestWithPages('Plain');
    const plain = await visit(t, pathOf((await openLink(spaceId, cr.id)).url));
    assert.equal(plain.statusCode, 200);
    assert.match(plain.body, /<title>Getting started \| Plain<\/title>/);

    const site = expectStatus(
      await t.request({
        method: 'POST',
        url: `/v1/orgs/${t.orgId}/sites`,
        payload: { title: 'Docs', spaces: [spaceId] },
      }),
      201,
    );
    const base = `/v1/orgs/${t.orgId}/sites/${site.id as string}`;
    expectStatus(
      await t.request({
        method: 'PUT',
        url: `${base}/customization`,
        payload: {
          title: 'Acme Docs',
          styling: { primaryColor: { light: '#0B5FFF', dark: '#7AA7FF' } },
        },
      }),
      200,
    );
    const styled = await visit(t, pathOf((await openLink(spaceId, cr.id)).url));
    assert.equal(styled.statusCode, 200);
    assert.match(styled.body, /<title>Getting started \| Acme Docs<\/title>/);
    // The theme is inline: no theme address is served under the preview.
    assert.match(styled.body, /<style>/);
    assert.doesNotMatch(styled.body, /@livery\/theme\//);
    assert.ok(String(styled.headers['content-security-policy']).includes("script-src 'self'"));
  });
});

describe('who may make a link', () => {
  let spaceId: string;
  let crId: string;
  before(async () => {
    const made = await changeRequestWithPages();
    spaceId = made.spaceId;
    crId = made.cr.id;
  });

  test('edit and above; a reader may neither make nor read it; anonymous is 401', async () => {
    const reader = await memberWithRole(t, 'read');
    const editor = await memberWithRole(t, 'edit');
    for (const method of ['POST', 'GET', 'DELETE'] as const) {
      const message = expectError(
        await requestAs(t, reader, { method, url: linkUrl(spaceId, crId) }),
        403,
      );
      assert.match(message, /needs the edit role/);
      const anonymous = await t.app.inject({ method, url: linkUrl(spaceId, crId) });
      expectError(anonymous, 401);
    }
    assert.equal(await t.services.previews.forChangeRequest(crId), undefined, 'none was made');
    const made = expectStatus(
      await requestAs(t, editor, { method: 'POST', url: linkUrl(spaceId, crId) }),
      200,
    );
    // The public address needs nothing: no token, no cookie.
    const res = await t.app.inject({ method: 'GET', url: pathOf(made.url as string) });
    assert.equal(res.statusCode, 200);
  });

  test('an unknown change request or space is a 404', async () => {
    expectError(await t.request({ method: 'POST', url: linkUrl(spaceId, 'nope') }), 404);
    expectError(await t.request({ method: 'POST', url: linkUrl(spaceId, 99) }), 404);
    expectError(await t.request({ method: 'GET', url: linkUrl('space_nope', crId) }), 404);
    expectError(
      await t.request({ method: 'POST', url: linkUrl(spaceId, crId), payload: { label: 7 } }),
      400,
    );
  });
});

describe('junk addresses', () => {
  test('answer 404 (or 410 for an ended link), never a 5xx', async () => {
    const { spaceId, cr } = await changeRequestWithPages();
    const root = pathOf((await openLink(spaceId, cr.id)).url);
    const paths = [
      '/s/@livery/preview',
      '/s/@livery/preview/',
      '/s/@livery/preview/..%2f',
      '/s/@livery/preview/..%2f..%2f',
      `${root}..%2f..%2fetc%2fpasswd`,
      `${root}%2e%2e/%2e%2e/`,
      `${root}%ff%fe`,
      `${root}%E0%A4%A`,
      `${root}%ED%A0%80`,
      `${root}%00`,
      `${root}a%5Cb`,
      `/s/@livery/preview/${'a'.repeat(5000)}/`,
      `${root}${'x/'.repeat(3000)}`,
      `/s/@livery/preview/%ff.%fe/`,
      `/s/@livery/preview/${'.'.repeat(50)}/`,
    ];
    for (const path of paths) {
      const injected: LightMyRequestResponse = await visit(t, path);
      assert.ok(injected.statusCode < 500, `${path}: ${injected.statusCode}`);
      assert.ok([404, 414].includes(injected.statusCode), `${path}: ${injected.statusCode}`);
      const raw = await rawVisit(t, path);
      assert.ok(raw.statusCode < 500, `${path} (raw): ${raw.statusCode}`);
    }
  });
});
