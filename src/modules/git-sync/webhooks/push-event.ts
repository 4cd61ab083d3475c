import type { Provider } from './verify.js';

/** A branch push, as every provider's payload says it (docs/git-sync.md, "Webhooks"). */
export interface PushEvent {
  kind: 'push';
  /** The full ref, `refs/heads/main`. */
  ref: string;
  /** The branch's name, when the ref is a branch. */
  branch?: string;
  before: string;
  after: string;
  deleted: boolean;
  created: boolean;
  /** Every URL the payload gives for the repository (clone, ssh, web). */
  repositoryUrls: string[];
}

const ZERO = /^0{40}$|^0{64}$/;

/**
 * A verified delivery's push, or why it is ignored (a ping, a tag, another event) or cannot be
 * read (the field it lacks). Never throws.
 */
export function pushEventOf(
  provider: Provider,
  event: string,
  body: Buffer,
  contentType?: string,
): PushEvent | { ignored: string } | { invalid: string } {
  const name = event.toLowerCase();
  if (name === 'ping') return { ignored: 'a ping: the webhook works' };
  const isPush =
    (provider === 'gitlab' && (name === 'push hook' || name === 'system hook')) || name === 'push';
  if (!isPush) {
    return {
      ignored:
        name === 'tag push hook'
          ? 'a tag push: tags are not synced'
          : `a "${event}" event: only pushes are used`,
    };
  }
  let payload: unknown;
  try {
    let text = body.toString('utf8');
    if (contentType?.startsWith('application/x-www-form-urlencoded') === true) {
      text = new URLSearchParams(text).get('payload') ?? '';
    }
    payload = JSON.parse(text);
  } catch {
    return { invalid: 'the body is not JSON (nor a form with a JSON `payload`)' };
  }
  if (typeof payload !== 'object' || payload === null)
    return { invalid: 'the body is not an object' };
  const p = payload as Record<string, unknown>;
  if (provider === 'gitlab' && name === 'system hook' && p.event_name !== 'push') {
    return { ignored: `a system hook "${String(p.event_name)}": only pushes are used` };
  }
  const ref = p.ref;
  if (typeof ref !== 'string' || ref === '') return { invalid: 'ref is missing' };
  if (ref.startsWith('refs/tags/')) return { ignored: 'a tag push: tags are not synced' };
  const before = typeof p.before === 'string' ? p.before : '';
  const after = typeof p.after === 'string' ? p.after : '';
  if (after === '') return { invalid: 'after is missing' };
  return {
    kind: 'push',
    ref,
    ...(ref.startsWith('refs/heads/') ? { branch: ref.slice('refs/heads/'.length) } : {}),
    before,
    after,
    deleted: p.deleted === true || ZERO.test(after),
    created: p.created === true || ZERO.test(before),
    repositoryUrls: urlsOf(p),
  };
}

function urlsOf(p: Record<string, unknown>): string[] {
  const urls: string[] = [];
  for (const key of ['repository', 'project']) {
    const repo = p[key];
    if (typeof repo !== 'object' || repo === null) continue;
    for (const field of [
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
    ]) {
      const value = (repo as Record<string, unknown>)[field];
      if (typeof value === 'string' && value !== '') urls.push(value);
    }
  }
  return urls;
}

/**
 * Whether two URLs name one repository: https and ssh forms (`git@host:o/r.git`,
 * `ssh://git@host/o/r`), with or without `.git` or a trailing slash, credentials ignored, the
 * host in any case; local paths and file:// URLs by their path.
 */
export function sameRepository(a: string, b: string): boolean {
  const x = keyOf(a);
  return x !== undefined && x === keyOf(b);
}

function keyOf(url: string): string | undefined {
  const trimmed = url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '');
  if (trimmed.startsWith('/')) return `file:${trimmed}`;
  if (!trimmed.includes('://')) {
    // scp-like: `git@host:owner/repo`.
    const scp = /^(?:[^@/:]+@)?([^/:]+):(.+)$/.exec(trimmed);
    return scp === null
      ? undefined
      : `${(scp[1] ?? '').toLowerCase()}/${(scp[2] ?? '').replace(/^\/+/, '')}`;
  }
  try {
    const parsed = new URL(trimmed);
    const path = decodeURIComponent(parsed.pathname);
    if (parsed.protocol === 'file:') return `file:${path}`;
    return `${parsed.hostname.toLowerCase()}/${path.replace(/^\/+/, '')}`;
  } catch {
    return undefined;
  }
}
