import { lookup } from 'node:dns/promises';
import { realpathSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { isAbsolute, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../errors.js';

/**
 * The one policy for what a space may be imported from. A server that fetches whatever URL it is
 * given is an SSRF and file-read tool, so (issue 27): `https://` (credentials inside allowed),
 * `ssh://` and scp-like `git@host:path`; `file://` and absolute paths only inside the operator's
 * GIT_LOCAL_DIRS; no loopback, private, link-local or unique-local host unless allowed.
 */
export interface UrlPolicy {
  /** GIT_LOCAL_DIRS: directories whose repositories may be imported by path (none by default). */
  localDirs: readonly string[];
  /** Whether hosts on loopback or private networks may be fetched from (tests, intranets). */
  allowPrivate: boolean;
}

export type RepositoryLocation =
  | {
      kind: 'remote';
      /** What `git` is given: the URL as normalised by the check, so both read the same host. */
      url: string;
      /** The URL with its credentials replaced by `***`: the only form to log or show. */
      redacted: string;
      /** The host name or address literal (no brackets), for `assertPublicHost`. */
      host: string;
      port: number;
      transport: 'https' | 'ssh';
    }
  | { kind: 'local'; path: string };

const refuse = (reason: string) => new AppError(400, `url: ${reason}`);

/** GIT_LOCAL_DIRS as a list (colon-separated; empty entries ignored). */
export function parseLocalDirs(value: string | undefined): string[] {
  return (value ?? '').split(':').filter((dir) => dir !== '');
}

/**
 * The synchronous part of the policy: the URL's form, its transport, literal addresses, and for
 * local paths the real directory (symbolic links resolved). Throws a 400 AppError naming `url`,
 * whose message never holds the URL's credentials. A host name still has to pass
 * `assertPublicHost` (DNS) unless the policy allows private hosts.
 */
export function checkRepositoryUrl(url: string, policy: UrlPolicy): RepositoryLocation {
  // Controls and spaces: what parsers disagree on. A leading `-` would be read by git as an option.
  if (url === '' || [...url].some(isUnsafeChar) || url.startsWith('-')) {
    throw refuse('must be an https://, ssh:// or git@host:path URL with no spaces');
  }
  if (url.startsWith('/')) return local(url, policy);
  // `<transport>::<address>` runs a remote helper (`ext::` runs a command): never.
  if (/^[a-z][a-z0-9+.-]*::/i.test(url)) throw refuse('remote helpers are not allowed');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return scpLike(url, policy);
  if (scheme === 'file') {
    let path: string;
    try {
      path = fileURLToPath(url);
    } catch {
      throw refuse('a file:// URL must name a local path (file:///dir/repo)');
    }
    return local(path, policy);
  }
  if (scheme === 'http') throw refuse('http:// is not allowed: use https://');
  if (scheme !== 'https' && scheme !== 'ssh') throw refuse(`${scheme}:// is not allowed`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse('is not a valid URL');
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '' || host.startsWith('-') || parsed.username.startsWith('-')) {
    throw refuse('has no valid host');
  }
  checkHostName(host, policy);
  const redacted = new URL(parsed.href);
  if (redacted.username !== '' || redacted.password !== '') {
    redacted.username = '***';
    redacted.password = '';
  }
  const port = parsed.port === '' ? (scheme === 'https' ? 443 : 22) : Number(parsed.port);
  return {
    kind: 'remote',
    url: parsed.href,
    redacted: redacted.href,
    host,
    port,
    transport: scheme,
  };
}

const isUnsafeChar = (char: string) => char <= ' ' || char === '\u007f' || char === '\\';

/** `[user@]host:path`, git's short form for ssh (a colon before any slash). */
function scpLike(url: string, policy: UrlPolicy): RepositoryLocation {
  const match =
    /^(?:([A-Za-z0-9._~+][A-Za-z0-9._~+-]*)@)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(?!\/\/)(.+)$/.exec(
      url,
    );
  const host = match?.[2]?.replace(/^\[(.*)\]$/, '$1');
  if (match === null || host === undefined || host.startsWith('-')) {
    throw refuse('must be an https://, ssh:// or git@host:path URL, or an allowed local path');
  }
  checkHostName(host, policy);
  return { kind: 'remote', url, redacted: url, host, port: 22, transport: 'ssh' };
}

function checkHostName(host: string, policy: UrlPolicy): void {
  if (policy.allowPrivate) return;
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost') || isPrivateAddress(name)) {
    throw refuse(`the host ${JSON.stringify(host)} is on a loopback or private network`);
  }
}

function local(path: string, policy: UrlPolicy): RepositoryLocation {
  if (!isAbsolute(path)) throw refuse('a local repository must be an absolute path');
  const roots = policy.localDirs.flatMap((dir) => {
    try {
      return [realpathSync(dir)];
    } catch {
      return [];
    }
  });
  if (roots.length === 0) {
    throw refuse('local paths and file:// URLs are not allowed here (GIT_LOCAL_DIRS is empty)');
  }
  const outside = refuse('this local path is not inside a directory of GIT_LOCAL_DIRS');
  // Lexically first (so nothing is learnt about paths outside), then for real, symlinks resolved.
  if (!roots.some((root) => isWithin(resolve(path), root))) throw outside;
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw refuse('no such local directory');
  }
  if (!roots.some((root) => isWithin(real, root))) throw outside;
  return { kind: 'local', path: real };
}

function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

// IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are checked against the IPv4 rules by BlockList.
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127], // unspecified and loopback
  ['64:ff9b::', 96], // NAT64 and 6to4 embed an IPv4 address that may be private
  ['2002::', 16],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether an address literal is loopback, private, link-local, unique-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return blocked.check(address, 'ipv4');
  if (version === 6) return blocked.check(address, 'ipv6');
  return false;
}

/**
 * Refuses a host that is, or resolves to (every address of the lookup), a non-public address;
 * returns the addresses, so that the fetch can be pinned to them (git's `http.curloptResolve`)
 * and a DNS answer that changes in between cannot send it elsewhere.
 */
export async function assertPublicHost(
  host: string,
  resolveName: Resolver = (name) => lookup(name, { all: true, verbatim: true }),
): Promise<string[]> {
  if (isIP(host) !== 0) {
    if (isPrivateAddress(host)) throw refuse(`the host ${host} is not a public address`);
    return [host];
  }
  let addresses: readonly { address: string }[];
  try {
    addresses = await resolveName(host);
  } catch {
    throw refuse(`the host ${JSON.stringify(host)} could not be resolved`);
  }
  if (addresses.length === 0) throw refuse(`the host ${JSON.stringify(host)} has no address`);
  if (addresses.some((entry) => isPrivateAddress(entry.address))) {
    throw refuse(`the host ${JSON.stringify(host)} resolves to a loopback or private address`);
  }
  return addresses.map((entry) => entry.address);
}

type Resolver = (host: string) => Promise<readonly { address: string }[]>;

/**
 * The whole policy: `checkRepositoryUrl`, then, for a remote host when private hosts are not
 * allowed, `assertPublicHost`. `addresses` pins an https fetch (git-command.ts `fetchRef`);
 * ssh is not pinned (ssh resolves the name again itself: the window is the time between both).
 */
export async function resolveRepository(
  url: string,
  policy: UrlPolicy,
  resolveName?: Resolver,
): Promise<{ location: RepositoryLocation; addresses: string[] }> {
  const location = checkRepositoryUrl(url, policy);
  if (location.kind === 'local' || policy.allowPrivate) return { location, addresses: [] };
  return { location, addresses: await assertPublicHost(location.host, resolveName) };
}

/**
 * Any text (an error, git's stderr) with the credentials of every URL in it replaced by `***`:
 * the userinfo part `scheme://user:secret@` is all of it, user names included (tokens are often
 * given as the user name).
 */
export function redactUrl(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi, '$1***@');
}
