import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { PLATFORM_NAMES, profileUrl } from '../../src/modules/published/rendering/social.js';
import { BRAND_ICONS } from '../../src/modules/published/rendering/social-icons.js';
import { SOCIAL_PLATFORMS, type SocialPlatform } from '../../src/settings/vocabulary.js';

/** `socialAccounts`: the profile address of each platform's handle (docs/published-site.md). */
describe('profileUrl', () => {
  const rows: [SocialPlatform, string, string | undefined][] = [
    ['twitter', 'gitbook', 'https://x.com/gitbook'],
    ['twitter', '@gitbook', 'https://x.com/gitbook'],
    ['instagram', 'acme.docs', 'https://www.instagram.com/acme.docs'],
    ['facebook', 'acme', 'https://www.facebook.com/acme'],
    ['linkedin', 'acme', 'https://www.linkedin.com/company/acme'],
    ['linkedin', 'in/ada-lovelace', 'https://www.linkedin.com/in/ada-lovelace'],
    ['linkedin', 'Company/acme', 'https://www.linkedin.com/company/acme'],
    ['linkedin', 'evil/acme', 'https://www.linkedin.com/company/evil%2Facme'],
    ['github', 'GitbookIO', 'https://github.com/GitbookIO'],
    ['discord', 'abc123', 'https://discord.gg/abc123'],
    ['slack', 'acme-team', 'https://acme-team.slack.com/'],
    ['slack', 'evil.test/x', undefined],
    ['youtube', 'acme', 'https://www.youtube.com/@acme'],
    ['tiktok', 'acme', 'https://www.tiktok.com/@acme'],
    ['reddit', 'node', 'https://www.reddit.com/r/node'],
    ['reddit', 'u/spez', 'https://www.reddit.com/u/spez'],
    ['bluesky', 'acme.bsky.social', 'https://bsky.app/profile/acme.bsky.social'],
    ['mastodon', 'acme@fosstodon.org', 'https://fosstodon.org/@acme'],
    ['mastodon', '@acme@Fosstodon.org', 'https://fosstodon.org/@acme'],
    ['mastodon', 'acme', 'https://mastodon.social/@acme'],
    ['mastodon', 'acme@evil.test/path', undefined],
    ['mastodon', 'acme@[::1]', undefined],
    ['mastodon', 'acme@localhost', undefined],
    ['mastodon', '@@fosstodon.org', undefined],
    ['threads', 'acme', 'https://www.threads.net/@acme'],
    ['medium', 'acme', 'https://medium.com/@acme'],
    ['github', '', undefined],
    ['github', '@', undefined],
    ['github', 'a b/../?x=1#y', 'https://github.com/a%20b%2F..%2F%3Fx%3D1%23y'],
    ['twitter', '"><script>', 'https://x.com/%22%3E%3Cscript%3E'],
    ['twitter', 'ünïcode', 'https://x.com/%C3%BCn%C3%AFcode'],
  ];
  for (const [platform, handle, url] of rows) {
    test(`${platform} ${JSON.stringify(handle)}`, () =>
      assert.equal(profileUrl(platform, handle), url));
  }

  test('whatever the handle, the address stays on the platform’s site, with no query or fragment', () => {
    const hosts: Partial<Record<SocialPlatform, RegExp>> = {
      slack: /\.slack\.com$/,
      mastodon: /./,
    };
    fc.assert(
      fc.property(fc.constantFrom(...SOCIAL_PLATFORMS), fc.string(), (platform, handle) => {
        const url = profileUrl(platform, handle);
        if (url === undefined) return;
        const parsed = new URL(url);
        assert.equal(parsed.protocol, 'https:');
        assert.equal(parsed.search, '');
        assert.equal(parsed.hash, '');
        assert.equal(parsed.username + parsed.password, '');
        const expected = hosts[platform];
        if (expected === undefined) {
          const fixed = new URL(profileUrl(platform, 'acme') ?? '').host;
          assert.equal(parsed.host, fixed);
        } else assert.match(parsed.host, expected);
      }),
    );
  });
});

describe('names and icons', () => {
  test('every platform has a name; all but LinkedIn and Slack a brand icon', () => {
    for (const platform of SOCIAL_PLATFORMS) assert.ok(PLATFORM_NAMES[platform], platform);
    const without = SOCIAL_PLATFORMS.filter((platform) => BRAND_ICONS[platform] === undefined);
    assert.deepEqual(without, ['linkedin', 'slack']);
    for (const path of Object.values(BRAND_ICONS))
      assert.match(path ?? '', /^[MmZzLlHhVvCcSsQqTtAa0-9.,\s-]+$/);
  });
});
