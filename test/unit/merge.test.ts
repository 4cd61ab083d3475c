import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import {
  effectiveSettings,
  isEmptyOverride,
  mergeOverride,
  type Override,
  settingsFromInput,
} from '../../src/settings/merge.js';
import type { Settings, SettingsPatch } from '../../src/settings/settings-schema.js';

const red = { light: '#ff0000', dark: '#880000' };
const blue = { light: '#0000ff', dark: '#000088' };
const link = (title: string) => ({
  title,
  to: { kind: 'url' as const, url: `https://${title}.test` },
});
const headerLink = (title: string) => ({ ...link(title), links: [] });

/** Site settings used by the effective-settings rows: defaults plus a title and a logo. */
const SITE: Settings = {
  ...DEFAULT_SETTINGS,
  title: 'Site title',
  favicon: { emoji: '📘' },
  header: {
    ...DEFAULT_SETTINGS.header,
    logo: { light: 'https://l.test/a.png', dark: 'https://l.test/b.png' },
  },
};

describe('mergeOverride: a PATCH body merged into the stored override', () => {
  const rows: { rule: string; stored: Override; patch: SettingsPatch; expected: Override }[] = [
    {
      rule: 'PATCH {} changes nothing',
      stored: { title: 'T' },
      patch: {},
      expected: { title: 'T' },
    },
    {
      rule: 'an absent field leaves the stored override unchanged',
      stored: { title: 'T', styling: { corners: 'straight' } },
      patch: { themes: { default: 'dark' } },
      expected: { title: 'T', styling: { corners: 'straight' }, themes: { default: 'dark' } },
    },
    {
      rule: 'a group merges field by field',
      stored: { styling: { corners: 'straight', primaryColor: red } },
      patch: { styling: { icons: 'solid' } },
      expected: { styling: { corners: 'straight', primaryColor: red, icons: 'solid' } },
    },
    {
      rule: 'a nested group (styling.sidebar) merges field by field',
      stored: { styling: { sidebar: { background: 'filled' } } },
      patch: { styling: { sidebar: { list: 'pill' } } },
      expected: { styling: { sidebar: { background: 'filled', list: 'pill' } } },
    },
    {
      rule: 'a themed color is a leaf: it replaces whole',
      stored: { styling: { primaryColor: red } },
      patch: { styling: { primaryColor: blue } },
      expected: { styling: { primaryColor: blue } },
    },
    {
      rule: 'arrays replace whole, never concatenate',
      stored: { header: { links: [headerLink('a'), headerLink('b')] } },
      patch: { header: { links: [headerLink('c')] } },
      expected: { header: { links: [headerLink('c')] } },
    },
    {
      rule: 'footer.groups replaces whole',
      stored: { footer: { groups: [{ title: 'G1', links: [link('a')] }] } },
      patch: { footer: { groups: [] } },
      expected: { footer: { groups: [] } },
    },
    {
      rule: 'null removes the field from the override',
      stored: { styling: { corners: 'straight', icons: 'solid' } },
      patch: { styling: { corners: null } },
      expected: { styling: { icons: 'solid' } },
    },
    {
      rule: 'a group emptied by null disappears (canonical stored form)',
      stored: { styling: { corners: 'straight' }, title: 'T' },
      patch: { styling: { corners: null } },
      expected: { title: 'T' },
    },
    {
      rule: 'null on a whole group removes the group override',
      stored: { styling: { corners: 'straight', sidebar: { list: 'line' } } },
      patch: { styling: null },
      expected: {},
    },
    {
      rule: 'favicon: null resets the favicon override',
      stored: { favicon: { emoji: '🎉' }, title: 'T' },
      patch: { favicon: null },
      expected: { title: 'T' },
    },
    {
      rule: 'favicon is a leaf: {icon} replaces {emoji}',
      stored: { favicon: { emoji: '🎉' } },
      patch: { favicon: { icon: { light: 'https://f.test/l.png', dark: 'https://f.test/d.png' } } },
      expected: {
        favicon: { icon: { light: 'https://f.test/l.png', dark: 'https://f.test/d.png' } },
      },
    },
    {
      rule: 'title: a string overrides',
      stored: {},
      patch: { title: 'Variant' },
      expected: { title: 'Variant' },
    },
    {
      rule: 'title: null is stored (the variant has no title)',
      stored: { title: 'Variant' },
      patch: { title: null },
      expected: { title: null },
    },
    {
      rule: 'title: absent keeps a stored null',
      stored: { title: null },
      patch: { styling: { icons: 'thin' } },
      expected: { title: null, styling: { icons: 'thin' } },
    },
    {
      rule: 'announcement merges field by field; its link is a leaf',
      stored: { announcement: { enabled: true, message: 'Old', style: 'info', link: link('a') } },
      patch: { announcement: { enabled: false, message: 'New', style: 'warning' } },
      expected: {
        announcement: { enabled: false, message: 'New', style: 'warning', link: link('a') },
      },
    },
    {
      rule: 'announcement.link: null removes only the link',
      stored: { announcement: { enabled: true, message: 'Msg', style: 'info', link: link('a') } },
      patch: { announcement: { enabled: true, message: 'Msg', style: 'info', link: null } },
      expected: { announcement: { enabled: true, message: 'Msg', style: 'info' } },
    },
    {
      rule: 'header colors can be overridden',
      stored: {},
      patch: { header: { backgroundColor: red, linkColor: blue } },
      expected: { header: { backgroundColor: red, linkColor: blue } },
    },
  ];

  for (const row of rows) {
    test(row.rule, () => {
      const before = structuredClone(row.stored);
      assert.deepEqual(mergeOverride(row.stored, row.patch), row.expected);
      assert.deepEqual(row.stored, before, 'the stored override is not mutated');
    });
  }

  test('keys that reach a prototype are refused', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as SettingsPatch;
    assert.throws(() => mergeOverride({}, patch), /Refusing to merge/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('effectiveSettings: the site settings with the override applied', () => {
  const rows: { rule: string; override: Override; check: (s: Settings) => void }[] = [
    {
      rule: 'no override: exactly the site settings',
      override: {},
      check: (s) => assert.deepEqual(s, SITE),
    },
    {
      rule: 'an overridden leaf replaces the site value; siblings keep the site values',
      override: { styling: { primaryColor: red } },
      check: (s) => {
        assert.deepEqual(s.styling.primaryColor, red);
        assert.equal(s.styling.corners, SITE.styling.corners);
        assert.deepEqual(s.styling.sidebar, SITE.styling.sidebar);
      },
    },
    {
      rule: 'a nested group merges into the site group',
      override: { styling: { sidebar: { list: 'line' } } },
      check: (s) => assert.deepEqual(s.styling.sidebar, { background: 'default', list: 'line' }),
    },
    {
      rule: 'title override',
      override: { title: 'Variant' },
      check: (s) => assert.equal(s.title, 'Variant'),
    },
    {
      rule: 'title null: no title even though the site has one',
      override: { title: null },
      check: (s) => assert.equal('title' in s, false),
    },
    {
      rule: 'a favicon override replaces the site favicon whole',
      override: { favicon: {} },
      check: (s) => assert.deepEqual(s.favicon, {}),
    },
    {
      rule: 'arrays replace the site array',
      override: { header: { links: [headerLink('x')] } },
      check: (s) => {
        assert.deepEqual(s.header.links, [headerLink('x')]);
        assert.deepEqual(s.header.logo, SITE.header.logo, 'sibling logo kept');
      },
    },
    {
      rule: 'an announcement override appears on a site without one',
      override: { announcement: { enabled: true, message: 'Hi', style: 'success' } },
      check: (s) =>
        assert.deepEqual(s.announcement, { enabled: true, message: 'Hi', style: 'success' }),
    },
  ];

  for (const row of rows) {
    test(row.rule, () => {
      const before = structuredClone(SITE);
      row.check(effectiveSettings(SITE, row.override));
      assert.deepEqual(SITE, before, 'the site settings are not mutated');
    });
  }

  test('PATCH then null on every field gives the site settings back', () => {
    const stored = mergeOverride(
      {},
      { styling: { corners: 'circular' }, favicon: { emoji: '🎉' } },
    );
    const cleared = mergeOverride(stored, { styling: { corners: null }, favicon: null });
    assert.equal(isEmptyOverride(cleared), true);
    assert.deepEqual(effectiveSettings(SITE, cleared), SITE);
  });
});

describe('settingsFromInput: what a PUT body stores', () => {
  test('an empty body is the complete defaults', () => {
    assert.deepEqual(settingsFromInput({}), DEFAULT_SETTINGS);
  });

  test('a partial group keeps the defaults of its other fields', () => {
    const s = settingsFromInput({ styling: { corners: 'straight' } });
    assert.equal(s.styling.corners, 'straight');
    assert.deepEqual(s.styling.primaryColor, DEFAULT_SETTINGS.styling.primaryColor);
  });

  test('null takes the default; title null means no title', () => {
    const s = settingsFromInput({ title: null, styling: { corners: null }, themes: null });
    assert.equal('title' in s, false);
    assert.equal(s.styling.corners, DEFAULT_SETTINGS.styling.corners);
    assert.deepEqual(s.themes, DEFAULT_SETTINGS.themes);
  });

  test('a PUT replaces: nothing of an earlier state survives', () => {
    const first = settingsFromInput({ title: 'First', styling: { corners: 'straight' } });
    const second = settingsFromInput({ themes: { default: 'dark' } });
    assert.equal('title' in second, false);
    assert.equal(second.styling.corners, DEFAULT_SETTINGS.styling.corners);
    assert.notDeepEqual(first, second);
  });
});
