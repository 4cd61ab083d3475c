import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import { effectiveSettings, mergeOverride } from '../../src/settings/merge.js';
import { applyPatch, resolve, type Shape } from '../../src/settings/override-rules.js';
import {
  OverridePatchSchema,
  SETTINGS_SHAPE,
  type Settings,
  type SettingsPatch,
} from '../../src/settings/settings-schema.js';
import {
  changesOf,
  completeGroupsOf,
  type Edits,
  siteSettings,
  variantDraft,
  withEdit,
  withoutEdit,
} from '../../studio/schema/draft.js';
import { isGroupPath, leafPathOf } from '../../studio/schema/leaf-paths.js';
import {
  deepEqual,
  getAt,
  type Json,
  type JsonObject,
  patternOf,
  setAt,
} from '../../studio/schema/paths.js';
import type { JsonSchema } from '../../studio/schema/walk.js';

/**
 * The studio's pure path and draft logic (studio/schema/paths.ts, leaf-paths.ts, draft.ts):
 * dotted paths over JSON, the override rules the studio imports from src/settings/ applied to the
 * shape as the studio receives it (JSON, from /studio/schema.json), checked against the server's
 * typed merge, and the editor's draft as path → value edits.
 */

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as JsonObject;
const shape = json(SETTINGS_SHAPE) as unknown as Shape;
const defaults = json(DEFAULT_SETTINGS);
const overrideSchema = json(OverridePatchSchema) as JsonSchema;
const rules = { shape, defaults, completeGroups: completeGroupsOf(overrideSchema, shape) };

describe('paths', () => {
  const value: Json = {
    styling: { primaryColor: { light: '#111', dark: '#222' } },
    header: { links: [{ title: 'a' }, { title: 'b' }] },
  };

  for (const [path, expected] of [
    ['styling.primaryColor.light', '#111'],
    ['header.links.1.title', 'b'],
    ['header.links.2.title', undefined],
    ['styling.missing.deeper', undefined],
    ['', value],
    ['header.links.0.title.length', undefined],
  ] as const) {
    test(`getAt ${JSON.stringify(path)}`, () => assert.deepEqual(getAt(value, path), expected));
  }

  test('setAt copies the path only and shares the rest', () => {
    const next = setAt(value, 'styling.primaryColor.light', '#333');
    assert.equal(getAt(next, 'styling.primaryColor.light'), '#333');
    assert.equal(getAt(value, 'styling.primaryColor.light'), '#111');
    assert.equal(getAt(next, 'header'), getAt(value, 'header'));
  });

  for (const [path, input, expected] of [
    ['a.b', {}, { a: { b: 1 } }],
    ['a', { a: 2, b: 3 }, { a: 1, b: 3 }],
    ['list.1', { list: [0, 0, 0] }, { list: [0, 1, 0] }],
    ['list.0.x', { list: [{ x: 0, y: 0 }] }, { list: [{ x: 1, y: 0 }] }],
  ] as const) {
    test(`setAt ${path} = 1`, () => assert.deepEqual(setAt(input as Json, path, 1), expected));
  }

  test('setAt undefined removes a field or an item', () => {
    assert.deepEqual(setAt({ a: 1, b: 2 }, 'a', undefined), { b: 2 });
    assert.deepEqual(setAt({ list: [1, 2, 3] }, 'list.1', undefined), { list: [1, 3] });
  });

  test('setAt refuses prototype keys', () => {
    assert.throws(() => setAt({}, '__proto__.polluted', 1), TypeError);
  });

  for (const [a, b, equal] of [
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, true],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[1, 2], [2, 1], false],
    [null, {}, false],
  ] as const) {
    test(`deepEqual ${JSON.stringify(a)} ${JSON.stringify(b)}`, () =>
      assert.equal(deepEqual(a as Json, b as Json), equal));
  }

  test('patternOf replaces list indexes', () => {
    assert.equal(patternOf('header.links.0.links.12.title'), 'header.links.*.links.*.title');
    assert.equal(patternOf('styling.primaryColor'), 'styling.primaryColor');
  });
});

describe('override rules on the shape', () => {
  for (const [path, leaf] of [
    ['styling.primaryColor.light', 'styling.primaryColor'],
    ['styling.sidebar.list', 'styling.sidebar.list'],
    ['header.links.0.title', 'header.links'],
    ['favicon.icon.light', 'favicon'],
    ['title', 'title'],
    ['announcement.link.to.url', 'announcement.link'],
  ] as const) {
    test(`leafPathOf ${path} → ${leaf}`, () => assert.equal(leafPathOf(path, shape), leaf));
  }

  test('isGroupPath', () => {
    assert.equal(isGroupPath('styling.sidebar', shape), true);
    assert.equal(isGroupPath('announcement', shape), true);
    assert.equal(isGroupPath('styling.primaryColor', shape), false);
  });

  const red = { light: '#ff0000', dark: '#880000' };
  const site = json(DEFAULT_SETTINGS);
  const cases: [string, SettingsPatch, SettingsPatch][] = [
    [
      'a group merges field by field',
      { styling: { primaryColor: red } },
      { styling: { corners: 'circular' } },
    ],
    [
      'null removes a field',
      { styling: { primaryColor: red, corners: 'straight' } },
      { styling: { corners: null } },
    ],
    [
      'an emptied group is removed',
      { styling: { corners: 'straight' } },
      { styling: { corners: null } },
    ],
    [
      'a leaf replaces whole',
      { favicon: { emoji: '1f389' } },
      { favicon: { icon: { light: 'https://a.test/i.png', dark: 'https://a.test/i.png' } } },
    ],
    ['title null is kept as "no title"', { title: 'Mine' }, { title: null }],
    [
      'arrays are never concatenated',
      { socialAccounts: [] },
      {
        socialAccounts: [
          { platform: 'github', handle: 'a', display: { footer: true, header: false } },
        ],
      },
    ],
  ];
  for (const [name, stored, patch] of cases) {
    test(`${name}: the rules on the shape the studio receives equal the server's merge`, () => {
      const server = mergeOverride(stored, patch);
      const studio = applyPatch(json(stored), json(patch), shape);
      assert.deepEqual(studio, json(server));
      assert.deepEqual(
        resolve(site, studio, shape),
        json(effectiveSettings(DEFAULT_SETTINGS as Settings, server)),
      );
    });
  }
});

describe('the draft', () => {
  const stored = json(DEFAULT_SETTINGS);

  test('an edit inside a leaf is recorded at the leaf, with its whole new value', () => {
    const edits = withEdit([], 'styling.primaryColor.light', '#000000', stored, shape);
    assert.deepEqual(edits, [['styling.primaryColor', { light: '#000000', dark: '#346DDB' }]]);
  });

  test('a later edit of a leaf replaces the earlier one; a group edit supersedes edits below it', () => {
    let edits: Edits = withEdit([], 'styling.corners', 'straight', stored, shape);
    edits = withEdit(edits, 'styling.corners', 'circular', stored, shape);
    assert.deepEqual(edits, [['styling.corners', 'circular']]);
    edits = withEdit(edits, 'styling', { corners: 'rounded' }, stored, shape);
    assert.deepEqual(edits, [['styling', { corners: 'rounded' }]]);
    assert.deepEqual(withoutEdit(edits, 'styling'), []);
  });

  test('site: edits over the stored settings; undefined removes an optional field', () => {
    const next = siteSettings({ ...stored, title: 'Old' }, [
      ['title', undefined],
      ['styling.corners', 'straight'],
    ]);
    assert.equal(next.title, undefined);
    assert.equal(getAt(next, 'styling.corners'), 'straight');
    assert.equal(getAt(next, 'styling.theme'), 'clean');
  });

  test('variant: the PATCH body holds the edits, null resets, the override and effective follow', () => {
    const siteSettingsValue = { ...stored, title: 'Site' };
    const override = { styling: { corners: 'straight' }, title: 'Variant' } as JsonObject;
    const draft = variantDraft(
      siteSettingsValue,
      override,
      [
        ['styling.corners', null],
        ['styling.theme', 'bold'],
      ],
      rules,
    );
    assert.deepEqual(draft.patch, { styling: { corners: null, theme: 'bold' } });
    assert.deepEqual(draft.override, { styling: { theme: 'bold' }, title: 'Variant' });
    assert.equal(getAt(draft.effective, 'styling.corners'), 'rounded');
    assert.equal(draft.effective.title, 'Variant');
  });

  test('variant: a group the PATCH must send whole (announcement) is completed from the effective value', () => {
    assert.ok(rules.completeGroups.includes('announcement'));
    const site = {
      ...stored,
      announcement: { enabled: true, message: 'Hello', style: 'info' },
    } as JsonObject;
    const draft = variantDraft(site, {}, [['announcement.message', 'Hallo']], rules);
    assert.deepEqual(draft.patch, {
      announcement: { enabled: true, message: 'Hallo', style: 'info' },
    });
  });

  test('changes name each edited path with its value before and after; equal ones are left out', () => {
    const after = siteSettings(stored, [
      ['styling.corners', 'straight'],
      ['styling.theme', 'clean'],
    ]);
    assert.deepEqual(
      changesOf(
        [
          ['styling.corners', 'straight'],
          ['styling.theme', 'clean'],
        ],
        stored,
        after,
      ),
      [{ path: 'styling.corners', before: 'rounded', after: 'straight' }],
    );
  });
});
