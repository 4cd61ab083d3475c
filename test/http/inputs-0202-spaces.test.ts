/**
 * GitBook 0.202's space inputs over HTTP (docs/api.md, "GitBook 0.202's inputs"; docs/content.md):
 * a space's explicit language (winning over the one its variants agree on), an icon instead of
 * an emoji, and the inputs for features Livery does not have: what Livery is is accepted,
 * anything else is a 400 naming the field, storing nothing (the deprecated site fields of the
 * same request included).
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

let t: TestContext;
before(async () => {
  t = await createTestApp();
});
after(async () => t.close());

type Json = Record<string, unknown>;
type Space = Json & { id: string; emoji: string; icon?: string; language?: string };

const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.request({ method, url, ...(payload === undefined ? {} : { payload }) });
const getSpace = async (id: string) =>
  expectStatus(await send('GET', `/v1/spaces/${id}`), 200) as Space;
const patchSpace = (id: string, payload: object) => send('PATCH', `/v1/spaces/${id}`, payload);

/** The space as every form that shows it answers it: by id, in the organization, in its site. */
async function everyForm(spaceId: string, siteBase: string): Promise<Space[]> {
  const inOrg = expectStatus(await send('GET', `/v1/orgs/${t.orgId}/spaces?limit=1000`), 200)
    .items as Space[];
  const variants = expectStatus(await send('GET', `${siteBase}/site-spaces`), 200).items as Json[];
  const members = expectStatus(
    await send('GET', `/v1/orgs/${t.orgId}/members/${t.userId}/spaces?limit=1000`),
    200,
  ).items as Json[];
  return [
    await getSpace(spaceId),
    inOrg.find((s) => s.id === spaceId) as Space,
    variants.map((v) => v.space as Space).find((s) => s.id === spaceId) as Space,
    members.map((m) => m.space as Space).find((s) => s.id === spaceId) as Space,
  ];
}

describe('Space.language set explicitly', () => {
  test('wins over the locale of the variants showing the space, in every form', async () => {
    const f = await createSite(t, 1);
    const spaceId = f.spaceIds[0] as string;
    const languages = async () => (await everyForm(spaceId, f.base)).map((s) => s.language);
    assert.deepEqual(await languages(), ['en', 'en', 'en', 'en'], 'derived: the default locale');
    const set = expectStatus(await patchSpace(spaceId, { language: 'ja' }), 200) as Space;
    assert.equal(set.language, 'ja');
    assert.deepEqual(await languages(), ['ja', 'ja', 'ja', 'ja']);
    // The variant's locale changes; the space's own language still wins.
    expectStatus(
      await send('PATCH', `${f.base}/site-spaces/${f.siteSpaceIds[0]}/customization`, {
        internationalization: { locale: 'de' },
      }),
      200,
    );
    assert.deepEqual(await languages(), ['ja', 'ja', 'ja', 'ja']);
    for (const language of ['xx', null, 'EN']) {
      assert.match(
        expectError(await patchSpace(spaceId, { language }), 400),
        /body\.language/,
        String(language),
      );
    }
    assert.equal((await getSpace(spaceId)).language, 'ja');
  });

  test('createSpace takes it: a space no site shows has a language', async () => {
    const created = expectStatus(
      await send('POST', `/v1/orgs/${t.orgId}/spaces`, { title: 'Guía', language: 'es' }),
      201,
    ) as Space;
    assert.equal(created.language, 'es');
    assert.equal((await getSpace(created.id)).language, 'es');
    const plain = expectStatus(
      await send('POST', `/v1/orgs/${t.orgId}/spaces`, { title: 'Plain', empty: true }),
      201,
    ) as Space;
    assert.equal(plain.language, undefined, 'none set and no site shows it');
  });
});

describe('Space.icon and emoji', () => {
  test('an icon replaces the emoji and the emoji the icon; null removes either; never both', async () => {
    const f = await createSite(t, 1);
    const spaceId = f.spaceIds[0] as string;
    const look = async () =>
      (await everyForm(spaceId, f.base)).map((s) => [s.emoji, s.icon ?? null]);
    expectStatus(await patchSpace(spaceId, { emoji: '📘' }), 200);
    const iconed = expectStatus(
      await patchSpace(spaceId, { icon: 'https://cdn.example/book.svg' }),
      200,
    ) as Space;
    assert.deepEqual([iconed.emoji, iconed.icon], ['', 'https://cdn.example/book.svg']);
    assert.deepEqual(await look(), Array(4).fill(['', 'https://cdn.example/book.svg']));

    const both = await patchSpace(spaceId, { emoji: '📗', icon: 'https://cdn.example/b.svg' });
    assert.match(expectError(both, 400), /^body\.icon: a space has an emoji or an icon, not both/);
    for (const icon of ['ftp://cdn.example/x.svg', 'book.svg', '']) {
      assert.match(expectError(await patchSpace(spaceId, { icon }), 400), /body\.icon/, icon);
    }
    assert.deepEqual(await look(), Array(4).fill(['', 'https://cdn.example/book.svg']));

    expectStatus(await patchSpace(spaceId, { emoji: '📗', icon: null }), 200);
    assert.deepEqual(await look(), Array(4).fill(['📗', null]));
    expectStatus(await patchSpace(spaceId, { icon: 'https://cdn.example/book.svg' }), 200);
    const plain = expectStatus(await patchSpace(spaceId, { emoji: null, icon: null }), 200);
    assert.deepEqual([plain.emoji, 'icon' in plain], ['', false]);
  });
});

describe('inputs for what Livery does not have', () => {
  test('updateSpaceById: inherit, live, inherited merge rules accepted; the rest refused, site fields included', async () => {
    const f = await createSite(t, 1);
    const spaceId = f.spaceIds[0] as string;
    const before = await getSpace(spaceId);
    const same = expectStatus(
      await patchSpace(spaceId, {
        defaultLevel: 'inherit',
        editMode: 'live',
        mergeRules: { type: 'inherit' },
      }),
      200,
    ) as Space;
    assert.deepEqual({ ...same, updatedAt: before.updatedAt }, before);
    const refused: [Json, RegExp][] = [
      [{ title: 'Changed', defaultLevel: 'read' }, /^body\.defaultLevel: Livery has no access /],
      [{ title: 'Changed', editMode: 'locked' }, /^body\.editMode: Livery has no locked spaces/],
      [
        { title: 'Changed', mergeRules: { type: 'rules', rules: {} } },
        /^body\.mergeRules: Livery has no merge rules per space.*; only \{"type":"inherit"\} is accepted$/,
      ],
      // The deprecated site field of the same request is not applied either.
      [{ published: true, defaultLevel: 'admin' }, /^body\.defaultLevel/],
    ];
    for (const [payload, message] of refused) {
      assert.match(expectError(await patchSpace(spaceId, payload), 400), message);
    }
    assert.equal((await getSpace(spaceId)).title, before.title);
    const site = expectStatus(await send('GET', f.base), 200);
    assert.equal(site.published, false, 'the site was not published');
  });

  test('createSpace: collections, templates, computed content and locking refused, nothing created', async () => {
    const count = async () =>
      (expectStatus(await send('GET', `/v1/orgs/${t.orgId}/spaces?limit=1000`), 200).items as [])
        .length;
    const before = await count();
    const refused: [Json, RegExp][] = [
      [{ title: 'In a folder', parent: 'col1' }, /^body\.parent: Livery has no collections; it /],
      [{ title: 'From a template', template: { id: 'tpl' } }, /^body\.template: Livery has no /],
      [
        { computedSource: { type: 'openapi', openAPISpec: 'petstore' } },
        /^body\.computedSource: Livery has no computed content/,
      ],
      [{ title: 'Locked', editMode: 'locked' }, /^body\.editMode: Livery has no locked spaces/],
    ];
    for (const [payload, message] of refused) {
      const response = await send('POST', `/v1/orgs/${t.orgId}/spaces`, payload);
      assert.match(expectError(response, 400), message, JSON.stringify(payload));
    }
    assert.equal(await count(), before);
  });
});
