import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fastifyCookie } from '@fastify/cookie';
import fc from 'fast-check';
import {
  locateVariant,
  parseSiteAddress,
  withoutCredentials,
} from '../../src/modules/published/access/address.js';

// The published site's addressing (docs/published-site.md): what a raw request path names.

describe('parseSiteAddress', () => {
  const cases: [string, string, ReturnType<typeof parseSiteAddress>][] = [
    ['the site root', '/s/acme', { site: 'acme', segments: [] }],
    ['a trailing slash', '/s/acme/', { site: 'acme', segments: [] }],
    ['a nested page', '/s/acme/guides/install', { site: 'acme', segments: ['guides', 'install'] }],
    ['a query is not part of the path', '/s/acme/a?share=k', { site: 'acme', segments: ['a'] }],
    ['encoded UTF-8', '/s/acme/%C3%BCber-uns', { site: 'acme', segments: ['über-uns'] }],
    ['raw UTF-8 as the client sent it', '/s/acme/über', { site: 'acme', segments: ['über'] }],
    ['empty segments are ignored', '/s/acme//a///b', { site: 'acme', segments: ['a', 'b'] }],
    ['a dot inside a slug', '/s/acme/v1.2', { site: 'acme', segments: ['v1.2'] }],
    ['..', '/s/acme/../x', undefined],
    ['. ', '/s/acme/./x', undefined],
    ['encoded ..', '/s/acme/%2E%2E/x', undefined],
    ['mixed encoded ..', '/s/acme/.%2e/x', undefined],
    ['an encoded slash', '/s/acme/a%2Fb', undefined],
    ['an encoded backslash', '/s/acme/..%5Cx', undefined],
    ['a control character', '/s/acme/a%00b', undefined],
    ['broken percent-encoding', '/s/acme/%E0%A4%A', undefined],
    ['no site', '/s/', undefined],
    ['outside /s/', '/v1/orgs', undefined],
    ['.. as the site', '/s/../v1', undefined],
  ];
  for (const [name, path, expected] of cases) {
    test(`${name}: ${path}`, () => assert.deepEqual(parseSiteAddress(path), expected));
  }

  test('property: no accepted segment can step outside or hide a separator', () => {
    const piece = fc.constantFrom(
      'a',
      '.',
      '..',
      '%2E',
      '%2F',
      '%5C',
      '/',
      '%',
      'ü',
      '%C3%BC',
      '~',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const parsed = parseSiteAddress(`/s/site/${pieces.join('')}`);
        if (parsed === undefined) return;
        for (const segment of parsed.segments) {
          assert.ok(segment !== '.' && segment !== '..', segment);
          assert.doesNotMatch(segment, /[/\\]/);
        }
      }),
    );
  });
});

describe('locateVariant', () => {
  const en = { id: 'en', path: 'en', isDefault: true };
  const fr = { id: 'fr', path: 'fr', isDefault: false };
  const variants = [en, fr];
  const cases: [string, string[], ReturnType<typeof locateVariant>][] = [
    ['the root is the default', [], { kind: 'page', variant: en, pagePath: '', prefix: [] }],
    [
      'a page of the default',
      ['guide'],
      { kind: 'page', variant: en, pagePath: 'guide', prefix: [] },
    ],
    ['a variant root', ['fr'], { kind: 'page', variant: fr, pagePath: '', prefix: ['fr'] }],
    [
      'a variant page',
      ['fr', 'a', 'b'],
      { kind: 'page', variant: fr, pagePath: 'a/b', prefix: ['fr'] },
    ],
    [
      'the default’s own path',
      ['en', 'guide'],
      { kind: 'redirect', variant: en, pagePath: 'guide' },
    ],
  ];
  for (const [name, segments, expected] of cases) {
    test(name, () => assert.deepEqual(locateVariant(segments, variants), expected));
  }
  // A site with sections (published/repository.ts addressOf): the default section's variants as
  // above; section `api` has its default at `api` (its own path `api/v2` redirects there) and
  // `api/v1`.
  const v2 = { id: 'v2', path: 'api', isDefault: false, aliases: ['api/v2'] };
  const v1 = { id: 'v1', path: 'api/v1', isDefault: false };
  const sectioned = [en, fr, v2, v1];
  const sectionCases: [string, string[], ReturnType<typeof locateVariant>][] = [
    ['a section root', ['api'], { kind: 'page', variant: v2, pagePath: '', prefix: ['api'] }],
    [
      'a page of a section’s default',
      ['api', 'intro'],
      { kind: 'page', variant: v2, pagePath: 'intro', prefix: ['api'] },
    ],
    [
      'the longest path wins',
      ['api', 'v1', 'intro'],
      { kind: 'page', variant: v1, pagePath: 'intro', prefix: ['api', 'v1'] },
    ],
    [
      'a section default’s own path redirects',
      ['api', 'v2', 'intro'],
      { kind: 'redirect', variant: v2, pagePath: 'intro' },
    ],
    [
      'the default section at the root',
      ['guide'],
      { kind: 'page', variant: en, pagePath: 'guide', prefix: [] },
    ],
  ];
  for (const [name, segments, expected] of sectionCases) {
    test(name, () => assert.deepEqual(locateVariant(segments, sectioned), expected));
  }
  test('a site without variants has no pages', () =>
    assert.equal(locateVariant(['a'], []), undefined));
});

describe('withoutCredentials and cookies', () => {
  test('share and jwt_token leave the address; other parameters stay', () => {
    assert.equal(withoutCredentials('/s/a/p?share=k'), '/s/a/p');
    assert.equal(withoutCredentials('/s/a/p?x=1&jwt_token=t&y=2'), '/s/a/p?x=1&y=2');
    assert.equal(withoutCredentials('/s/a/p'), '/s/a/p');
  });
  // Cookies are parsed and written by @fastify/cookie (the published site and the studio alike).
  test('the Cookie header: first value wins, values decoded, junk ignored', () => {
    const parsed = fastifyCookie.parse('a=1; b=x%20y; a=2; junk');
    assert.deepEqual({ ...parsed }, { a: '1', b: 'x y' });
  });
  test('Set-Cookie: encoded value, path, SameSite=Lax, HttpOnly, Secure, Max-Age', () => {
    const options = { path: '/s/acme', httpOnly: true, secure: true, sameSite: 'lax', maxAge: 0 };
    assert.equal(
      fastifyCookie.serialize(
        'n',
        'a b;',
        options as Parameters<typeof fastifyCookie.serialize>[2],
      ),
      'n=a%20b%3B; Max-Age=0; Path=/s/acme; HttpOnly; Secure; SameSite=Lax',
    );
  });
});
