import type { SocialPlatform } from '../../../settings/vocabulary.js';
import { isWellFormedText } from '../../../well-formed-text.js';

/**
 * `socialAccounts`: each account's profile address, built from its handle, and the platform's
 * name for its label. Pure (test/unit/published-social.test.ts). A handle is what a site admin typed,
 * so it only ever reaches an address as percent-encoded path segments (or, for Mastodon and
 * Slack, as a host name that must look like one): it can never change the address's origin, add
 * a query or leave the profile path. A handle that gives no sensible address is not shown, nor is
 * one that is not well-formed text (a lone surrogate, which `encodeURIComponent` throws on).
 */

export const PLATFORM_NAMES: Readonly<Record<SocialPlatform, string>> = {
  twitter: 'X (Twitter)',
  instagram: 'Instagram',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
  github: 'GitHub',
  discord: 'Discord',
  slack: 'Slack',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  reddit: 'Reddit',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  threads: 'Threads',
  medium: 'Medium',
};

/** A host name: labels of letters, digits and dashes (IDNs in their `xn--` form). */
const HOST =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

const segment = (text: string) => encodeURIComponent(text);
/** `in/ada`, `r/node`: a known prefix and a name, as two path segments. */
const prefixed = (handle: string, prefixes: readonly string[]) => {
  const [prefix, name, ...rest] = handle.split('/');
  return prefix !== undefined &&
    name !== undefined &&
    name !== '' &&
    rest.length === 0 &&
    prefixes.includes(prefix.toLowerCase())
    ? `${prefix.toLowerCase()}/${segment(name)}`
    : undefined;
};

/** The profile address of an account, or undefined when its handle cannot make one. */
export function profileUrl(platform: SocialPlatform, rawHandle: string): string | undefined {
  // Handles are stored without the leading @ (GitBook's rule); one typed anyway is dropped.
  const handle = rawHandle.trim().replace(/^@/, '');
  if (handle === '' || !isWellFormedText(handle)) return undefined;
  const user = segment(handle);
  switch (platform) {
    case 'twitter':
      return `https://x.com/${user}`;
    case 'instagram':
      return `https://www.instagram.com/${user}`;
    case 'facebook':
      return `https://www.facebook.com/${user}`;
    case 'linkedin':
      // `in/ada` (a person), `company/acme`, …; a bare name is taken as a company page.
      return `https://www.linkedin.com/${prefixed(handle, ['in', 'company', 'school', 'showcase']) ?? `company/${user}`}`;
    case 'github':
      return `https://github.com/${user}`;
    case 'discord':
      // A Discord server is reached through an invite code.
      return `https://discord.gg/${user}`;
    case 'slack':
      // A Slack workspace is a subdomain of slack.com.
      return LABEL.test(handle) ? `https://${handle.toLowerCase()}.slack.com/` : undefined;
    case 'youtube':
      return `https://www.youtube.com/@${user}`;
    case 'tiktok':
      return `https://www.tiktok.com/@${user}`;
    case 'reddit':
      // `u/name` (a user), `r/name` (a community); a bare name is taken as a community.
      return `https://www.reddit.com/${prefixed(handle, ['r', 'u', 'user']) ?? `r/${user}`}`;
    case 'bluesky':
      return `https://bsky.app/profile/${user}`;
    case 'mastodon':
      return mastodonUrl(handle);
    case 'threads':
      return `https://www.threads.net/@${user}`;
    case 'medium':
      return `https://medium.com/@${user}`;
  }
}

/**
 * Mastodon accounts live on a server: `user@mastodon.social` is `https://mastodon.social/@user`.
 * A handle without a server is taken to be on mastodon.social; one whose server is not a host
 * name (`user@evil.test/path`, `user@[::1]`) gives no address.
 */
function mastodonUrl(handle: string): string | undefined {
  const at = handle.lastIndexOf('@');
  if (at === -1) return `https://mastodon.social/@${segment(handle)}`;
  const user = handle.slice(0, at);
  const server = handle.slice(at + 1);
  if (user === '' || !HOST.test(server)) return undefined;
  return `https://${server.toLowerCase()}/@${segment(user)}`;
}
