import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import { readCustomizationFile } from '../../src/modules/git-sync/site/customization-file.js';
import { nodesOf, readSiteConfig } from '../../src/modules/git-sync/site/site-config.js';
import { siteFileOf } from '../../src/modules/git-sync/site/site-file.js';
import { resolveDirectory } from '../../src/modules/git-sync/site/site-rules.js';
import { describeViolation } from '../../src/modules/git-sync/site/yaml-file.js';

type Node = Record<string, unknown>;
const space = (key: string, extra: Node = {}): Node => ({
  type: 'space',
  key,
  title: `Space ${key}`,
  path: key,
  content: { directory: `./${key}` },
  ...extra,
});
const section = (key: string, children: Node[], extra: Node = {}): Node => ({
  type: 'section',
  key,
  title: `Section ${key}`,
  path: key,
  children,
  ...extra,
});
const group = (key: string, children: Node[], extra: Node = {}): Node => ({
  type: 'section-group',
  key,
  title: `Group ${key}`,
  children,
  ...extra,
});
const link = (key: string, extra: Node = {}): Node => ({
  type: 'external-link',
  key,
  title: `Link ${key}`,
  url: 'https://example.com/status',
  ...extra,
});
const site = (structure: Node[]) => stringify({ site: { title: 'Docs', structure } });
/** A well-formed sectioned site, for rows that break one thing in it. */
const sectioned = (more: Node[] = [], firstExtra: Node = {}) =>
  site([
    section('product', [space('guides', { default: true }), space('api')], {
      default: true,
      ...firstExtra,
    }),
    ...more,
  ]);

interface Row {
  rule: string;
  text: string;
  /** Expected violations as `rule key` (key '' when none); empty: the file is accepted. */
  expect: string[];
  project?: string;
}

const rows: Row[] = [
  {
    rule: 'top-level spaces, one default',
    text: site([space('a', { default: true }), space('b')]),
    expect: [],
  },
  {
    rule: 'sections, groups (one nested level), links, null directory',
    text: site([
      section(
        's1',
        [
          space('en', { default: true }),
          space('fr', { content: { directory: null, language: 'fr' } }),
        ],
        { default: true },
      ),
      group('g1', [
        section('s2', [space('x', { default: true })]),
        group('g2', [section('s3', [space('y', { default: true })]), link('l2')]),
        link('l1'),
      ]),
      link('l0'),
      group('empty', [], { draft: true }),
    ]),
    expect: [],
  },
  {
    rule: 'duplicate keys across node types',
    text: sectioned([link('guides')]),
    expect: ['unique-keys guides'],
  },
  {
    rule: 'two default spaces among siblings',
    text: site([space('a', { default: true }), space('b', { default: true })]),
    expect: ['one-default-space b'],
  },
  {
    rule: 'no default among top-level spaces',
    text: site([space('a'), space('b')]),
    expect: ['one-default-space a'],
  },
  {
    rule: "no default among a section's spaces",
    text: site([section('s', [space('a')], { default: true })]),
    expect: ['one-default-space s'],
  },
  {
    rule: 'a section without spaces',
    text: site([section('s', [], { default: true })]),
    expect: ['one-default-space s'],
  },
  {
    rule: 'two default sections',
    text: sectioned([section('other', [space('o', { default: true })], { default: true })]),
    expect: ['one-default-section other'],
  },
  {
    rule: 'no default section',
    text: sectioned([], { default: false }),
    expect: ['one-default-section product'],
  },
  {
    rule: 'a default section inside a group counts',
    text: site([group('g', [section('s', [space('a', { default: true })], { default: true })])]),
    expect: [],
  },
  {
    rule: 'top-level space in a site with sections',
    text: sectioned([space('loose', { default: true })]),
    expect: ['no-top-level-spaces loose'],
  },
  {
    rule: 'sections hold only spaces',
    text: site([
      section(
        's',
        [space('a', { default: true }), section('inner', [space('b', { default: true })])],
        { default: true },
      ),
    ]),
    expect: ['section-children inner'],
  },
  {
    rule: 'a space in a section group',
    text: sectioned([group('g', [space('in-group', { default: true })])]),
    expect: ['section-group-children in-group'],
  },
  {
    rule: 'groups nest one level only',
    text: sectioned([group('g1', [group('g2', [group('g3', [])])])]),
    expect: ['section-group-depth g3'],
  },
  {
    rule: 'an external link in a section',
    text: site([section('s', [space('a', { default: true }), link('l')], { default: true })]),
    expect: ['external-link-place l'],
  },
  {
    rule: 'an external link in a site without sections',
    text: site([space('a', { default: true }), link('l')]),
    expect: ['external-link-needs-section l'],
  },
  {
    rule: 'a section group in a site without sections',
    text: site([space('a', { default: true }), group('g', [])]),
    expect: ['section-group-needs-section g'],
  },
  {
    rule: 'external link url not http(s)',
    text: sectioned([link('l', { url: 'javascript:alert(1)' })]),
    expect: ['schema l'],
  },
  {
    rule: 'external link url relative',
    text: sectioned([link('l', { url: '/status' })]),
    expect: ['schema l'],
  },
  {
    rule: 'external link url ftp',
    text: sectioned([link('l', { url: 'ftp://example.com/x' })]),
    expect: ['schema l'],
  },
  {
    rule: 'two spaces on one directory, different languages',
    text: site([
      space('en', { default: true, content: { directory: './docs', language: 'en' } }),
      space('fr', { content: { directory: 'docs', language: 'fr' } }),
    ]),
    expect: ['directory-language fr'],
  },
  {
    rule: 'two spaces on one directory, one without a language',
    text: site([
      space('en', { default: true, content: { directory: './docs', language: 'en' } }),
      space('none', { content: { directory: '/docs' } }),
    ]),
    expect: ['directory-language none'],
  },
  {
    rule: 'two spaces on one directory, same language: allowed',
    text: site([
      space('a', { default: true, content: { directory: './docs', language: 'en' } }),
      space('b', { content: { directory: 'docs/', language: 'en' } }),
    ]),
    expect: [],
  },
  {
    rule: '`/x` is from the repository root, `x` from the project directory: not the same directory',
    project: 'site',
    text: site([
      space('a', { default: true, content: { directory: '/docs', language: 'en' } }),
      space('b', { content: { directory: 'docs', language: 'fr' } }),
    ]),
    expect: [],
  },
  {
    rule: 'null directories never clash',
    text: site([
      space('a', { default: true, content: { directory: null, language: 'en' } }),
      space('b', { content: { directory: null, language: 'fr' } }),
    ]),
    expect: [],
  },
  {
    rule: 'a `..` segment',
    text: site([space('a', { default: true, content: { directory: '../elsewhere' } })]),
    expect: ['directory-parent a'],
  },
  {
    rule: 'a `..` segment that stays inside',
    text: site([space('a', { default: true, content: { directory: 'docs/../docs' } })]),
    expect: ['directory-parent a'],
  },
  {
    rule: 'unknown field on a node',
    text: site([space('a', { default: true, colour: 'red' })]),
    expect: ['schema a'],
  },
  {
    rule: 'unknown field in content',
    text: site([space('a', { default: true, content: { directory: 'a', lang: 'en' } })]),
    expect: ['schema a'],
  },
  {
    rule: 'unknown field on the site',
    text: stringify({ site: { title: 'Docs', structure: [], theme: 'x' } }),
    expect: ['schema '],
  },
  {
    rule: 'unknown top-level field',
    text: stringify({ version: 1, site: { title: 'Docs', structure: [] }, extra: 1 }),
    expect: ['schema '],
  },
  {
    rule: 'version 2 refused',
    text: stringify({ version: 2, site: { title: 'Docs', structure: [] } }),
    expect: ['schema '],
  },
  {
    rule: 'missing content',
    text: site([space('a', { default: true, content: undefined })]),
    expect: ['schema a'],
  },
  {
    rule: 'unknown node type',
    text: site([{ type: 'page', key: 'p', title: 'P' }]),
    expect: ['schema p'],
  },
  {
    rule: "a language that is not GitBook's",
    text: site([space('a', { default: true, content: { directory: 'a', language: 'klingon' } })]),
    expect: ['schema a'],
  },
  {
    rule: 'a localized title keyed by an unknown language',
    text: site([space('a', { default: true, localizedTitle: { xx: 'A' } })]),
    expect: ['schema a'],
  },
  {
    rule: 'a path that is not one URL segment',
    text: site([space('a', { default: true, path: 'a/b' })]),
    expect: ['schema a'],
  },
  {
    rule: "a section title shorter than GitBook's minimum",
    text: sectioned([], { title: 'P' }),
    expect: ['schema product'],
  },
  {
    rule: 'a missing title is the site schema',
    text: stringify({ site: { structure: [] } }),
    expect: ['schema '],
  },
  {
    rule: 'two malformed nodes: both reported',
    text: site([space('a', { default: 'yes' }), space('b', { hidden: 1 })]),
    expect: ['schema a', 'schema b'],
  },
  {
    rule: 'a YAML mapping with a key twice',
    text: 'site:\n  title: Docs\n  title: Again\n  structure: []\n',
    expect: ['yaml '],
  },
  { rule: 'invalid YAML', text: 'site:\n  title: [Docs\n', expect: ['yaml '] },
  { rule: 'not a mapping', text: '- a\n- b\n', expect: ['schema '] },
];

describe('docs.yaml: GitSyncSiteConfig and its rules', () => {
  for (const row of rows) {
    test(row.rule, () => {
      const result = readSiteConfig(row.text, 'docs.yaml', row.project ?? '');
      const got = result.ok ? [] : result.violations.map((v) => `${v.rule} ${v.key ?? ''}`);
      assert.deepEqual(
        got,
        row.expect,
        result.ok ? 'accepted' : result.violations.map(describeViolation).join('\n'),
      );
      if (!result.ok) for (const v of result.violations) assert.equal(v.file, 'docs.yaml');
    });
  }
});

describe('docs.yaml: lines and messages', () => {
  const text = [
    'site:', // 1
    '  title: Docs', // 2
    '  structure:', // 3
    '    - type: section', // 4
    '      key: s', // 5
    '      title: Section', // 6
    '      path: s', // 7
    '      default: true', // 8
    '      children:', // 9
    '        - type: space', // 10
    '          key: a', // 11
    '          title: A', // 12
    '          path: a', // 13
    '          default: true', // 14
    '          content: { directory: ./a }', // 15
    '        - type: space', // 16
    '          key: a', // 17
    '          title: Again', // 18
    '          path: b', // 19
    '          content: { directory: ./b }', // 20
    '          colour: red', // 21
  ].join('\n');

  test('a schema violation names the field and its line', () => {
    const result = readSiteConfig(text, 'docs/docs.yaml', 'docs');
    assert.equal(result.ok, false);
    if (result.ok) return;
    const [v] = result.violations;
    assert.equal(v?.line, 21);
    assert.equal(v?.key, 'a');
    assert.match(
      v?.message ?? '',
      /site\.structure\[0\]\.children\[1\]\.colour is not a known field/,
    );
    assert.equal(
      describeViolation(v as NonNullable<typeof v>).startsWith('docs/docs.yaml:21: node "a": '),
      true,
    );
  });

  test("a rule violation names the rule, the key, and the second node's line", () => {
    const result = readSiteConfig(text.replace('\n          colour: red', ''), 'docs.yaml', '');
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(
      result.violations.map((v) => [v.rule, v.key, v.line]),
      [['unique-keys', 'a', 16]],
    );
    assert.match(describeViolation(result.violations[0] as never), /line 10/);
  });

  test('a YAML error names its line', () => {
    const result = readSiteConfig(
      'site:\n  title: Docs\n  structure:\n    - key: [x\n',
      'docs.yaml',
      '',
    );
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.violations[0]?.line !== undefined, true);
  });

  test('directories resolve from the project directory, `/` from the top', () => {
    const ok = readSiteConfig(
      site([
        section(
          's',
          [
            space('a', { default: true, content: { directory: './a' } }),
            space('b', { content: { directory: '/shared/b' } }),
            space('c', { content: { directory: 'c/' } }),
            space('d', { content: { directory: null } }),
            space('e', { content: { directory: '.' } }),
          ],
          { default: true },
        ),
      ]),
      'site/docs.yaml',
      'site',
    );
    assert.equal(ok.ok, true);
    if (!ok.ok) return;
    const dirs = [...nodesOf(ok.config.structure)]
      .filter((n) => n.type === 'space')
      .map((n) => (n.type === 'space' ? n.repositoryDirectory : undefined));
    assert.deepEqual(dirs, ['site/a', 'shared/b', 'site/c', null, 'site']);
  });
});

describe('content.directory resolution', () => {
  const cases: [string, string, string | undefined][] = [
    ['./guides', '', 'guides'],
    ['guides', 'docs', 'docs/guides'],
    ['/guides', 'docs', 'guides'],
    ['/', 'docs', ''],
    ['./', 'docs', 'docs'],
    ['a\\b', '', 'a/b'],
    ['../x', 'docs', undefined],
    ['a/../../x', '', undefined],
    ['..\\x', '', undefined],
  ];
  for (const [written, project, expected] of cases) {
    test(`${written} from ${JSON.stringify(project)}`, () => {
      assert.equal(resolveDirectory(written, project), expected);
    });
  }
});

describe('which file describes the site', () => {
  test('docs.yaml alone, gitbook-docs.yaml alone, both, none', () => {
    assert.deepEqual(siteFileOf(new Set(['docs.yaml'])), { name: 'docs.yaml' });
    assert.deepEqual(siteFileOf(new Set(['gitbook-docs.yaml'])), { name: 'gitbook-docs.yaml' });
    assert.deepEqual(siteFileOf(new Set(['gitbook-docs.yaml', 'docs.yaml'])), {
      name: 'docs.yaml',
      ignored: 'gitbook-docs.yaml',
    });
    assert.equal(siteFileOf(new Set(['README.md'])), undefined);
  });
});

describe('the customization file', () => {
  const keys = new Set(['docs-en', 'docs-fr']);
  const rows: { rule: string; text: string; expect: string[] | 'ok' }[] = [
    { rule: 'empty file', text: '', expect: 'ok' },
    {
      rule: 'site and variants',
      text: "site:\n  styling:\n    primaryColor: { light: '#346DDB', dark: '#112233' }\nvariants:\n  docs-fr:\n    title: Documentation\n",
      expect: 'ok',
    },
    {
      rule: 'a variant override with null removes a field',
      text: 'variants:\n  docs-fr:\n    title: null\n',
      expect: 'ok',
    },
    {
      rule: 'an empty variant entry is no override',
      text: 'variants:\n  docs-fr:\n',
      expect: 'ok',
    },
    {
      rule: 'a wrong colour names the field and its line',
      text: "site:\n  styling:\n    primaryColor: { light: 'blue', dark: '#112233' }\n",
      expect: ['customization  3 site.styling.primaryColor.light must be a hex color'],
    },
    {
      rule: 'an unknown setting',
      text: 'site:\n  stylin: {}\n',
      expect: ['customization  2 site.stylin is not a known field'],
    },
    {
      rule: 'a site-level field in a variant is refused, as by the API',
      text: 'variants:\n  docs-en:\n    title: Title\n    ai:\n      mode: none\n',
      expect: ['customization docs-en 4 variants.docs-en.ai is not allowed'],
    },
    {
      rule: 'a variant key that is no space of docs.yaml',
      text: 'variants:\n  docs-de:\n    title: T\n',
      expect: ['customization docs-de 2 variants.docs-de names no space node'],
    },
    {
      rule: 'an unknown part',
      text: 'theme: {}\n',
      expect: ['customization  1 theme is not a known field'],
    },
    {
      rule: 'not a mapping',
      text: '- 1\n',
      expect: ['customization  1 the file must be a mapping'],
    },
    { rule: 'bad YAML', text: 'site: {\n', expect: ['yaml  '] },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const result = readCustomizationFile(row.text, 'livery-customization.yaml', keys);
      if (row.expect === 'ok') {
        assert.equal(
          result.ok,
          true,
          result.ok ? '' : result.violations.map(describeViolation).join('\n'),
        );
        return;
      }
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.equal(result.violations.length, row.expect.length);
      row.expect.forEach((expected, i) => {
        const v = result.violations[i];
        const got = `${v?.rule} ${v?.key ?? ''} ${v?.line ?? ''} ${v?.message}`;
        assert.ok(got.startsWith(expected), `${got}\n  does not start with\n${expected}`);
      });
    });
  }

  test("the values read are the file's", () => {
    const result = readCustomizationFile(
      'site:\n  title: Hello\nvariants:\n  docs-en: { title: En }\n',
      'f',
      keys,
    );
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.deepEqual(result.customization.site, { title: 'Hello' });
    assert.deepEqual([...(result.customization.variants ?? [])], [['docs-en', { title: 'En' }]]);
  });
});
