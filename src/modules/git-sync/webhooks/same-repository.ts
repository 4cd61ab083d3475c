/**
 * Whether two URLs name one repository, so that a push event for another repository is ignored:
 * https, http, git:// and ssh forms (`git@host:o/r.git`, `ssh://git@host:2222/o/r`), with or
 * without `.git` or a trailing slash, credentials and port ignored (the same forge serves https
 * and ssh on different ports), the host in any case; local paths and file:// URLs by their path.
 *
 * The path is compared in any case as well: GitHub, GitLab and Gitea/Forgejo all treat owner and
 * repository names case-insensitively, and the event is already authenticated by the link's
 * secret, so a false match costs one fetch where a false mismatch would lose a sync.
 *
 * Not `checkRepositoryUrl` (repository-url.ts): that is the policy for what may be fetched, which
 * refuses http:// and git:// (URLs that payloads do name) and reads the file system for paths.
 */
export function sameRepository(a: string, b: string): boolean {
  const key = repositoryKey(a);
  return key !== undefined && key === repositoryKey(b);
}

/** `host/owner/repo` (or `file:/path`), lower-cased, or undefined when it names no repository. */
export function repositoryKey(url: string): string | undefined {
  const text = url.trim();
  if (text === '') return undefined;
  if (text.startsWith('/')) return localKey(text);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    // scp-like `[user@]host:path` (a colon before any slash), git's short form for ssh.
    const scp = /^(?:[^@/:\s]+@)?(\[[0-9a-fA-F:.]+\]|[^@/:[\]\s]+):(?!\/\/)(.+)$/.exec(text);
    if (scp === null || scp[1] === undefined || scp[2] === undefined) return undefined;
    return remoteKey(scp[1], scp[2]);
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return undefined;
  }
  if (scheme === 'file') return parsed.host === '' ? localKey(parsed.pathname) : undefined;
  return remoteKey(parsed.hostname, parsed.pathname);
}

function remoteKey(host: string, rawPath: string): string | undefined {
  const path = repositoryPath(rawPath);
  return host === '' || path === undefined
    ? undefined
    : `${host.toLowerCase()}/${path}`.toLowerCase();
}

function localKey(rawPath: string): string | undefined {
  const path = repositoryPath(rawPath);
  return path === undefined ? undefined : `file:/${path}`;
}

/** The path without percent-escapes, empty or dot segments, a trailing `.git` or slash. */
function repositoryPath(rawPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return undefined; // a malformed escape: no repository named
  }
  const segments = decoded.split('/').filter((segment) => segment !== '' && segment !== '.');
  const last = segments.pop()?.replace(/\.git$/i, '');
  if (last === undefined || last === '' || segments.includes('..') || last === '..') {
    return undefined;
  }
  return [...segments, last].join('/');
}
