import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findChainProblem, MAX_CHAIN } from '../../src/modules/redirects/chains.js';
import {
  appendCaptured,
  canonicalPath,
  canonicalSource,
  RuleIndex,
} from '../../src/modules/redirects/source-path.js';

/** The pure parts of site redirects (docs/sites.md, "Redirects"): sources, matching, chains. */
describe('sources', () => {
  test('canonical forms', () => {
    const table: [string, string | undefined][] = [
      ['/old/page', '/old/page'],
      ['/caf%c3%a9', '/caf%C3%A9'],
      ['/%41b%7e', '/Ab~'],
      ['/old/*', '/old/*'],
      ['/o%6cd*', '/old*'],
      ['/a/../b', undefined],
      ['/./b', undefined],
    ];
    for (const [source, canonical] of table)
      assert.equal(canonicalSource(source), canonical, source);
    assert.equal(canonicalPath(['café', 'a b']), '/caf%C3%A9/a%20b');
  });

  test('matching: exact first, then the longest prefix, with the suffix', () => {
    const index = new RuleIndex(
      ['/old', '/old/*', '/old*', '/old/deep/*', '/x/y'].map((source) => ({ source })),
    );
    const table: [string, string | undefined, string][] = [
      ['/old', '/old', ''],
      ['/old/a/b', '/old/*', 'a/b'],
      ['/older', '/old*', 'er'],
      ['/old/deep/z', '/old/deep/*', 'z'],
      ['/old/deep', '/old/deep/*', ''],
      ['/x/y', '/x/y', ''],
      ['/x', undefined, ''],
      ['/ol', undefined, ''],
    ];
    for (const [path, source, suffix] of table) {
      const matched = index.match(path);
      assert.equal(matched?.rule.source, source, path);
      if (matched) assert.equal(matched.suffix, suffix, path);
    }
  });

  test('a captured suffix joins the destination', () => {
    const table: [string, string, boolean, string][] = [
      ['https://e.test/new', 'a/b', true, 'https://e.test/new/a/b'],
      ['https://e.test/new/', 'a', true, 'https://e.test/new/a'],
      ['https://e.test/v', '2', false, 'https://e.test/v2'],
      ['https://e.test/n?x=1#h', 'a', true, 'https://e.test/n/a?x=1#h'],
      ['https://e.test/n', '', true, 'https://e.test/n'],
    ];
    for (const [url, suffix, slash, joined] of table) {
      assert.equal(appendCaptured(url, suffix, slash), joined);
    }
  });
});

describe('chains', () => {
  const rule = (id: string, source: string, inSite?: string, captureWildcard = false) => ({
    id,
    source,
    captureWildcard,
    inSite,
  });

  test('a loop, a self-capturing prefix, a chain too long; blamed on the changed rule', () => {
    const loop = findChainProblem([rule('a', '/a', '/b'), rule('b', '/b', '/a')], ['b']);
    assert.equal(loop?.kind, 'loop');
    assert.equal(loop?.blamed.id, 'b');
    assert.equal(loop?.field, 'destination');
    const self = findChainProblem([rule('p', '/old/*', '/old/new', true)], ['p']);
    assert.equal(self?.kind, 'loop');
    const hops = Array.from({ length: MAX_CHAIN }, (_, i) => rule(`c${i}`, `/c${i}`, `/c${i + 1}`));
    assert.equal(findChainProblem(hops, ['c0']), undefined, `${MAX_CHAIN} redirects are fine`);
    const longer = findChainProblem([...hops, rule('c5', '/c5', undefined)], ['c5']);
    assert.equal(longer?.kind, 'too-long');
    assert.equal(longer?.field, 'source');
    assert.equal(findChainProblem([rule('a', '/a', '/b'), rule('b', '/b', '/a')], []), undefined);
  });
});
