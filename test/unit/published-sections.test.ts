import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sectionIcon } from '../../src/modules/published/rendering/section-icons.js';
import {
  type StructureItem,
  sectionBase,
  sectionsNav,
  shownItems,
} from '../../src/modules/published/rendering/sections.js';
import { stringsFor } from '../../src/modules/published/rendering/strings.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import type { Settings } from '../../src/settings/settings-schema.js';

const live = { draft: false, hidden: false };
const section = (id: string, extra: Partial<StructureItem> = {}): StructureItem =>
  ({
    kind: 'section',
    id,
    title: `Title ${id}`,
    path: id,
    isDefault: false,
    ...live,
    ...extra,
  }) as StructureItem;

const structure: StructureItem[] = [
  section('guides', { isDefault: true, icon: 'book', localizedTitle: { fr: 'Guides FR' } }),
  section('api', { icon: 'code', description: 'The reference' }),
  {
    kind: 'group',
    id: 'g1',
    title: 'Products',
    localizedTitle: { fr: 'Produits' },
    icon: 'cube',
    ...live,
    children: [
      section('cloud', { description: 'Hosted', localizedDescription: { fr: 'Hébergé' } }),
      section('server', { description: 'Self-hosted' }),
      {
        kind: 'group',
        id: 'g2',
        title: 'More',
        ...live,
        children: [section('extra')],
      },
      {
        kind: 'link',
        id: 'l1',
        title: 'Status',
        url: 'https://status.example.test/',
        description: 'Uptime',
        ...live,
      },
    ],
  },
];

const settingsIn = (locale: string, target: 'self' | 'blank' = 'self'): Settings =>
  ({
    ...DEFAULT_SETTINGS,
    internationalization: { ...DEFAULT_SETTINGS.internationalization, locale },
    externalLinks: { ...DEFAULT_SETTINGS.externalLinks, target },
  }) as Settings;

const render = (items: StructureItem[], current: string, locale = 'en', target?: 'blank') =>
  String(
    (
      sectionsNav({
        items,
        currentSectionId: current,
        root: '/s/acme/',
        settings: settingsIn(locale, target),
        strings: stringsFor(locale),
      }) || { html: '' }
    ).html,
  );

describe('the sections navigation', () => {
  test('a tab per root section, at its path; the default section at the root; current marked', () => {
    const out = render(structure, 'api');
    assert.match(out, /<nav class="site-sections" aria-label="Sections">/);
    assert.match(
      out,
      /<a class="section-tab" href="\/s\/acme\/">.*?<span>Title guides<\/span><\/a>/,
    );
    assert.match(
      out,
      /<a class="section-tab" href="\/s\/acme\/api\/" aria-current="true" title="The reference">/,
    );
    assert.equal(out.match(/aria-current/g)?.length, 1);
  });

  test('a group is a <details> menu of its sections, nested groups and links, with descriptions', () => {
    const out = render(structure, 'cloud');
    assert.match(
      out,
      /<details class="section-menu"><summary class="section-tab" aria-current="true">/,
    );
    assert.match(
      out,
      /<a class="section-entry" href="\/s\/acme\/cloud\/" aria-current="true">.*<span class="section-entry-title">Title cloud<\/span><span class="section-entry-description">Hosted<\/span>/,
    );
    assert.match(
      out,
      /<li class="section-subgroup"><span class="section-subgroup-title"><span>More<\/span><\/span><ul><li><a class="section-entry" href="\/s\/acme\/extra\/">/,
    );
    assert.match(
      out,
      /<a class="section-entry section-external" href="https:\/\/status\.example\.test\/">.*Uptime.*icon-external.*<span class="visually-hidden"> \(external site\)<\/span><\/a>/,
    );
  });

  test("titles and descriptions in the variant's language, else the default text", () => {
    const out = render(structure, 'guides', 'fr');
    assert.match(out, /aria-label="Rubriques"/);
    assert.match(out, /<span>Guides FR<\/span>/);
    assert.match(out, /<span>Produits<\/span>/);
    assert.match(out, /Hébergé/);
    assert.match(out, /<span>Title api<\/span>/, 'no French title: the default one');
    assert.match(out, /\(site externe\)/);
  });

  test('drafts and hidden items are left out; a group left empty too', () => {
    const items = [
      section('a', { isDefault: true }),
      section('b', { draft: true }),
      section('c', { hidden: true }),
      {
        kind: 'group',
        id: 'g',
        title: 'Empty',
        ...live,
        children: [section('d', { draft: true })],
      },
      { kind: 'link', id: 'l', title: 'Off', url: 'https://x.test/', draft: true, hidden: false },
      section('e'),
    ] as StructureItem[];
    assert.deepEqual(
      shownItems(items).map((item) => item.id),
      ['a', 'e'],
    );
    const out = render(items, 'a');
    assert.doesNotMatch(out, /Title b|Title c|Empty|Off/);
  });

  test('one section and nothing else: no navigation', () => {
    assert.equal(render([section('only', { isDefault: true })], 'only'), '');
    assert.equal(
      render([section('a', { isDefault: true }), section('b', { hidden: true })], 'a'),
      '',
    );
  });

  test('every text escaped; a refused URL scheme is not a link; externalLinks.target honoured', () => {
    const items = [
      section('a', { isDefault: true, title: '<img src=x onerror=alert(1)>' }),
      {
        kind: 'link',
        id: 'l',
        title: '"><script>',
        url: 'javascript:alert(1)',
        ...live,
      },
      { kind: 'link', id: 'm', title: 'Out', url: 'https://out.test/?a=1&b=2', ...live },
    ] as StructureItem[];
    const out = render(items, 'a', 'en', 'blank');
    assert.doesNotMatch(out, /<img|<script|javascript:/);
    assert.match(out, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(out, /<span class="section-tab section-external unresolved">/);
    assert.match(
      out,
      /href="https:\/\/out\.test\/\?a=1&amp;b=2" target="_blank" rel="noopener noreferrer"/,
    );
  });

  test('a section path is one encoded segment', () => {
    assert.equal(sectionBase('/s/acme/', { path: 'a b?', isDefault: false }), '/s/acme/a%20b%3F/');
    assert.equal(sectionBase('/s/acme/', { path: 'x', isDefault: true }), '/s/acme/');
  });
});

describe('section icons', () => {
  test('known names and aliases are drawn inline; unknown ones show nothing', () => {
    const book = sectionIcon('book');
    assert.ok(book !== '');
    assert.match(
      book.html,
      /^<svg class="icon section-icon" viewBox="0 0 24 24" aria-hidden="true"/,
    );
    assert.match((sectionIcon('cog') as { html: string }).html, /data-icon="gear"/);
    assert.match((sectionIcon('fa-house') as { html: string }).html, /data-icon="house"/);
    assert.equal(sectionIcon('no-such-icon'), '');
    assert.equal(sectionIcon('__proto__'), '');
    assert.equal(sectionIcon(undefined), '');
  });
});
