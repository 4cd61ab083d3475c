import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { LONE_HIGH, pathName, stringLeaves, withText } from '../helpers/ill-formed.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';
import { settings0202 } from '../helpers/settings-0202.js';

/**
 * Rendering never fails on stored data. Livery now refuses lone surrogates on the way in
 * (test/http/bad-input-text.test.ts), but settings stored before may hold one: here it is written
 * into the database row itself, as such data is. The page answers 200 with the rest of it, the
 * setting holding the bad text is left out, and a warning names it. (A stored social handle with
 * a lone surrogate made every page of its site, and the preview, answer 500.)
 */
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestContext;
let site: PublishedSite;
/** The settings as stored by a PUT of settings0202(): a value for nearly every setting. */
let stored: Record<string, unknown>;

before(async () => {
  t = await createTestApp({ LOG_LEVEL: 'warn' }, logStream);
  site = await publishedSite(t, 'docs');
  expectStatus(
    await t.request({ method: 'PUT', url: `${site.base}/customization`, payload: settings0202() }),
    200,
  );
  const row = await t.db
    .selectFrom('sites')
    .select('customization')
    .where('id', '=', site.siteId)
    .executeTakeFirstOrThrow();
  stored = JSON.parse(row.customization ?? '{}') as Record<string, unknown>;
});
after(async () => t.close());

/** Stores a site's settings as a write before the fix did: the JSON text in the row. */
async function storeSettings(siteId: string, settings: unknown) {
  await sql`update sites set customization = ${JSON.stringify(settings)}, customization_version = customization_version + 1 where id = ${siteId}`.execute(
    t.db,
  );
}

/** No trace of the bad text: neither as U+FFFD, nor percent-encoded, nor as a CSS escape. */
function assertAbsent(body: string, what: string) {
  assert.ok(!body.includes('\ufffd'), `${what}: U+FFFD in the answer`);
  assert.ok(!/%EF%BF%BD/i.test(body), `${what}: an encoded U+FFFD in the answer`);
  assert.ok(!/\\d[89a-f][0-9a-f]{2} /.test(body), `${what}: a CSS-escaped surrogate`);
}

/** The page served, with what every page has (the site's first page says Welcome). */
async function assertPageServed(url: string, what: string) {
  const res = await t.app.inject({ method: 'GET', url });
  assert.equal(res.statusCode, 200, `${what}: ${res.body.slice(0, 300)}`);
  const content = url.endsWith('/') ? '<article class="content"><p>Welcome' : '<article class';
  for (const part of ['class="site-header"', 'class="site-footer"', content]) {
    assert.ok(res.body.includes(part), `${what}: ${part} is on the page`);
  }
  assertAbsent(res.body, what);
  return res.body;
}

const warned = (field: string) =>
  logLines.some(
    (line) => line.level === 40 && line.field === field && typeof line.setting === 'string',
  );

describe('a stored setting holding a lone surrogate is left out; the page is served', () => {
  test('a social handle: the account is left out, the others shown; the preview too', async () => {
    const socialAccounts = [
      { platform: 'github', handle: LONE_HIGH, display: { footer: true, header: true } },
      { platform: 'bluesky', handle: 'acme.example', display: { footer: true, header: true } },
    ];
    await storeSettings(site.siteId, { ...stored, socialAccounts });
    for (const url of [site.address, `${site.address}/intro/child`]) {
      const body = await assertPageServed(url.endsWith('child') ? url : `${url}/`, url);
      assert.ok(body.includes('https://bsky.app/profile/acme.example'), 'the other account');
      assert.ok(!body.includes('https://github.com/'), 'not the bad one');
    }
    const line = logLines.find((l) => l.setting === 'socialAccounts[0]');
    assert.equal(line?.field, 'socialAccounts[0].handle');
    assert.equal(line?.level, 40);
    assert.match(String(line?.msg), /socialAccounts\[0\] is left out of the rendered page/);

    const preview = await t.request({ method: 'POST', url: `${site.base}/preview`, payload: {} });
    assert.equal(preview.statusCode, 200, preview.body.slice(0, 300));
    assert.ok(preview.body.includes('https://bsky.app/profile/acme.example'));
    assertAbsent(preview.body, 'preview');
  });

  test('every string of every setting, in turn', async () => {
    const leaves = stringLeaves(stored);
    assert.ok(leaves.length >= 40, `strings in the stored settings (${leaves.length})`);
    const variant = site.siteSpaceIds[0] as string;
    for (const { path, text } of leaves) {
      const field = pathName(path);
      await storeSettings(site.siteId, withText(stored, path, `${text}\ud800`));
      await assertPageServed(`${site.address}/`, field);
      for (const url of [
        `${site.address}/@livery/theme/${variant}.css`,
        `${site.base}/site-spaces/${variant}/customization/theme.css`,
      ]) {
        const css = await t.request({ method: 'GET', url });
        assert.equal(css.statusCode, 200, `${field}: ${url}`);
        assertAbsent(css.body, `${field}: ${url}`);
      }
      const preview = await t.request({ method: 'POST', url: `${site.base}/preview`, payload: {} });
      assert.equal(preview.statusCode, 200, `${field}: preview ${preview.body.slice(0, 200)}`);
      assertAbsent(preview.body, `${field}: preview`);
      assert.ok(warned(field), `a warning names ${field}`);
    }
    await storeSettings(site.siteId, stored);
  });

  test('a setting that cannot be absent takes its default: a font definition', async () => {
    const styling = stored.styling as Record<string, unknown>;
    const font = { ...(styling.font as object), fontFamily: LONE_HIGH };
    await storeSettings(site.siteId, { ...stored, styling: { ...styling, font } });
    const variant = site.siteSpaceIds[0] as string;
    const css = await t.app.inject({ url: `${site.address}/@livery/theme/${variant}.css` });
    assert.equal(css.statusCode, 200);
    assert.match(css.body, /--font-sans: "Inter", /, 'the default font');
    assert.doesNotMatch(css.body, /fonts\.acme\.example/, "none of the definition's files");
    assert.ok(
      logLines.some((l) => l.setting === 'styling.font' && /the default/.test(String(l.msg))),
    );
    await storeSettings(site.siteId, stored);
  });

  test("a variant's stored override, and a field name", async () => {
    const variant = site.siteSpaceIds[0] as string;
    const override = { title: `Variant ${LONE_HIGH}`, localizedTitle: { [LONE_HIGH]: 'x' } };
    await sql`update site_spaces set override = ${JSON.stringify(override)}, override_version = override_version + 1 where id = ${variant}`.execute(
      t.db,
    );
    const body = await assertPageServed(`${site.address}/`, 'override');
    // The effective title is left out: the content's title stands in, as for a site without one.
    assert.match(body, /<title>Intro \| Handbook<\/title>/, 'no customization title');
    assert.ok(warned('title'), 'title');
    assert.ok(warned('localizedTitle["a\\ud800b"]'), 'the field name, escaped');
    await sql`update site_spaces set override = null, override_version = override_version + 1 where id = ${variant}`.execute(
      t.db,
    );
  });

  test("a visitor-authentication site's sign-in page", async () => {
    const locked = await publishedSite(t, 'locked', { visibility: 'visitor-auth' });
    await storeSettings(locked.siteId, { ...stored, title: LONE_HIGH });
    const res = await t.app.inject({ method: 'GET', url: `${locked.address}/` });
    assert.equal(res.statusCode, 401, res.body.slice(0, 300));
    assert.ok(res.body.includes('class="site-header"'));
    assertAbsent(res.body, 'sign-in page');
  });
});
