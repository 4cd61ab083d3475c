import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A push webhook's authenticity, as each provider proves it (docs/git-sync.md, "Webhooks"):
 *
 * - GitHub: `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256 of the raw body with the secret
 *   (the legacy SHA-1 `X-Hub-Signature` alone is refused: SHA-1 is not a proof any more).
 * - GitLab: `X-Gitlab-Token`, the secret itself.
 * - Gitea and Forgejo: `X-Gitea-Signature` / `X-Forgejo-Signature`, the hex HMAC-SHA256 of the
 *   body, no prefix. They also send GitHub's and Gogs' headers (`X-GitHub-Event`, sometimes
 *   `X-Hub-Signature-256`), so they are recognised first, by their own headers.
 *
 * Every comparison is in constant time on equal-length buffers; a malformed header is a refusal,
 * never an exception; a reason names the header and never echoes the secret or what was received
 * (reasons are logged).
 */
export type Provider = 'github' | 'gitlab' | 'gitea';

export type Verified =
  | { ok: true; provider: Provider; event: string; delivery?: string }
  | { ok: false; reason: string };

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export function verifyWebhook(input: {
  headers: WebhookHeaders;
  body: Buffer;
  secret: string;
}): Verified {
  // An empty secret signs nothing: anyone can compute an HMAC with it, or send it as a token.
  if (input.secret === '') return refuse('this link has no webhook secret');
  const headers = lowerCased(input.headers);
  const giteaProof = ['x-gitea-signature', 'x-forgejo-signature'].filter((n) => headers.has(n));
  const giteaEvent = first(headers, 'x-gitea-event') ?? first(headers, 'x-forgejo-event');
  if (giteaProof.length > 0 || giteaEvent !== undefined) {
    const expected = hmacOf(input.secret, input.body);
    if (giteaProof.length === 0) {
      const forgejo = headers.has('x-forgejo-event') && !headers.has('x-gitea-event');
      return refuse(`${forgejo ? 'X-Forgejo-Signature' : 'X-Gitea-Signature'} is missing`);
    }
    // Forgejo sends both: each one present has to match, so neither is a way around the other.
    for (const name of giteaProof) {
      const value = only(headers, name);
      if (value === undefined) return refuse(`${displayName(name)} is sent more than once`);
      if (!isHexOf(value, expected)) return mismatch(displayName(name));
    }
    return accepted(
      'gitea',
      giteaEvent ?? first(headers, 'x-github-event'),
      first(headers, 'x-gitea-delivery') ?? first(headers, 'x-forgejo-delivery'),
    );
  }
  if (headers.has('x-gitlab-event') || headers.has('x-gitlab-token')) {
    if (!headers.has('x-gitlab-token')) return refuse('X-Gitlab-Token is missing');
    const token = only(headers, 'x-gitlab-token');
    if (token === undefined) return refuse('X-Gitlab-Token is sent more than once');
    // Hashed first: equal lengths for timingSafeEqual, and the secret's length never leaks.
    if (!timingSafeEqual(sha256(token), sha256(input.secret))) {
      return refuse("X-Gitlab-Token is not this link's secret");
    }
    return accepted(
      'gitlab',
      first(headers, 'x-gitlab-event'),
      first(headers, 'x-gitlab-event-uuid') ?? first(headers, 'x-gitlab-webhook-uuid'),
    );
  }
  if (!headers.has('x-hub-signature-256')) {
    return refuse(
      headers.has('x-hub-signature')
        ? 'only X-Hub-Signature (SHA-1) is sent, which is not accepted: X-Hub-Signature-256 is needed (set a secret on the webhook)'
        : 'the request is not signed (no X-Hub-Signature-256, X-Gitlab-Token or X-Gitea-Signature)',
    );
  }
  const signature = only(headers, 'x-hub-signature-256');
  if (signature === undefined) return refuse('X-Hub-Signature-256 is sent more than once');
  const prefix = 'sha256=';
  if (
    !signature.startsWith(prefix) ||
    !isHexOf(signature.slice(prefix.length), hmacOf(input.secret, input.body))
  ) {
    return mismatch('X-Hub-Signature-256');
  }
  return accepted('github', first(headers, 'x-github-event'), first(headers, 'x-github-delivery'));
}

const refuse = (reason: string): Verified => ({ ok: false, reason });

const mismatch = (header: string) =>
  refuse(`${header} does not match the body signed with this link's secret`);

function accepted(
  provider: Provider,
  event: string | undefined,
  delivery: string | undefined,
): Verified {
  // No event header is not a forgery: pushEventOf ignores an event it does not know.
  return { ok: true, provider, event: event ?? '', ...(delivery ? { delivery } : {}) };
}

/** Header names are case-insensitive; Fastify lower-cases them, a direct caller may not. */
function lowerCased(headers: WebhookHeaders): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    map.set(key, [...(map.get(key) ?? []), ...(Array.isArray(value) ? value : [value])]);
  }
  return map;
}

function first(headers: Map<string, string[]>, name: string): string | undefined {
  return headers.get(name)?.[0];
}

/** The one value of a proof header: several (which one would the provider mean?) is none. */
function only(headers: Map<string, string[]>, name: string): string | undefined {
  const values = headers.get(name);
  return values?.length === 1 ? values[0] : undefined;
}

const displayName = (name: string) =>
  name === 'x-gitea-signature' ? 'X-Gitea-Signature' : 'X-Forgejo-Signature';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

function hmacOf(secret: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** Whether a hex text is these bytes; malformed hex or a wrong length is no, not an exception. */
function isHexOf(hex: string, expected: Buffer): boolean {
  const text = hex.trim();
  // Checked first: Buffer.from(…, 'hex') silently stops at the first non-hex character.
  if (!/^[0-9a-fA-F]*$/.test(text) || text.length !== expected.length * 2) return false;
  return timingSafeEqual(Buffer.from(text, 'hex'), expected);
}
