/**
 * Push webhooks (docs/git-sync.md, "Webhooks"): each provider's proof checked against the raw
 * body, and its push payload read. Payloads: test/helpers/git-webhook-payloads.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { pushEventOf, sameRepository } from '../../src/modules/git-sync/webhooks/push-event.js';
import { type Provider, verifyWebhook } from '../../src/modules/git-sync/webhooks/verify.js';
import {
  AFTER,
  BEFORE,
  giteaHeaders,
  giteaPush,
  githubPing,
  githubPush,
  gitlabPush,
  gitlabTagPush,
  hmacHex,
  json,
  ZEROS,
} from '../helpers/git-webhook-payloads.js';

const SECRET = 'a-webhook-secret-of-some-length';
const githubBody = json(githubPush());
const giteaBody = json(giteaPush());
const gitlabBody = json(gitlabPush());
const githubSignature = `sha256=${hmacHex(githubBody, SECRET)}`;
const github = (headers: Record<string, string>) => ({
  'x-github-event': 'push',
  'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
  ...headers,
});
const gitlab = (headers: Record<string, string>) => ({
  'x-gitlab-event': 'Push Hook',
  'x-gitlab-event-uuid': '13792a34-cac6-4fda-95a8-c58e00a3954e',
  ...headers,
});
const oneByteChanged = Buffer.from(githubBody);
oneByteChanged[10] = (oneByteChanged[10] ?? 0) ^ 1;

type Expected = { provider: Provider; event: string; delivery?: string } | RegExp;
// biome-ignore format: a table reads best one case a line
const verifyCases: [string, Record<string, string | string[]>, Buffer, Expected][] = [
  ['GitHub, signed', github({ 'x-hub-signature-256': githubSignature }), githubBody,
    { provider: 'github', event: 'push', delivery: '72d3162e-cc78-11e3-81ab-4c9367dc0958' }],
  ['GitHub, header names in any case', { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': githubSignature }, githubBody, { provider: 'github', event: 'push' }],
  ['GitHub, upper-case hex', github({ 'x-hub-signature-256': `sha256=${hmacHex(githubBody, SECRET).toUpperCase()}` }), githubBody, { provider: 'github', event: 'push', delivery: '72d3162e-cc78-11e3-81ab-4c9367dc0958' }],
  ['GitHub, another secret', github({ 'x-hub-signature-256': `sha256=${hmacHex(githubBody, 'other')}` }), githubBody, /^X-Hub-Signature-256 does not match the body signed with this link's secret$/],
  ['GitHub, the body changed by one byte', github({ 'x-hub-signature-256': githubSignature }), oneByteChanged, /X-Hub-Signature-256 does not match/],
  ['GitHub, SHA-1 only', github({ 'x-hub-signature': `sha1=${'ab'.repeat(20)}` }), githubBody, /X-Hub-Signature \(SHA-1\).*not accepted.*X-Hub-Signature-256/],
  ['GitHub, no signature', github({}), githubBody, /not signed/],
  ['GitHub, not hex', github({ 'x-hub-signature-256': `sha256=${'zz'.repeat(32)}` }), githubBody, /X-Hub-Signature-256 does not match/],
  ['GitHub, hex of the wrong length', github({ 'x-hub-signature-256': githubSignature.slice(0, -2) }), githubBody, /X-Hub-Signature-256 does not match/],
  ['GitHub, no sha256= prefix', github({ 'x-hub-signature-256': hmacHex(githubBody, SECRET) }), githubBody, /X-Hub-Signature-256 does not match/],
  // A header sent twice reaches a direct caller as an array.
  ['GitHub, the signature twice', { 'x-github-event': 'push', 'x-hub-signature-256': [githubSignature, githubSignature] }, githubBody, /^X-Hub-Signature-256 is sent more than once$/],
  ['GitLab, the token', gitlab({ 'x-gitlab-token': SECRET }), gitlabBody, { provider: 'gitlab', event: 'Push Hook', delivery: '13792a34-cac6-4fda-95a8-c58e00a3954e' }],
  ['GitLab, X-Gitlab-Webhook-UUID', { 'x-gitlab-event': 'Push Hook', 'x-gitlab-webhook-uuid': 'w-1', 'x-gitlab-token': SECRET }, gitlabBody, { provider: 'gitlab', event: 'Push Hook', delivery: 'w-1' }],
  ['GitLab, a wrong token', gitlab({ 'x-gitlab-token': `${SECRET}x` }), gitlabBody, /^X-Gitlab-Token is not this link's secret$/],
  ['GitLab, no token', gitlab({}), gitlabBody, /^X-Gitlab-Token is missing$/],
  ['Gitea, with Gogs and GitHub headers too', giteaHeaders(giteaBody, SECRET), giteaBody, { provider: 'gitea', event: 'push', delivery: 'f6266f16-1bf3-46a5-9ea4-602e06ead473' }],
  ['Gitea, a bad GitHub-style signature beside its own is not looked at', { ...giteaHeaders(giteaBody, SECRET), 'x-hub-signature-256': 'sha256=00' }, giteaBody, { provider: 'gitea', event: 'push', delivery: 'f6266f16-1bf3-46a5-9ea4-602e06ead473' }],
  ['Gitea, a good GitHub-style signature does not stand for its own', { ...giteaHeaders(giteaBody, SECRET), 'x-gitea-signature': hmacHex(giteaBody, 'other') }, giteaBody, /^X-Gitea-Signature does not match/],
  ['Gitea, the body changed by one byte', giteaHeaders(giteaBody, SECRET), Buffer.concat([giteaBody, Buffer.from(' ')]), /X-Gitea-Signature does not match/],
  ['Gitea, no signature', { 'x-gitea-event': 'push', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hmacHex(giteaBody, SECRET)}` }, giteaBody, /^X-Gitea-Signature is missing$/],
  ['Gitea, malformed hex', { 'x-gitea-event': 'push', 'x-gitea-signature': 'not-hex' }, giteaBody, /X-Gitea-Signature does not match/],
  ['Forgejo, its own headers', { 'x-forgejo-event': 'push', 'x-forgejo-delivery': 'd-1', 'x-forgejo-signature': hmacHex(giteaBody, SECRET) }, giteaBody, { provider: 'gitea', event: 'push', delivery: 'd-1' }],
  ['Forgejo, no signature', { 'x-forgejo-event': 'push' }, giteaBody, /^X-Forgejo-Signature is missing$/],
  ['Forgejo, a wrong Gitea signature beside a good one of its own', { 'x-forgejo-event': 'push', 'x-forgejo-signature': hmacHex(giteaBody, SECRET), 'x-gitea-signature': '00' }, giteaBody, /^X-Gitea-Signature does not match/],
];

describe('verifyWebhook', () => {
  for (const [name, headers, body, expected] of verifyCases) {
    test(name, () => {
      const result = verifyWebhook({ headers, body, secret: SECRET });
      if (!(expected instanceof RegExp)) {
        assert.deepEqual(result, { ok: true, ...expected });
        return;
      }
      assert.equal(result.ok, false, JSON.stringify(result));
      const reason = result.ok ? '' : result.reason;
      assert.match(reason, expected);
      // Reasons are logged: neither the secret nor anything received is in them.
      for (const value of [SECRET, ...Object.values(headers).flat()]) {
        if (value.length >= 8) assert.ok(!reason.includes(value), `${reason} holds ${value}`);
      }
    });
  }

  test('an empty secret verifies nothing', () => {
    const headers = gitlab({ 'x-gitlab-token': '' });
    assert.deepEqual(verifyWebhook({ headers, body: gitlabBody, secret: '' }), {
      ok: false,
      reason: 'this link has no webhook secret',
    });
  });

  const signedBy: [string, (body: Buffer) => Record<string, string>][] = [
    ['github', (body) => github({ 'x-hub-signature-256': `sha256=${hmacHex(body, SECRET)}` })],
    ['gitea', (body) => giteaHeaders(body, SECRET)],
  ];
  for (const [provider, sign] of signedBy) {
    test(`${provider}: any body signed with the secret verifies; one byte changed does not`, () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 300 }),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          (bytes, at, delta) => {
            const body = Buffer.from(bytes);
            const headers = sign(body);
            assert.equal(verifyWebhook({ headers, body, secret: SECRET }).ok, true);
            if (body.length === 0) return;
            const changed = Buffer.from(body);
            const i = at % changed.length;
            changed[i] = ((changed[i] ?? 0) + delta) % 256;
            assert.equal(verifyWebhook({ headers, body: changed, secret: SECRET }).ok, false);
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  test('any header values: a refusal or an acceptance, never an exception', () => {
    const names = [
      'x-hub-signature-256',
      'x-hub-signature',
      'x-gitlab-token',
      'x-gitea-signature',
      'x-forgejo-signature',
      'x-gitea-event',
    ];
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...names), fc.oneof(fc.string(), fc.array(fc.string()))),
        fc.uint8Array(),
        (headers, bytes) => {
          const result = verifyWebhook({ headers, body: Buffer.from(bytes), secret: SECRET });
          assert.equal(typeof result.ok, 'boolean');
        },
      ),
      { numRuns: 500 },
    );
  });
});

type Push = Record<string, unknown>;
const push = (fields: Push) => ({
  kind: 'push',
  before: BEFORE,
  after: AFTER,
  deleted: false,
  created: false,
  ...fields,
});
const githubUrls = [
  'https://github.com/acme/docs.git',
  'git@github.com:acme/docs.git',
  'git://github.com/acme/docs.git',
  'https://github.com/acme/docs',
];
const gitlabUrls = [
  'git@gitlab.example.com:acme/docs.git',
  'https://gitlab.example.com/acme/docs.git',
  'https://gitlab.example.com/acme/docs',
];
const form = (body: Buffer) =>
  Buffer.from(new URLSearchParams({ payload: body.toString() }).toString());

// biome-ignore format: a table reads best one case a line
const pushCases: [string, Provider, string, Buffer, string | undefined, Push][] = [
  ['GitHub push', 'github', 'push', githubBody, 'application/json', push({ ref: 'refs/heads/main', branch: 'main', repositoryUrls: githubUrls })],
  ['GitHub push, form-encoded', 'github', 'push', form(githubBody), 'application/x-www-form-urlencoded; charset=utf-8', push({ ref: 'refs/heads/main', branch: 'main', repositoryUrls: githubUrls })],
  ['GitHub, a branch created', 'github', 'push', json(githubPush({ ref: 'refs/heads/new', before: ZEROS, created: true })), undefined, push({ ref: 'refs/heads/new', branch: 'new', before: ZEROS, created: true, repositoryUrls: githubUrls })],
  ['GitHub, a branch deleted', 'github', 'push', json(githubPush({ ref: 'refs/heads/old', after: ZEROS, deleted: true })), undefined, push({ ref: 'refs/heads/old', branch: 'old', after: ZEROS, deleted: true, repositoryUrls: githubUrls })],
  ['GitHub, a branch with slashes', 'github', 'push', json(githubPush({ ref: 'refs/heads/feature/a' })), undefined, push({ ref: 'refs/heads/feature/a', branch: 'feature/a', repositoryUrls: githubUrls })],
  ['GitHub, not a branch', 'github', 'push', json(githubPush({ ref: 'refs/notes/commits' })), undefined, push({ ref: 'refs/notes/commits', repositoryUrls: githubUrls })],
  ['GitLab Push Hook', 'gitlab', 'Push Hook', gitlabBody, 'application/json', push({ ref: 'refs/heads/main', branch: 'main', repositoryUrls: gitlabUrls })],
  ['GitLab, a branch created (before is zeros)', 'gitlab', 'Push Hook', json(gitlabPush({ before: ZEROS })), undefined, push({ ref: 'refs/heads/main', branch: 'main', before: ZEROS, created: true, repositoryUrls: gitlabUrls })],
  ['GitLab, a branch deleted (after is zeros)', 'gitlab', 'Push Hook', json(gitlabPush({ after: ZEROS, checkout_sha: null })), undefined, push({ ref: 'refs/heads/main', branch: 'main', after: ZEROS, deleted: true, repositoryUrls: gitlabUrls })],
  ['GitLab System Hook, a push', 'gitlab', 'System Hook', gitlabBody, undefined, push({ ref: 'refs/heads/main', branch: 'main', repositoryUrls: gitlabUrls })],
  ['Gitea push', 'gitea', 'push', giteaBody, 'application/json', push({ ref: 'refs/heads/main', branch: 'main', repositoryUrls: ['https://gitea.example.com/acme/docs.git', 'ssh://git@gitea.example.com:2222/acme/docs.git', 'https://gitea.example.com/acme/docs'] })],
  ['Gitea, a branch deleted', 'gitea', 'push', json({ ref: 'refs/heads/old', before: BEFORE, after: ZEROS }), undefined, push({ ref: 'refs/heads/old', branch: 'old', after: ZEROS, deleted: true, repositoryUrls: [] })],
  ['without before: still a push', 'github', 'push', json({ ref: 'refs/heads/main', after: AFTER }), undefined, push({ ref: 'refs/heads/main', branch: 'main', before: '', repositoryUrls: [] })],
  ['GitHub ping', 'github', 'ping', json(githubPing), undefined, { ignored: 'a ping: the webhook works' }],
  ['Gitea ping', 'gitea', 'ping', json(githubPing), undefined, { ignored: 'a ping: the webhook works' }],
  ['GitLab Tag Push Hook', 'gitlab', 'Tag Push Hook', json(gitlabTagPush), undefined, { ignored: 'a tag push: tags are not synced' }],
  ['GitLab System Hook, a tag push', 'gitlab', 'System Hook', json(gitlabTagPush), undefined, { ignored: 'a tag push: tags are not synced' }],
  ['GitLab System Hook, not a push', 'gitlab', 'System Hook', json({ event_name: 'project_create' }), undefined, { ignored: 'a system hook that is not a push: only pushes are used' }],
  ['GitHub, a tag ref', 'github', 'push', json(githubPush({ ref: 'refs/tags/v1.0.0' })), undefined, { ignored: 'a tag push: tags are not synced' }],
  ['Gitea, a tag ref', 'gitea', 'push', json(giteaPush({ ref: 'refs/tags/v1.0.0', before: ZEROS })), undefined, { ignored: 'a tag push: tags are not synced' }],
  ['another event', 'github', 'issues', githubBody, undefined, { ignored: 'a "issues" event: only pushes are used' }],
  ['no event', 'github', '', githubBody, undefined, { ignored: 'the delivery names no event: only pushes are used' }],
  ['invalid JSON', 'github', 'push', Buffer.from('{"ref": "refs/heads/main",'), undefined, { invalid: 'the body is not JSON (nor a form with a JSON payload field)' }],
  ['a form without payload', 'github', 'push', Buffer.from('ref=refs/heads/main'), 'application/x-www-form-urlencoded', { invalid: 'payload is missing from the form' }],
  ['a form whose payload is not JSON', 'github', 'push', Buffer.from('payload=%7B'), 'application/x-www-form-urlencoded', { invalid: 'payload is not JSON' }],
  ['JSON, not an object', 'github', 'push', Buffer.from('[1]'), undefined, { invalid: 'the body is not a JSON object' }],
  ['no ref', 'github', 'push', json({ after: AFTER }), undefined, { invalid: 'ref is missing' }],
  ['a short ref', 'github', 'push', json({ ref: 'main', after: AFTER }), undefined, { invalid: 'ref is not a full ref (refs/heads/…)' }],
  ['no after', 'gitlab', 'Push Hook', json({ ref: 'refs/heads/main', before: BEFORE }), undefined, { invalid: 'after is missing' }],
  ['after not a commit id', 'gitea', 'push', json({ ref: 'refs/heads/main', after: 'HEAD' }), undefined, { invalid: 'after is not a commit id' }],
  ['before not a commit id', 'github', 'push', json({ ref: 'refs/heads/main', before: 7, after: AFTER }), undefined, { invalid: 'before is not a commit id' }],
];

describe('pushEventOf', () => {
  for (const [name, provider, event, body, contentType, expected] of pushCases) {
    test(name, () => assert.deepEqual(pushEventOf(provider, event, body, contentType), expected));
  }

  test('a body over the bound is not parsed', () => {
    const body = Buffer.alloc(25 * 1024 * 1024 + 1, 0x20);
    assert.match((pushEventOf('github', 'push', body) as { invalid: string }).invalid, /larger/);
  });

  test('any bytes: a push, ignored or invalid, never an exception', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Provider>('github', 'gitlab', 'gitea'),
        fc.oneof(
          fc.uint8Array(),
          fc.json().map((text) => new TextEncoder().encode(text)),
        ),
        (provider, bytes) => {
          const result = pushEventOf(
            provider,
            provider === 'gitlab' ? 'Push Hook' : 'push',
            Buffer.from(bytes),
          );
          assert.ok('kind' in result || 'ignored' in result || 'invalid' in result);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('sameRepository', () => {
  const same: [string, string][] = [
    ['https://github.com/acme/docs.git', 'git@github.com:acme/docs.git'],
    ['https://github.com/acme/docs', 'ssh://git@github.com/acme/docs.git'],
    ['https://user:token@github.com/acme/docs.git', 'https://github.com/acme/docs'],
    ['https://x-access-token@GitHub.COM/acme/docs', 'git@github.com:acme/docs.git'],
    ['https://github.com/acme/docs/', 'https://github.com/acme/docs.git'],
    ['https://github.com/acme/docs.git/', 'git://github.com/acme/docs'],
    ['https://github.com/Acme/Docs', 'https://github.com/acme/docs'],
    ['https://gitea.example.com/acme/docs.git', 'ssh://git@gitea.example.com:2222/acme/docs.git'],
    ['https://gitlab.example.com/group/sub/docs', 'git@gitlab.example.com:group/sub/docs.git'],
    ['git@[2001:db8::1]:acme/docs.git', 'ssh://git@[2001:db8::1]/acme/docs'],
    ['file:///srv/git/docs.git', '/srv/git/docs.git'],
    ['/srv/git/docs/', '/srv/git/docs.git'],
  ];
  const different: [string, string][] = [
    ['https://github.com/acme/docs.git', 'https://github.com/acme/site.git'],
    ['https://github.com/acme/docs.git', 'https://gitlab.com/acme/docs.git'],
    ['https://github.com/acme/docs.git', 'https://github.com/other/docs.git'],
    ['https://gitlab.example.com/group/docs', 'https://gitlab.example.com/group/sub/docs'],
    ['https://github.com/', 'https://github.com'],
    ['not a url', 'not a url'],
    ['', ''],
    ['https://github.com/acme/%zz', 'https://github.com/acme/%zz'],
    ['/srv/git/Docs', '/srv/git/docs'],
  ];
  for (const [a, b] of same)
    test(`${a} = ${b}`, () => assert.ok(sameRepository(a, b) && sameRepository(b, a)));
  for (const [a, b] of different) test(`${a} ≠ ${b}`, () => assert.ok(!sameRepository(a, b)));
});
