import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  signVisitorToken,
  VisitorTokenError,
  type VisitorTokenFailure,
  verifyVisitorToken,
} from '../../src/modules/visitor-auth/jwt.js';

const KEY = 'site-private-key-0123456789abcdef';
const SITE = 'site_AbCdEfGhIjKlMnOpQrSt';
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSeconds = NOW / 1000;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token with any header, signed (HS256) with KEY unless a signature is given. */
function forge(header: unknown, payload: unknown, signature?: string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${signature ?? createHmac('sha256', KEY).update(input).digest('base64url')}`;
}

async function failure(
  token: string,
  options: Partial<Parameters<typeof verifyVisitorToken>[1]> = {},
) {
  try {
    await verifyVisitorToken(token, { key: KEY, audience: SITE, now: NOW, ...options });
  } catch (error) {
    if (error instanceof VisitorTokenError) return error.reason;
    throw error;
  }
  return 'valid';
}

describe('verifyVisitorToken', () => {
  const valid = { aud: SITE, exp: nowSeconds + 3600, sub: 'visitor-1' };
  const cases: [string, string, VisitorTokenFailure | 'valid'][] = [
    [
      'a token signed with the key, for the site, not expired',
      signVisitorToken(valid, KEY),
      'valid',
    ],
    [
      'aud as an array holding the site',
      signVisitorToken({ ...valid, aud: ['x', SITE] }, KEY),
      'valid',
    ],
    ['two parts', 'abc.def', 'malformed'],
    ['four parts', `${signVisitorToken(valid, KEY)}.x`, 'malformed'],
    ['an empty signature', `${b64({ alg: 'HS256' })}.${b64(valid)}.`, 'malformed'],
    ['a header that is not JSON', `bm90IGpzb24.${b64(valid)}.sig`, 'malformed'],
    ['a payload that is an array', forge({ alg: 'HS256' }, [1, 2]), 'malformed'],
    ['characters outside base64url', `${b64({ alg: 'HS256' })}.${b64(valid)}+.x`, 'signature'],
    ['alg none, no signature', `${b64({ alg: 'none' })}.${b64(valid)}.`, 'malformed'],
    ['alg none with a signature', forge({ alg: 'none' }, valid), 'algorithm'],
    ['alg HS512', forge({ alg: 'HS512' }, valid), 'algorithm'],
    ['alg RS256', forge({ alg: 'RS256' }, valid), 'algorithm'],
    ['a crit extension', forge({ alg: 'HS256', crit: ['b64'] }, valid), 'algorithm'],
    ['signed with another key', signVisitorToken(valid, 'another-key'), 'signature'],
    ['for another site', signVisitorToken({ ...valid, aud: 'site_other' }, KEY), 'audience'],
    ['no aud', signVisitorToken({ exp: valid.exp }, KEY), 'audience'],
    ['no exp', signVisitorToken({ aud: SITE }, KEY), 'expiry-missing'],
    [
      'exp as a string',
      signVisitorToken({ aud: SITE, exp: String(valid.exp) }, KEY),
      'expiry-missing',
    ],
    ['expired 61 s ago', signVisitorToken({ aud: SITE, exp: nowSeconds - 61 }, KEY), 'expired'],
    [
      'expired 59 s ago: within the skew',
      signVisitorToken({ aud: SITE, exp: nowSeconds - 59 }, KEY),
      'valid',
    ],
    ['nbf in 61 s', signVisitorToken({ ...valid, nbf: nowSeconds + 61 }, KEY), 'not-yet-valid'],
    [
      'nbf in 59 s: within the skew',
      signVisitorToken({ ...valid, nbf: nowSeconds + 59 }, KEY),
      'valid',
    ],
    ['nbf as a string', signVisitorToken({ ...valid, nbf: 'soon' }, KEY), 'not-yet-valid'],
  ];
  for (const [name, token, expected] of cases) {
    test(`${name} → ${expected}`, async () => assert.equal(await failure(token), expected));
  }

  test('a smaller clock skew is honoured; more than 60 s is refused', async () => {
    const token = signVisitorToken({ aud: SITE, exp: nowSeconds - 10 }, KEY);
    assert.equal(await failure(token, { clockSkewSeconds: 0 }), 'expired');
    assert.equal(await failure(token, { clockSkewSeconds: 30 }), 'valid');
    await assert.rejects(() => failure(token, { clockSkewSeconds: 61 }), RangeError);
  });

  test('a signature with other trailing bits (same bytes, another string) is refused', async () => {
    const token = signVisitorToken(valid, KEY);
    const last = token.at(-1) as string;
    // 32 bytes are 43 base64url characters: the last one carries 4 bits and 2 unused ones.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = alphabet[alphabet.indexOf(last) ^ 1] as string;
    const altered = `${token.slice(0, -1)}${twin}`;
    assert.deepEqual(
      Buffer.from(altered.split('.')[2] as string, 'base64url'),
      Buffer.from(token.split('.')[2] as string, 'base64url'),
      'the two signature strings decode to the same bytes',
    );
    assert.equal(await failure(altered), 'signature');
  });

  test('a regenerated key: tokens signed with the old key stop verifying, new ones verify', async () => {
    const oldKey = 'old-key-aaaaaaaaaaaaaaaaaaaaaaaa';
    const newKey = 'new-key-bbbbbbbbbbbbbbbbbbbbbbbb';
    const claims = { aud: SITE, exp: nowSeconds + 600 };
    const before = signVisitorToken(claims, oldKey);
    const after = signVisitorToken(claims, newKey);
    assert.equal(await failure(before, { key: oldKey }), 'valid');
    assert.equal(await failure(before, { key: newKey }), 'signature');
    assert.equal(await failure(after, { key: newKey }), 'valid');
  });
});

describe('visitor tokens: properties', () => {
  const claimsArb = fc.record({
    sub: fc.string(),
    // RFC 7519: `exp` is the time on or after which the token is refused (skew 60 s).
    exp: fc.integer({ min: nowSeconds - 59, max: nowSeconds + 10 ** 6 }),
    extra: fc.jsonValue(),
  });

  test('whatever the claims, a token signed with the key for the site verifies to them', async () => {
    await fc.assert(
      fc.asyncProperty(claimsArb, fc.string({ minLength: 1 }), async (claims, key) => {
        const token = signVisitorToken({ ...claims, aud: SITE }, key);
        const verified = await verifyVisitorToken(token, { key, audience: SITE, now: NOW });
        assert.deepEqual(verified, JSON.parse(JSON.stringify({ ...claims, aud: SITE })));
      }),
    );
  });

  test('changing any one character of a valid token makes it invalid', async () => {
    const token = signVisitorToken({ aud: SITE, exp: nowSeconds + 600, sub: 'v' }, KEY);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: token.length - 1 }),
        fc.constantFrom(...'ABCabc012-_.'),
        async (at, character) => {
          fc.pre(token[at] !== character);
          const altered = `${token.slice(0, at)}${character}${token.slice(at + 1)}`;
          assert.notEqual(await failure(altered), 'valid', altered);
        },
      ),
    );
  });

  test('a token verifies under one key only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        async (key, other) => {
          fc.pre(key !== other);
          const token = signVisitorToken({ aud: SITE, exp: nowSeconds + 60 }, key);
          assert.equal(await failure(token, { key: other }), 'signature');
        },
      ),
    );
  });
});
