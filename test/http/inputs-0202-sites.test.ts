/**
 * GitBook 0.202's site inputs over HTTP (docs/api.md, "GitBook 0.202's inputs"; docs/sites.md):
 * addSpaceToSite with `spaceId: null` and a variant's own `title`, a hidden site-space (left out
 * of the published switcher, still served), a logout URL, and the inputs for features Livery does
 * not have: what Livery is is accepted, anything else is a 400 naming the field, storing nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type TestContext,
} from '../helpers/app.js';
import { publishedSite, visit } from '../helpers/published.js';

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Json = Record<string, unknown>;
type SiteSpace = Json & { id: string; title: string; path: string; hidden: boolean };
type Space = Json & { id: string; title: string };

const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.request({ method, url, ...(payload === undefined ? {} : { payload }) });
const variantsOf = async (base: string) =>
  (expectStatus(await send('GET', `${base}/site-spaces`), 200).items as SiteSpace[]).map((v) => ({
    title: v.title,
    space: (v.space as Space).title,
    path: v.path,
    hidden: v.hidden,
  }));
const spaceCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('spaces')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('addSpaceToSite', () => {
  test('spaceId null creates a space of the organization, empty, titled by title', async () => {
    const f = await createSite(t, 1);
    const added = expectStatus(
      await send('POST', `${f.base}/site-spaces`, { spaceId: null, title: 'Release notes' }),
      201,
    ) as SiteSpace;
    const space = added.space as Space;
    assert.equal(added.title, 'Release notes');
    assert.equal(added.path, 'release-notes');
    assert.equal(added.default, false);
    assert.equal(space.title, 'Release notes');
    assert.equal(space.organization, t.orgId);
    assert.deepEqual(expectStatus(await send('GET', `/v1/spaces/${space.id}`), 200).id, space.id);
    const content = expectStatus(await send('GET', `/v1/spaces/${space.id}/content`), 200);
    assert.deepEqual(content.pages, [], 'a new space starts empty');
    const inOrg = expectStatus(await send('GET', `/v1/orgs/${t.orgId}/spaces?limit=1000`), 200)
      .items as Space[];
    assert.ok(inOrg.some((s) => s.id === space.id));

    // Without a title: GitBook's (and createSpace's) default title, no title of the variant's own.
    const untitled = expectStatus(
      await send('POST', `${f.base}/site-spaces`, { spaceId: null }),
      201,
    ) as SiteSpace;
    assert.equal((untitled.space as Space).title, 'Untitled');
    assert.equal(untitled.title, 'Untitled');
    assert.equal(untitled.path, 'untitled');

    // A title longer than a space's: the space gets its first 50 characters, the variant all.
    const long = `A very long variant title ${'x'.repeat(60)}`;
    const longer = expectStatus(
      await send('POST', `${f.base}/site-spaces`, { spaceId: null, title: long }),
      201,
    ) as SiteSpace;
    assert.equal(longer.title, long);
    assert.equal((longer.space as Space).title, long.slice(0, 50));
  });

  test("title is the variant's own: answered in every form, kept when the space is renamed", async () => {
    const f = await createSite(t, 1);
    const spaceId = f.spaceIds[0] as string;
    const added = expectStatus(
      await send('POST', `${f.base}/site-spaces`, { spaceId, title: 'Print edition' }),
      201,
    ) as SiteSpace;
    assert.equal(added.title, 'Print edition');
    assert.equal(added.path, 'print-edition', 'the path comes from the title');
    expectStatus(await send('PATCH', `/v1/spaces/${spaceId}`, { title: 'Renamed' }), 200);
    assert.deepEqual(await variantsOf(f.base), [
      { title: 'Renamed', space: 'Renamed', path: 'variant-0', hidden: false },
      { title: 'Print edition', space: 'Renamed', path: 'print-edition', hidden: false },
    ]);
    const moved = expectStatus(
      await send('PATCH', `${f.base}/site-spaces/${added.id}`, { path: 'print' }),
      200,
    );
    assert.equal(moved.title, 'Print edition');
  });

  test('what Livery does not have is refused, creating nothing; what it is is accepted', async () => {
    const f = await createSite(t, 1);
    const spaceId = f.spaceIds[0] as string;
    const before = { spaces: await spaceCount(), variants: await variantsOf(f.base) };
    const refused: [Json, RegExp][] = [
      [{ spaceId: null, pageId: 'page1' }, /^body\.pageId: Livery has no custom home pages/],
      // A site without sections (test/http/site-structure.test.ts covers sectioned sites).
      [{ spaceId, sectionId: 'sec1' }, /^body\.sectionId: no section "sec1" in this site/],
      [{ spaceId: null, template: { id: 'tpl' } }, /^body\.template: Livery has no space /],
    ];
    for (const [payload, message] of refused) {
      const response = await send('POST', `${f.base}/site-spaces`, payload);
      assert.match(expectError(response, 400), message, JSON.stringify(payload));
    }
    assert.deepEqual(
      { spaces: await spaceCount(), variants: await variantsOf(f.base) },
      before,
      'nothing created',
    );
    const accepted = expectStatus(
      await send('POST', `${f.base}/site-spaces`, { spaceId, draft: false, pageId: null }),
      201,
    );
    assert.equal(accepted.draft, false);
    // Drafts exist since sections (issue 29): a draft variant is added, never as the default.
    const draft = expectStatus(
      await send('POST', `${f.base}/site-spaces`, { spaceId: null, title: 'Draft', draft: true }),
      201,
    );
    assert.equal(draft.draft, true);
    assert.equal(draft.default, false);
  });
});

describe('updateSiteSpaceById hidden', () => {
  test("a hidden variant leaves the published site's switcher and is still served there", async () => {
    const site = await publishedSite(t, 'hidden-variants', { second: true });
    const print = expectStatus(
      await send('POST', `${site.base}/site-spaces`, {
        spaceId: site.tree.spaceId,
        title: 'Handbook (print)',
      }),
      201,
    ) as SiteSpace;
    const second = site.second?.siteSpaceId as string;
    const switcher = async (address: string) => {
      const page = await visit(t, address);
      assert.equal(page.statusCode, 200, address);
      const html = /<div class="variants">(.*?)<\/div>/.exec(page.body)?.[1] ?? '';
      return [...html.matchAll(/>([^<]+)<\/a>/g)].map((m) => m[1]);
    };
    assert.deepEqual(await switcher(`${site.address}/`), [
      'Handbook',
      'Deutsch',
      'Handbook (print)',
    ]);

    const hidden = expectStatus(
      await send('PATCH', `${site.base}/site-spaces/${second}`, { hidden: true }),
      200,
    );
    assert.equal(hidden.hidden, true);
    assert.deepEqual(await variantsOf(site.base), [
      { title: 'Handbook', space: 'Handbook', path: 'handbook', hidden: false },
      { title: 'Deutsch', space: 'Deutsch', path: 'de', hidden: true },
      { title: 'Handbook (print)', space: 'Handbook', path: 'handbook-print', hidden: false },
    ]);
    assert.deepEqual(await switcher(`${site.address}/`), ['Handbook', 'Handbook (print)']);
    assert.deepEqual(await switcher(`${site.address}/${print.path}/`), [
      'Handbook',
      'Handbook (print)',
    ]);
    // Still served at its address, where the switcher leads to the others.
    const german = await visit(t, `${site.address}/de/`);
    assert.equal(german.statusCode, 200);
    assert.match(german.body, /Willkommen/);

    const shown = expectStatus(
      await send('PATCH', `${site.base}/site-spaces/${second}`, { hidden: false }),
      200,
    );
    assert.equal(shown.hidden, false);
    assert.deepEqual(await switcher(`${site.address}/`), [
      'Handbook',
      'Deutsch',
      'Handbook (print)',
    ]);
  });
});

describe('updateSiteById', () => {
  test('inherit, no adaptive content, no style guide: accepted; anything else refused, changing nothing', async () => {
    const f = await createSite(t, 2);
    const before = expectStatus(await send('GET', f.base), 200);
    const same = expectStatus(
      await send('PATCH', f.base, {
        defaultLevel: 'inherit',
        adaptiveContent: { enabled: false },
        styleguide: null,
      }),
      200,
    );
    assert.deepEqual(same, before);
    const second = f.siteSpaceIds[1] as string;
    const refused: [Json, RegExp][] = [
      [{ title: 'Changed', defaultLevel: 'read' }, /^body\.defaultLevel: Livery has no access /],
      [{ title: 'Changed', defaultLevel: null }, /^body\.defaultLevel: .*only "inherit"/],
      [{ defaultSiteSpace: second, adaptiveContent: { enabled: true } }, /^body\.adaptiveContent/],
      [{ defaultSiteSpace: second, defaultSiteSection: 'sec' }, /^body\.defaultSiteSection/],
      [{ basename: 'styled', styleguide: 'space1' }, /^body\.styleguide: Livery has no style /],
    ];
    for (const [payload, message] of refused) {
      assert.match(expectError(await send('PATCH', f.base, payload), 400), message);
    }
    assert.deepEqual(expectStatus(await send('GET', f.base), 200), before);
    const defaults = expectStatus(await send('GET', `${f.base}/site-spaces?default=true`), 200);
    assert.deepEqual(
      (defaults.items as SiteSpace[]).map((v) => v.id),
      [f.siteSpaceIds[0]],
    );
  });
});

describe('updateSitePublishingAuthById logoutURL', () => {
  test('stored and answered; absent keeps it, null removes it; not a URL is a 400', async () => {
    const f = await createSite(t, 1);
    const auth = `${f.base}/publishing/auth`;
    const set = expectStatus(
      await send('PATCH', auth, { backend: 'custom', logoutURL: 'https://id.example/logout' }),
      200,
    );
    assert.equal(set.logoutURL, 'https://id.example/logout');
    assert.equal(expectStatus(await send('GET', auth), 200).logoutURL, 'https://id.example/logout');
    const kept = expectStatus(
      await send('PATCH', auth, { backend: 'custom', fallbackURL: 'https://id.example/in' }),
      200,
    );
    assert.equal(kept.logoutURL, 'https://id.example/logout');
    const regenerated = expectStatus(await send('POST', `${auth}/regenerate`), 200);
    assert.equal(regenerated.logoutURL, 'https://id.example/logout');
    for (const logoutURL of ['javascript:alert(1)', '/logout', 42]) {
      assert.match(
        expectError(await send('PATCH', auth, { backend: 'custom', logoutURL }), 400),
        /body\.logoutURL/,
      );
    }
    assert.match(
      expectError(
        await send('PATCH', auth, { backend: 'integration', logoutURL: 'https://x.example/' }),
        400,
      ),
      /^body\.backend: Livery has no integrations/,
    );
    assert.equal(expectStatus(await send('GET', auth), 200).logoutURL, 'https://id.example/logout');
    const removed = expectStatus(
      await send('PATCH', auth, { backend: 'custom', logoutURL: null }),
      200,
    );
    assert.equal('logoutURL' in removed, false);
    assert.equal(removed.fallbackURL, 'https://id.example/in');
  });
});
