/**
 * GitBook's redirect sources (SiteRedirectSourcePath) and how a site's path is matched against
 * them. Pure. Sources and request paths are compared in one canonical form: every segment's
 * percent-encoding decoded to bytes and encoded again, unreserved characters (and `+`) as
 * themselves, every other byte as `%XX` in upper case. `/caf%c3%a9`, `/caf%C3%A9` and a request
 * for `/café` then meet.
 *
 * - `/old/page`: that path exactly.
 * - `/old/*`: every path below `/old/` and `/old` itself; the captured suffix is what follows
 *   `/old/` (`a/b` for `/old/a/b`, empty for `/old`).
 * - `/old*`: every path starting with `/old` (`/old`, `/older`, `/old/a`); the suffix is what
 *   follows `/old`.
 *
 * An exact source wins over a prefix; among prefixes the longest wins.
 */

/** GitBook 0.202's SiteRedirectSourcePath pattern (no `/*` alone, `*` only at the end). */
export const SOURCE_PATTERN =
  '^\\/(?!\\*)(?!.*\\*.+)(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+(?:\\/(?:[A-Za-z0-9\\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\\/\\*|\\*)?$';
export const SOURCE_MAX_LENGTH = 512;

const UNRESERVED = /[A-Za-z0-9\-._~+]/;

export type ParsedSource =
  | { kind: 'exact'; path: string }
  /** `key` is the path before the `*` (with its `/` for a `/*` source). */
  | { kind: 'prefix'; key: string; slash: boolean };

/** Bytes as a canonical segment. */
function encodeBytes(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out +=
      byte < 0x80 && UNRESERVED.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A segment as written in a source (unreserved characters and `%XX` only), canonical. */
function canonicalWritten(segment: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] === '%') {
      bytes.push(Number.parseInt(segment.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(segment.charCodeAt(i));
  }
  return encodeBytes(Uint8Array.from(bytes));
}

/** A decoded segment (a request's, as the published site parses it), canonical. */
export function canonicalSegment(decoded: string): string {
  return encodeBytes(new TextEncoder().encode(decoded));
}

/** A site path from decoded segments (`['old', 'page']` → `/old/page`); `/` for none. */
export function canonicalPath(segments: readonly string[]): string {
  return `/${segments.map(canonicalSegment).join('/')}`;
}

/**
 * A source that matches SOURCE_PATTERN, in canonical form; undefined when it names no address a
 * visitor could request (a `.` or `..` segment: the published site refuses those).
 */
export function canonicalSource(source: string): string | undefined {
  const star = source.endsWith('/*') ? '/*' : source.endsWith('*') ? '*' : '';
  const body = source.slice(1, source.length - star.length);
  const segments = body.split('/').map(canonicalWritten);
  if (segments.some((s) => s === '.' || s === '..')) return undefined;
  return `/${segments.join('/')}${star}`;
}

export function parseSource(canonical: string): ParsedSource {
  if (canonical.endsWith('/*')) return { kind: 'prefix', key: canonical.slice(0, -1), slash: true };
  if (canonical.endsWith('*')) return { kind: 'prefix', key: canonical.slice(0, -1), slash: false };
  return { kind: 'exact', path: canonical };
}

export interface Matched<R> {
  rule: R;
  /** What the `*` matched ('' for an exact source). */
  suffix: string;
  /** The source ends with `/*`: the suffix is joined to a destination with a `/`. */
  slash: boolean;
}

/**
 * A site's rules by source, for matching paths: a map of exact sources and one of prefixes
 * with the lengths they come in, so a lookup costs a handful of map reads whatever the number of
 * rules (the published site's 404s, the renderer's lookups, chain checks).
 */
export class RuleIndex<R extends { source: string }> {
  private readonly exact = new Map<string, R>();
  private readonly prefixes = new Map<string, { rule: R; slash: boolean }>();
  private readonly lengths: number[];

  constructor(rules: Iterable<R>) {
    const lengths = new Set<number>();
    for (const rule of rules) {
      const parsed = parseSource(rule.source);
      if (parsed.kind === 'exact') this.exact.set(parsed.path, rule);
      else {
        this.prefixes.set(parsed.key, { rule, slash: parsed.slash });
        lengths.add(parsed.key.length);
      }
    }
    this.lengths = [...lengths].sort((a, b) => b - a);
  }

  get size(): number {
    return this.exact.size + this.prefixes.size;
  }

  /** The rule for a canonical path (no trailing `/`, except the root `/`), or undefined. */
  match(path: string): Matched<R> | undefined {
    const exact = this.exact.get(path);
    if (exact !== undefined) return { rule: exact, suffix: '', slash: false };
    if (this.lengths.length === 0) return undefined;
    // `/old/*` also matches `/old` itself: the key `/old/` is one longer than the path.
    const itself = this.prefixes.get(`${path}/`);
    if (itself?.slash === true) return { rule: itself.rule, suffix: '', slash: true };
    for (const length of this.lengths) {
      if (length > path.length) continue;
      const found = this.prefixes.get(path.slice(0, length));
      if (found !== undefined) {
        return { rule: found.rule, suffix: path.slice(length), slash: found.slash };
      }
    }
    return undefined;
  }
}

/**
 * A destination URL with a captured suffix appended (`captureWildcard`): after a `/` for a `/*`
 * source (added unless the URL's path ends with one), as is for a `*` source; before the URL's
 * query and fragment. An empty suffix leaves the URL as it is.
 */
export function appendCaptured(url: string, suffix: string, slash: boolean): string {
  if (suffix === '') return url;
  const cut = url.search(/[?#]/);
  const path = cut === -1 ? url : url.slice(0, cut);
  const rest = cut === -1 ? '' : url.slice(cut);
  const joiner = slash && !path.endsWith('/') ? '/' : '';
  return `${path}${joiner}${suffix}${rest}`;
}
