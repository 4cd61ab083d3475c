import type { Provider } from './verify.js';

export { sameRepository } from './same-repository.js';

/** A branch push, as every provider's payload says it (docs/git-sync.md, "Webhooks"). */
export interface PushEvent {
  kind: 'push';
  /** The full ref, `refs/heads/main`. */
  ref: string;
  /** The branch's name, when the ref is a branch. */
  branch?: string;
  /** The commit the ref was at ('' when the payload does not say); zeros: it did not exist. */
  before: string;
  /** The commit the ref is at now; zeros: the ref was deleted. */
  after: string;
  deleted: boolean;
  created: boolean;
  /** Every URL the payload gives for the repository (clone, ssh, git, web), each once. */
  repositoryUrls: string[];
}

export type PushEventResult = PushEvent | { ignored: string } | { invalid: string };

/**
 * The most this reads. The route limits bodies already (webhook-route.ts); this is a bound of its
 * own, GitHub's cap on a delivery, so that no caller can make it parse more.
 */
export const MAX_PUSH_EVENT_BYTES = 25 * 1024 * 1024;

const TAGS_IGNORED = 'a tag push: tags are not synced';

/** A commit id, SHA-1 or SHA-256; all zeros stands for "no commit" (created or deleted). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
const ZERO_ID = /^(?:0{40}|0{64})$/;

/** Fields of `repository` (GitHub, Gitea, GitLab's legacy one) and `project` (GitLab) that are URLs. */
const URL_FIELDS = [
  'clone_url',
  'ssh_url',
  'git_url',
  'html_url',
  'url',
  'git_http_url',
  'git_ssh_url',
  'homepage',
  'http_url',
  'web_url',
] as const;

/**
 * A verified delivery's push (GitHub `push`, GitLab `Push Hook` or a `System Hook` whose
 * `event_name` is `push`, Gitea/Forgejo `push`), or why it is ignored (a ping, a tag, another
 * event) or cannot be read (naming the field). Never throws.
 */
export function pushEventOf(
  provider: Provider,
  event: string,
  body: Buffer,
  contentType?: string,
): PushEventResult {
  const name = event.trim().toLowerCase();
  if (name === 'ping') return { ignored: 'a ping: the webhook works' };
  if (name === 'tag push hook') return { ignored: TAGS_IGNORED };
  const isPush =
    provider === 'gitlab' ? name === 'push hook' || name === 'system hook' : name === 'push';
  if (!isPush) {
    return {
      ignored:
        name === ''
          ? 'the delivery names no event: only pushes are used'
          : `a "${event}" event: only pushes are used`,
    };
  }
  const payload = payloadOf(body, contentType);
  if ('invalid' in payload) return payload;
  const fields = payload.object;
  if (name === 'system hook') {
    // System hooks carry every kind of event; the kind is in the body.
    if (fields.event_name === 'tag_push') return { ignored: TAGS_IGNORED };
    if (fields.event_name !== 'push') {
      return { ignored: 'a system hook that is not a push: only pushes are used' };
    }
  }
  return pushOf(fields);
}

function pushOf(fields: Record<string, unknown>): PushEventResult {
  const { ref, before, after } = fields;
  if (ref === undefined || ref === null || ref === '') return { invalid: 'ref is missing' };
  if (typeof ref !== 'string' || !ref.startsWith('refs/')) {
    return { invalid: 'ref is not a full ref (refs/heads/…)' };
  }
  if (ref.startsWith('refs/tags/')) return { ignored: TAGS_IGNORED };
  if (after === undefined || after === null || after === '') return { invalid: 'after is missing' };
  if (typeof after !== 'string' || !OBJECT_ID.test(after)) {
    return { invalid: 'after is not a commit id' };
  }
  // `before` is in every provider's push, but a push is only a hint to fetch: without it, the
  // event still says which branch to look at.
  if (before !== undefined && (typeof before !== 'string' || !OBJECT_ID.test(before))) {
    return { invalid: 'before is not a commit id' };
  }
  const previous = typeof before === 'string' ? before : '';
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
  return {
    kind: 'push',
    ref,
    ...(branch ? { branch } : {}),
    before: previous,
    after,
    // GitHub and Gitea say it; GitLab only by the zeros (GitHub's zeros agree).
    deleted: fields.deleted === true || ZERO_ID.test(after),
    created: fields.created === true || ZERO_ID.test(previous),
    repositoryUrls: repositoryUrlsOf(fields),
  };
}

/**
 * The body's JSON object: as sent (`application/json`), or GitHub's form-encoded delivery, whose
 * `payload` field is the JSON.
 */
function payloadOf(
  body: Buffer,
  contentType: string | undefined,
): { object: Record<string, unknown> } | { invalid: string } {
  if (body.length > MAX_PUSH_EVENT_BYTES) {
    return { invalid: `the body is larger than ${MAX_PUSH_EVENT_BYTES} bytes` };
  }
  let text = body.toString('utf8');
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') {
    const field = new URLSearchParams(text).get('payload');
    if (field === null || field === '') return { invalid: 'payload is missing from the form' };
    text = field;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      invalid:
        mediaType === 'application/x-www-form-urlencoded'
          ? 'payload is not JSON'
          : 'the body is not JSON (nor a form with a JSON payload field)',
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { invalid: 'the body is not a JSON object' };
  }
  return { object: parsed as Record<string, unknown> };
}

function repositoryUrlsOf(fields: Record<string, unknown>): string[] {
  const urls = new Set<string>();
  for (const key of ['repository', 'project']) {
    const repository = fields[key];
    if (typeof repository !== 'object' || repository === null) continue;
    for (const field of URL_FIELDS) {
      const value = (repository as Record<string, unknown>)[field];
      if (typeof value === 'string' && value !== '') urls.add(value);
    }
  }
  return [...urls];
}
