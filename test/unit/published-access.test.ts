import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type AccessDecision,
  type AccessRequest,
  decideAccess,
  PREVIEW_COOKIE,
  SHARE_COOKIE,
  VISITOR_COOKIE,
} from '../../src/modules/published/access/access.js';

/** Verifiers that accept exactly the credentials named valid, and count their calls. */
const verifiers = (valid: string[]) => {
  const calls: string[] = [];
  const check = (kind: string) => async (credential: string) => {
    calls.push(`${kind}:${credential}`);
    return valid.includes(credential);
  };
  const previewToken = (credential: string) => {
    calls.push(`preview:${credential}`);
    return valid.includes(credential);
  };
  return {
    calls,
    verify: { shareKey: check('share'), visitorToken: check('jwt'), previewToken },
  };
};

const request = (fields: Partial<AccessRequest>): AccessRequest => ({
  published: true,
  visibility: 'public',
  member: false,
  query: {},
  cookies: {},
  ...fields,
});

const rows: [string, Partial<AccessRequest>, AccessDecision][] = [
  ['public: served, indexable', {}, { outcome: 'serve', noindex: false }],
  [
    'unlisted: served, not indexed',
    { visibility: 'unlisted' },
    { outcome: 'serve', noindex: true },
  ],
  ['unpublished: not found', { published: false }, { outcome: 'not-found' }],
  [
    'unpublished, a member previewing: served, not indexed',
    { published: false, member: true },
    { outcome: 'serve', noindex: true },
  ],
  ['share-link without a key: not found', { visibility: 'share-link' }, { outcome: 'not-found' }],
  [
    'share-link, a valid key in the query: remembered in a cookie',
    { visibility: 'share-link', query: { share: 'good' } },
    { outcome: 'remember', cookie: { name: SHARE_COOKIE, value: 'good' } },
  ],
  [
    'share-link, an unknown or deactivated key in the query: not found',
    { visibility: 'share-link', query: { share: 'revoked' } },
    { outcome: 'not-found' },
  ],
  [
    'share-link, a valid key in the cookie: served, not indexed',
    { visibility: 'share-link', cookies: { [SHARE_COOKIE]: 'good' } },
    { outcome: 'serve', noindex: true },
  ],
  [
    'share-link, a cookie whose link was deactivated since: not found',
    { visibility: 'share-link', cookies: { [SHARE_COOKIE]: 'revoked' } },
    { outcome: 'not-found' },
  ],
  [
    'share-link, a visitor token is no share key',
    { visibility: 'share-link', cookies: { [VISITOR_COOKIE]: 'good' } },
    { outcome: 'not-found' },
  ],
  [
    'visitor-auth, nothing, no fallback: the sign-in page (401)',
    { visibility: 'visitor-auth' },
    { outcome: 'unauthorized' },
  ],
  [
    'visitor-auth, nothing, with a fallback: redirect there',
    { visibility: 'visitor-auth', fallbackURL: 'https://login.example.test/' },
    { outcome: 'redirect', location: 'https://login.example.test/' },
  ],
  [
    'visitor-auth, a valid token in the query: remembered in a cookie',
    { visibility: 'visitor-auth', query: { jwt_token: 'good' } },
    { outcome: 'remember', cookie: { name: VISITOR_COOKIE, value: 'good' } },
  ],
  [
    'visitor-auth, an expired or old-key token in the query: fallback',
    { visibility: 'visitor-auth', query: { jwt_token: 'expired' }, fallbackURL: 'https://l.test/' },
    { outcome: 'redirect', location: 'https://l.test/' },
  ],
  [
    'visitor-auth, a bad token in the query wins over a good cookie: not served',
    {
      visibility: 'visitor-auth',
      query: { jwt_token: 'expired' },
      cookies: { [VISITOR_COOKIE]: 'good' },
    },
    { outcome: 'unauthorized' },
  ],
  [
    'visitor-auth, a valid token in the cookie: served, not indexed',
    { visibility: 'visitor-auth', cookies: { [VISITOR_COOKIE]: 'good' } },
    { outcome: 'serve', noindex: true },
  ],
  [
    'visitor-auth, a cookie whose key was regenerated since: not served',
    { visibility: 'visitor-auth', cookies: { [VISITOR_COOKIE]: 'old-key' } },
    { outcome: 'unauthorized' },
  ],
  [
    'visitor-auth, a share key is no visitor token',
    { visibility: 'visitor-auth', cookies: { [SHARE_COOKIE]: 'good' } },
    { outcome: 'unauthorized' },
  ],
  // Publishing previews (getSitePublishingPreviewById): a signed, expiring credential.
  [
    'unpublished, a valid preview in the query: remembered in a cookie',
    { published: false, query: { preview: 'good' } },
    { outcome: 'remember', cookie: { name: PREVIEW_COOKIE, value: 'good' } },
  ],
  [
    'unpublished, a valid preview cookie: served, not indexed',
    { published: false, cookies: { [PREVIEW_COOKIE]: 'good' } },
    { outcome: 'serve', noindex: true },
  ],
  [
    'unpublished, an expired or altered preview: not found',
    { published: false, query: { preview: 'expired' }, cookies: { [PREVIEW_COOKIE]: 'expired' } },
    { outcome: 'not-found' },
  ],
  [
    'visitor-auth, a valid preview cookie: served without signing in',
    { visibility: 'visitor-auth', cookies: { [PREVIEW_COOKIE]: 'good' } },
    { outcome: 'serve', noindex: true },
  ],
  [
    'share-link, a valid preview cookie and no key: served',
    { visibility: 'share-link', cookies: { [PREVIEW_COOKIE]: 'good' } },
    { outcome: 'serve', noindex: true },
  ],
  [
    'public, an expired preview counts for nothing: served as to anyone, indexable',
    { cookies: { [PREVIEW_COOKIE]: 'expired' } },
    { outcome: 'serve', noindex: false },
  ],
];

describe('who may see a published site', () => {
  for (const [what, fields, expected] of rows) {
    test(what, async () => {
      const { verify } = verifiers(['good']);
      assert.deepEqual(await decideAccess(request(fields), verify), expected);
    });
  }

  test('public and unlisted sites never look at credentials', async () => {
    for (const visibility of ['public', 'unlisted'] as const) {
      const { verify, calls } = verifiers(['good']);
      await decideAccess(
        request({
          visibility,
          query: { share: 'x', jwt_token: 'y' },
          cookies: { [SHARE_COOKIE]: 'z' },
        }),
        verify,
      );
      assert.deepEqual(calls, [], visibility);
    }
  });

  test('every request with a cookie verifies it again (revocation takes effect at once)', async () => {
    const { verify, calls } = verifiers(['good']);
    const visit = request({ visibility: 'share-link', cookies: { [SHARE_COOKIE]: 'good' } });
    await decideAccess(visit, verify);
    await decideAccess(visit, verify);
    assert.deepEqual(calls, ['share:good', 'share:good']);
  });
});
