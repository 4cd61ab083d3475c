/**
 * Push webhooks (docs/git-sync.md, "Webhooks"): each provider's proof checked against the raw
 * body, and its push payload read; payloads written for these tests in each provider's shape.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { pushEventOf, sameRepository } from '../../src/modules/git-sync/webhooks/push-event.js';
import { verifyWebhook } from '../../src/modules/git-sync/webhooks/verify.js';

const SECRET = 'a-webhook-secret-of-some-length';
const hex = (body: Buffer, secret = SECRET) =>
  createHmac('sha256', secret).update(body).digest('hex');
const body = Buffer.from(
  JSON.stringify({
    ref: 'refs/heads/main',
    before: 'a'.repeat(40),
    after: 'b'.repeat(40),
    repository: {
      clone_url: 'https://github.com/acme/docs.git',
      ssh_url: 'git@github.com:acme/docs.git',
    },
  }),
);

describe('verifyWebhook', () => {
  const cases: [string, Record<string, string>, Buffer, boolean | RegExp, string?][] = [
    [
      'GitHub, signed',
      { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(body)}` },
      body,
      true,
      'github',
    ],
    [
      'GitHub, another secret',
      { 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hex(body, 'other')}` },
      body,
      /X-Hub-Signature-256 does not match/,
    ],
    [
      'GitHub, SHA-1 only',
      { 'x-github-event': 'push', 'x-hub-signature': 'sha1=00' },
      body,
      /SHA-1/,
    ],
    ['GitHub, no signature', { 'x-github-event': 'push' }, body, /not signed/],
    [
      'GitHub, malformed hex',
      { 'x-github-event': 'push', 'x-hub-signature-256': 'sha256=zz' },
      body,
      /does not match/,
    ],
    [
      'GitHub, no prefix',
      { 'x-github-event': 'push', 'x-hub-signature-256': hex(body) },
      body,
      /does not match/,
    ],
    [
      'GitLab, token',
      { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET },
      body,
      true,
      'gitlab',
    ],
    [
      'GitLab, wrong token',
      { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'nope' },
      body,
      /X-Gitlab-Token is not/,
    ],
    ['GitLab, no token', { 'x-gitlab-event': 'Push Hook' }, body, /X-Gitlab-Token is missing/],
    [
      'Gitea, signed (with GitHub headers too)',
      {
        'x-gitea-event': 'push',
        'x-github-event': 'push',
        'x-gitea-signature': hex(body),
        'x-hub-signature-256': 'sha256=00',
      },
      body,
      true,
      'gitea',
    ],
    [
      'Forgejo, signed',
      { 'x-forgejo-event': 'push', 'x-forgejo-signature': hex(body) },
      body,
      true,
      'gitea',
    ],
    [
      'Gitea, bad signature',
      { 'x-gitea-event': 'push', 'x-gitea-signature': hex(body, 'x') },
      body,
      /X-Gitea-Signature does not match/,
    ],
  ];
  for (const [name, headers, payload, expected, provider] of cases) {
    test(name, () => {
      const result = verifyWebhook({ headers, body: payload, secret: SECRET });
      if (expected === true) {
        assert.equal(result.ok, true, JSON.stringify(result));
        assert.equal(result.ok && result.provider, provider);
      } else {
        assert.equal(result.ok, false);
        assert.match(result.ok ? '' : result.reason, expected as RegExp);
        assert.doesNotMatch(result.ok ? '' : result.reason, new RegExp(SECRET));
      }
    });
  }

  test('any body signed with the secret verifies; one byte changed does not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), (bytes, at) => {
        const payload = Buffer.from(bytes);
        const headers = {
          'x-github-event': 'push',
          'x-hub-signature-256': `sha256=${hex(payload)}`,
        };
        assert.equal(verifyWebhook({ headers, body: payload, secret: SECRET }).ok, true);
        const changed = Buffer.from(payload);
        const i = at % changed.length;
        changed[i] = ((changed[i] ?? 0) + 1) % 256;
        assert.equal(verifyWebhook({ headers, body: changed, secret: SECRET }).ok, false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('pushEventOf', () => {
  test('pushes of each provider, and what is not one', () => {
    const push = pushEventOf('github', 'push', body);
    assert.ok('kind' in push);
    assert.equal(push.branch, 'main');
    assert.deepEqual(push.repositoryUrls, [
      'https://github.com/acme/docs.git',
      'git@github.com:acme/docs.git',
    ]);
    const form = Buffer.from(`payload=${encodeURIComponent(body.toString())}`);
    assert.ok('kind' in pushEventOf('github', 'push', form, 'application/x-www-form-urlencoded'));
    const gitlab = pushEventOf(
      'gitlab',
      'Push Hook',
      Buffer.from(
        JSON.stringify({
          ref: 'refs/heads/feature',
          before: '0'.repeat(40),
          after: 'c'.repeat(40),
          project: { git_http_url: 'https://gitlab.com/acme/docs.git' },
        }),
      ),
    );
    assert.ok('kind' in gitlab && gitlab.created && gitlab.branch === 'feature');
    const deleted = pushEventOf(
      'gitea',
      'push',
      Buffer.from(JSON.stringify({ ref: 'refs/heads/old', after: '0'.repeat(40) })),
    );
    assert.ok('kind' in deleted && deleted.deleted);
    assert.deepEqual(pushEventOf('github', 'ping', body), { ignored: 'a ping: the webhook works' });
    assert.match(
      String((pushEventOf('gitlab', 'Tag Push Hook', body) as { ignored: string }).ignored),
      /tag/,
    );
    assert.match(
      String(
        (
          pushEventOf(
            'github',
            'push',
            Buffer.from(JSON.stringify({ ref: 'refs/tags/v1', after: 'd' })),
          ) as { ignored: string }
        ).ignored,
      ),
      /tag/,
    );
    assert.deepEqual(pushEventOf('github', 'push', Buffer.from('{not json')), {
      invalid: 'the body is not JSON (nor a form with a JSON `payload`)',
    });
    assert.deepEqual(pushEventOf('github', 'push', Buffer.from('{}')), {
      invalid: 'ref is missing',
    });
    assert.match(
      String((pushEventOf('github', 'issues', body) as { ignored: string }).ignored),
      /only pushes/,
    );
  });

  test('sameRepository: https and ssh forms, .git, slashes, credentials, case of the host', () => {
    const same: [string, string][] = [
      ['https://github.com/acme/docs.git', 'git@github.com:acme/docs.git'],
      ['https://user:token@GitHub.com/acme/docs', 'ssh://git@github.com/acme/docs.git'],
      ['https://github.com/acme/docs/', 'https://github.com/acme/docs.git'],
      ['file:///srv/git/docs.git', '/srv/git/docs.git'],
    ];
    for (const [a, b] of same) assert.ok(sameRepository(a, b), `${a} = ${b}`);
    const different: [string, string][] = [
      ['https://github.com/acme/docs.git', 'https://github.com/acme/site.git'],
      ['https://github.com/acme/docs.git', 'https://gitlab.com/acme/docs.git'],
      ['not a url', 'https://github.com/acme/docs.git'],
    ];
    for (const [a, b] of different) assert.ok(!sameRepository(a, b), `${a} ≠ ${b}`);
  });
});
