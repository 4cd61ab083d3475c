import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A push webhook's authenticity, as each provider proves it (docs/git-sync.md, "Webhooks"):
 *
 * - GitHub: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body with the secret
 *   (the legacy SHA-1 `X-Hub-Signature` alone is refused).
 * - GitLab: `X-Gitlab-Token`, the secret itself.
 * - Gitea and Forgejo: `X-Gitea-Signature` / `X-Forgejo-Signature`, the hex HMAC-SHA256 of the
 *   body. They also send GitHub's and Gogs' headers, so they are recognised first.
 *
 * Every comparison is in constant time; a malformed header is a refusal, never an exception; a
 * reason names the header and never echoes the secret or what was received.
 */
export type Provider = 'github' | 'gitlab' | 'gitea';

export type Verified =
  | { ok: true; provider: Provider; event: string; delivery?: string }
  | { ok: false; reason: string };

type Headers = Record<string, string | string[] | undefined>;

export function verifyWebhook(input: { headers: Headers; body: Buffer; secret: string }): Verified {
  const h = (name: string) => header(input.headers, name);
  const gitea = h('x-gitea-signature') ?? h('x-forgejo-signature');
  const giteaEvent = h('x-gitea-event') ?? h('x-forgejo-event');
  if (gitea !== undefined || giteaEvent !== undefined) {
    const name = h('x-gitea-signature') !== undefined ? 'X-Gitea-Signature' : 'X-Forgejo-Signature';
    if (gitea === undefined) return { ok: false, reason: `${name} is missing` };
    if (!sameHex(gitea, hmac(input.secret, input.body))) {
      return {
        ok: false,
        reason: `${name} does not match the body signed with this link's secret`,
      };
    }
    return done(
      'gitea',
      giteaEvent ?? h('x-github-event'),
      h('x-gitea-delivery') ?? h('x-forgejo-delivery'),
    );
  }
  const gitlabEvent = h('x-gitlab-event');
  if (gitlabEvent !== undefined || h('x-gitlab-token') !== undefined) {
    const token = h('x-gitlab-token');
    if (token === undefined) return { ok: false, reason: 'X-Gitlab-Token is missing' };
    // Hashed first: equal lengths for timingSafeEqual, and the length of the secret never leaks.
    const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
    if (!timingSafeEqual(digest(token), digest(input.secret))) {
      return { ok: false, reason: "X-Gitlab-Token is not this link's secret" };
    }
    return done('gitlab', gitlabEvent, h('x-gitlab-event-uuid') ?? h('x-gitlab-webhook-uuid'));
  }
  const signature = h('x-hub-signature-256');
  if (signature === undefined) {
    return {
      ok: false,
      reason:
        h('x-hub-signature') !== undefined
          ? 'only X-Hub-Signature (SHA-1) is sent: Livery needs X-Hub-Signature-256 (set a secret on the webhook)'
          : 'the request is not signed (no X-Hub-Signature-256, X-Gitlab-Token or X-Gitea-Signature)',
    };
  }
  if (
    !signature.startsWith('sha256=') ||
    !sameHex(signature.slice(7), hmac(input.secret, input.body))
  ) {
    return {
      ok: false,
      reason: "X-Hub-Signature-256 does not match the body signed with this link's secret",
    };
  }
  return done('github', h('x-github-event'), h('x-github-delivery'));
}

function done(
  provider: Provider,
  event: string | undefined,
  delivery: string | undefined,
): Verified {
  return {
    ok: true,
    provider,
    event: event ?? '',
    ...(delivery === undefined ? {} : { delivery }),
  };
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function hmac(secret: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** Whether a hex text is these bytes (malformed hex or a wrong length: no). */
function sameHex(hex: string, expected: Buffer): boolean {
  const text = hex.trim().toLowerCase();
  if (!/^[0-9a-f]*$/.test(text) || text.length !== expected.length * 2) return false;
  return timingSafeEqual(Buffer.from(text, 'hex'), expected);
}
