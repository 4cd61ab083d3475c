import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import type { Shape } from '../../src/settings/override-rules.js';
import {
  OverridePatchSchema,
  SETTINGS_SHAPE,
  SettingsSchema,
} from '../../src/settings/settings-schema.js';
import { contrastWarnings } from '../../studio/schema/contrast.js';
import { firstInvalid } from '../../studio/schema/validate.js';
import { constraintsOf, initialValue } from '../../studio/schema/values.js';
import {
  describe as describeField,
  type JsonSchema,
  type Kind,
  kindOf,
  labelOf,
  leavesOf,
  schemaAt,
  sectionsOf,
} from '../../studio/schema/walk.js';

/**
 * The generated form's logic (studio/schema/walk.ts): kinds inferred from the schema, every
 * setting of the server's schema placed in exactly one section, a new server field appearing
 * without UI code, labels, constraint attributes, starting values, and contrast warnings.
 */

const settings = JSON.parse(JSON.stringify(SettingsSchema)) as JsonSchema;
const shape = JSON.parse(JSON.stringify(SETTINGS_SHAPE)) as Shape;
const at = (path: string) => {
  const schema = schemaAt(settings, path.split('.'));
  assert.ok(schema !== undefined, path);
  return describeField(path.split('.').pop() ?? path, schema, path, false);
};

describe('kinds inferred from the schema', () => {
  const cases: [string, Kind][] = [
    ['styling.primaryColor', 'pair'],
    ['styling.primaryColor.light', 'color'],
    ['styling.corners', 'enum'],
    ['themes.toggeable', 'boolean'],
    ['privacyPolicy.url', 'url'],
    ['title', 'text'],
    ['ai.instructions', 'textarea'],
    ['styling.font', 'nameOrObject'],
    ['favicon', 'oneField'],
    ['localizedTitle', 'localized'],
    ['header.links', 'list'],
    ['header.links.0.to', 'union'],
    ['header.links.0.to.url', 'url'],
    ['socialAccounts.0', 'object'],
    ['styling.font.fontFaces.0.weight', 'number'],
    ['styling.codeTheme.default', 'pair'],
    ['pageActions.items.0', 'enum'],
  ];
  for (const [path, kind] of cases)
    test(`${path} → ${kind}`, () => assert.equal(at(path).kind, kind));

  test('a schema with nothing known is edited as JSON', () => assert.equal(kindOf({}), 'json'));
});

describe('sections', () => {
  const paths = (sections: ReturnType<typeof sectionsOf>) =>
    sections.flatMap((s) => s.fields.map((f) => f.path));

  test('every leaf of the settings schema is in exactly one section', () => {
    const all = paths(sectionsOf(settings, shape));
    assert.equal(new Set(all).size, all.length);
    assert.deepEqual(
      [...all].sort(),
      leavesOf(settings, shape)
        .map((f) => f.path)
        .sort(),
    );
    for (const expected of [
      'styling.primaryColor',
      'header.links',
      'footer.groups',
      'announcement.message',
      'socialAccounts',
    ]) {
      assert.ok(all.includes(expected), expected);
    }
  });

  test('groups are flattened; derived fields are hidden', () => {
    const all = paths(sectionsOf(settings, shape));
    assert.ok(all.includes('styling.sidebar.list'));
    assert.ok(!all.includes('styling'));
    assert.ok(!all.includes('pageActions'.concat('.externalAI')));
  });

  test("a variant's view leaves out the site-only settings", () => {
    const all = paths(sectionsOf(settings, shape, ['ai', 'advancedCustomization', 'insights']));
    assert.ok(!all.some((path) => /^(ai|advancedCustomization|insights)\./.test(path)));
    assert.ok(all.includes('aiSearch.enabled'));
  });

  test('a field the server adds appears without UI code, in its group or in a section of its own', () => {
    const styling = settings.properties?.styling as JsonSchema;
    const grown: JsonSchema = {
      ...settings,
      properties: {
        ...settings.properties,
        styling: {
          ...styling,
          properties: {
            ...styling.properties,
            shadowColor: { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' },
          },
        },
        newsletter: {
          type: 'object',
          properties: { enabled: { type: 'boolean', description: 'Newsletter box' } },
        },
      },
    };
    const sections = sectionsOf(grown, { ...shape, newsletter: {} });
    const look = sections.find((s) => s.id === 'look');
    const shadow = look?.fields.find((f) => f.path === 'styling.shadowColor');
    assert.equal(shadow?.kind, 'color');
    assert.equal(shadow?.label, 'Shadow color');
    const own = sections.find((s) => s.id === 'newsletter');
    assert.equal(own?.title, 'Newsletter');
    assert.deepEqual(
      own?.fields.map((f) => [f.path, f.kind, f.label]),
      [['newsletter.enabled', 'boolean', 'Newsletter box']],
    );
  });

  test('the announcement is one optional group', () => {
    const announcement = sectionsOf(settings, shape).find((s) => s.id === 'announcement');
    assert.ok(announcement?.fields.every((f) => f.within === 'announcement'));
  });
});

describe('labels, constraints and starting values', () => {
  for (const [path, label] of [
    ['styling.primaryColor', 'Primary color'],
    ['pdf.enabled', 'PDF export'],
    ['header.links.0.to', 'Link target'],
    ['header.links.3', 'Item 4'],
    ['styling.sidebar.background', 'Sidebar background'],
  ] as const) {
    test(`label of ${path}: ${label}`, () =>
      assert.equal(labelOf(path, schemaAt(settings, path.split('.')) ?? {}), label));
  }

  test('a prefix pattern gets a tail, since the browser anchors `pattern` at both ends', () => {
    assert.deepEqual(constraintsOf(at('privacyPolicy.url')), {
      pattern: '^[hH][tT][tT][pP][sS]?://.*',
      maxLength: 2048,
      required: true,
    });
    assert.deepEqual(constraintsOf({ ...at('title'), optional: true }), {
      maxLength: 128,
      minLength: 2,
    });
  });

  test('starting values: hints where given, else the least the schema accepts', () => {
    assert.deepEqual(initialValue(at('header.links').schema.items ?? {}, 'header.links.0'), {
      title: 'Link',
      to: { kind: 'url', url: 'https://' },
      links: [],
    });
    assert.deepEqual(initialValue(at('socialAccounts').schema.items ?? {}, 'socialAccounts.0'), {
      platform: 'twitter',
      handle: '',
      display: { footer: false, header: false },
    });
    const target = at('header.links.0.to').schema.oneOf?.[2] ?? {};
    assert.deepEqual(initialValue(target, 'header.links.0.to', false), { kind: 'page', page: '' });
  });
});

describe('contrast warnings (WCAG 2.1, 4.5:1)', () => {
  const pair = (light: string, dark: string) => ({ light, dark });
  const cases: [string, Record<string, unknown>, Record<string, number>][] = [
    [
      'the default primary color',
      { styling: { primaryColor: pair('#346DDB', '#346DDB'), links: 'default' } },
      {},
    ],
    [
      'a mid gray: button text fails in both themes',
      { styling: { primaryColor: pair('#777777', '#777777'), links: 'accent' } },
      { 'styling.primaryColor': 2 },
    ],
    [
      'header links on a header of nearly the same color',
      {
        header: {
          backgroundColor: pair('#ffffff', '#111113'),
          linkColor: pair('#eeeeee', '#edeef0'),
        },
      },
      { 'header.linkColor': 1, 'header.backgroundColor': 1 },
    ],
    [
      'a color being typed is skipped',
      { styling: { primaryColor: pair('#77', '#777777'), links: 'accent' } },
      { 'styling.primaryColor': 1 },
    ],
  ];
  for (const [name, value, counts] of cases) {
    test(name, () => {
      const warnings = contrastWarnings(JSON.parse(JSON.stringify(value)));
      assert.deepEqual(
        Object.fromEntries(Object.entries(warnings).map(([k, v]) => [k, v.length])),
        counts,
      );
    });
  }
});

describe('the quick check before a preview', () => {
  const override = JSON.parse(JSON.stringify(OverridePatchSchema)) as JsonSchema;
  const defaults = JSON.parse(JSON.stringify(DEFAULT_SETTINGS));
  const link = (url: string) => ({ title: 'A', to: { kind: 'url', url }, links: [] });
  const cases: [string, JsonSchema, unknown, string | undefined][] = [
    ['the defaults', settings, defaults, undefined],
    [
      'a color half typed',
      settings,
      {
        ...defaults,
        styling: { ...defaults.styling, primaryColor: { light: '#12', dark: '#123' } },
      },
      'styling.primaryColor.light',
    ],
    [
      'a URL with no host yet',
      settings,
      { ...defaults, privacyPolicy: { url: 'https://' } },
      'privacyPolicy.url',
    ],
    ['a title too short', settings, { ...defaults, title: 'x' }, 'title'],
    [
      'a link target that is no URL',
      settings,
      { ...defaults, header: { preset: 'default', links: [link('https://a.test'), link('nope')] } },
      'header.links.1.to',
    ],
    [
      'a PATCH resetting fields with null',
      override,
      { styling: { corners: null }, title: null },
      undefined,
    ],
    ['an unknown enumeration value', override, { styling: { corners: 'wavy' } }, 'styling.corners'],
    [
      'an announcement without its style',
      override,
      { announcement: { enabled: true, message: 'Hi' } },
      'announcement.style',
    ],
  ];
  for (const [name, schema, value, expected] of cases) {
    test(name, () =>
      assert.equal(firstInvalid(schema, JSON.parse(JSON.stringify(value))), expected),
    );
  }
});
