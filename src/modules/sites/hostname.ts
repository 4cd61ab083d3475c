import { Type } from 'typebox';

/**
 * A site's custom hostname (docs/sites.md, "Custom hostnames"). Pure: the rules of a hostname a
 * site may take, apart from whether another site holds it (the database's unique index says).
 */

/**
 * GitBook's `SiteHostname` pattern (at least three DNS labels: `docs.acme.com`, never `localhost`
 * or `acme.com`), with upper-case letters also accepted: hostnames are compared without case, so
 * `Docs.Acme.com` is taken as `docs.acme.com` and stored so.
 */
export const SITE_HOSTNAME_PATTERN =
  '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?[.]){2,}[A-Za-z0-9][A-Za-z0-9-]{0,61}[A-Za-z0-9]$';

/** DNS's limit on a whole name (GitBook's schema allows 512; no resolver would take more). */
export const MAX_HOSTNAME_LENGTH = 253;

export const SiteHostnameSchema = Type.String({
  maxLength: 512,
  pattern: SITE_HOSTNAME_PATTERN,
  description:
    'Custom hostname of the site, e.g. docs.acme.com: at least three labels of letters, digits and "-", compared without case and stored in lower case; unique in this Livery',
});

/** The stored form: lower case (DNS names have no case). */
export const normalizeHostname = (hostname: string): string => hostname.toLowerCase();

/**
 * Why `hostname` (already matching the pattern, lower case) cannot be a site's, or undefined.
 * `ownHosts` are the hosts of BASE_URL and PUBLIC_URL: requests there are Livery's API and its
 * `/s/` sites, so no site may take them.
 */
export function hostnameProblem(hostname: string, ownHosts: readonly string[]): string | undefined {
  if (hostname.length > MAX_HOSTNAME_LENGTH) {
    return `a hostname has at most ${MAX_HOSTNAME_LENGTH} characters`;
  }
  // The pattern lets four numeric labels through: no top-level domain is all digits.
  const last = hostname.slice(hostname.lastIndexOf('.') + 1);
  if (/^[0-9]+$/.test(last)) return 'an IP address is not a hostname';
  if (ownHosts.includes(hostname)) {
    return "this is Livery's own address (BASE_URL or PUBLIC_URL), not a site's";
  }
  return undefined;
}

/** The host names (without port, lower case) of Livery's own URLs. */
export function ownHostsOf(...urls: string[]): string[] {
  return [...new Set(urls.map((url) => new URL(url).hostname.toLowerCase()))];
}
