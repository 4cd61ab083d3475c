/**
 * The origin of an absolute http(s) URL, to be written into a response header (the CSP's
 * `font-src`: docs/published-site.md, "CSP"). The URL is parsed by the WHATWG URL parser and the
 * origin written again from its parts, `protocol//hostname[:port]`: no text of the URL as stored
 * reaches the header. A host the parser keeps but a CSP source cannot hold (`;`, `,`, quotes,
 * `*`, `_`, an IPv6 literal …: the parser keeps all of them in a host) gives no origin at all,
 * rather than a header that says more than its one source.
 *
 * Settings validation refuses such URLs at write time (`HEADER_ORIGIN_KEYWORD`); a stored one is
 * ignored where headers are made.
 */
export function headerOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  if (!CSP_HOST.test(parsed.hostname)) return undefined;
  return `${parsed.protocol}//${parsed.hostname}${parsed.port === '' ? '' : `:${parsed.port}`}`;
}

/**
 * An absolute http(s) URL for a header (`Location`) or a redirect: parsed, and written again by
 * the parser, which percent-encodes whatever a header cannot carry and drops tabs and line
 * breaks; undefined for anything that is not one (another scheme, or no URL at all).
 */
export function headerUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** CSP's host-part (letters, digits, hyphens; dot-separated), as the parser writes it: lowercase. */
const CSP_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/**
 * The schema keyword (http/validation.ts) that marks a URL whose origin goes into a header:
 * `headerOrigin` must give one. An `x-` name: OpenAPI documents carry such extensions as they
 * are, and other readers of the schema ignore them.
 */
export const HEADER_ORIGIN_KEYWORD = 'x-header-origin';
