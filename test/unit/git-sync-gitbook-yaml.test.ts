import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  parseGitbookYaml,
  projectDirectoryOf,
  spaceRootOf,
} from '../../src/modules/git-sync/format/gitbook-yaml.js';
import { isReadmeName, readmeOf } from '../../src/modules/git-sync/format/readme.js';

interface Row {
  rule: string;
  text: string | undefined;
  root?: string;
  readme?: string;
  summary?: string;
  redirects?: [string, string][];
  warnings?: (string | number)[];
}

describe('.gitbook.yaml as GitBook reads it', () => {
  const rows: Row[] = [
    { rule: 'no file: the defaults', text: undefined },
    { rule: 'an empty file: the defaults', text: '' },
    { rule: 'comments only: the defaults', text: '# nothing\n' },
    {
      rule: 'every documented key',
      text: 'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: ./toc/SUMMARY.md\nredirects:\n  previous/page: new-folder/page.md\n',
      root: 'docs',
      readme: 'intro.md',
      summary: 'toc/SUMMARY.md',
      redirects: [['previous/page', 'new-folder/page.md']],
    },
    { rule: 'root without the trailing slash', text: 'root: ./docs', root: 'docs' },
    { rule: 'root as a bare name', text: 'root: guides/en/', root: 'guides/en' },
    { rule: 'root `./` is the project directory', text: 'root: ./', root: '' },
    {
      rule: 'CRLF line endings',
      text: 'root: ./docs/\r\nstructure:\r\n  summary: summary.md\r\n',
      root: 'docs',
      summary: 'summary.md',
    },
    {
      rule: 'a zero-width space before `structure` hides it, as on GitBook',
      text: 'root: ./\n\u200bstructure:\n  readme: INTRODUCTION.md\n',
      warnings: [2, 'invisible character'],
    },
    {
      rule: 'invalid YAML: defaults, no redirects, a warning with its line',
      text: 'root: ./docs/\nredirects:\n  a: b.md\n  c: [d.md\n',
      warnings: [5, 'invalid YAML'],
    },
    {
      rule: 'a root that climbs out of the project is refused',
      text: 'root: ../other/',
      warnings: [1, '`root`'],
    },
    {
      rule: 'structure paths that climb out of the root are refused',
      text: 'structure:\n  readme: ../README.md\n',
      warnings: [1, 'structure.readme'],
    },
    {
      rule: 'redirect targets: `./` is forgiven, `/` and URLs do not work on GitBook',
      text: 'redirects:\n  old: ./new.md\n  /slash: a.md\n  bad: /abs.md\n  url: https://example.com/\n',
      redirects: [
        ['old', 'new.md'],
        ['slash', 'a.md'],
      ],
      warnings: [4, 'bad', 5, 'url'],
    },
    {
      rule: 'an unknown key is named',
      text: 'title: Docs\n',
      warnings: [1, '"title"'],
    },
    { rule: 'a list at the top is ignored', text: '- a\n- b\n', warnings: ['not a YAML mapping'] },
  ];
  for (const row of rows) {
    test(row.rule, () => {
      const config = parseGitbookYaml(row.text, 'docs/.gitbook.yaml');
      assert.equal(config.root, row.root ?? '');
      assert.equal(config.readme, row.readme ?? 'README.md');
      assert.equal(config.summary, row.summary ?? 'SUMMARY.md');
      assert.deepEqual([...config.redirects], row.redirects ?? []);
      const seen = config.warnings.flatMap((w) => [w.line, w.message]).join(' | ');
      const expected = row.warnings ?? [];
      if (expected.length === 0) assert.deepEqual(config.warnings, []);
      for (const part of expected) {
        if (typeof part === 'number') {
          assert.ok(
            config.warnings.some((w) => w.line === part),
            `line ${part} in ${seen}`,
          );
        } else {
          assert.ok(seen.includes(part), `${part} in ${seen}`);
        }
      }
      for (const warning of config.warnings) assert.equal(warning.file, 'docs/.gitbook.yaml');
    });
  }
});

describe('repoProjectDirectory and the space root', () => {
  const rows: [string | undefined, string | Error][] = [
    [undefined, ''],
    ['', ''],
    ['./', ''],
    ['docs/en/', 'docs/en'],
    ['/docs', 'docs'],
    ['docs/../guides', 'guides'],
    ['..', new Error('repoProjectDirectory')],
    ['docs/../../etc', new Error('repoProjectDirectory')],
  ];
  for (const [input, expected] of rows) {
    test(`${JSON.stringify(input)}`, () => {
      if (expected instanceof Error) {
        assert.throws(
          () => projectDirectoryOf(input),
          (e: unknown) =>
            e instanceof Error &&
            (e as { statusCode?: number }).statusCode === 400 &&
            e.message.includes(expected.message),
        );
      } else {
        assert.equal(projectDirectoryOf(input), expected);
      }
    });
  }
  test('root joins below the project directory', () => {
    assert.equal(spaceRootOf('site/en', parseGitbookYaml('root: ./docs')), 'site/en/docs');
    assert.equal(spaceRootOf('', parseGitbookYaml(undefined)), '');
  });
});

describe('readme names (reference §3.1)', () => {
  test('the four spellings GitBook knows, and no other', () => {
    for (const name of ['README.md', 'readme.md', 'Readme.md', 'README']) {
      assert.ok(isReadmeName(name), name);
    }
    for (const name of ['README.markdown', 'ReadMe.md', 'README.txt', 'readme']) {
      assert.ok(!isReadmeName(name), name);
    }
  });
  test('the first in GitBook order wins when several are present', () => {
    assert.equal(readmeOf(['a.md', 'readme.md', 'README.md']), 'README.md');
    assert.equal(readmeOf(['README', 'Readme.md']), 'Readme.md');
    assert.equal(readmeOf(['a.md']), undefined);
  });
});
