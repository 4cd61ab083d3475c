/**
 * The pure parts of site events (docs/insights.md, "Site events"): user-agent families, the
 * stored row of an event, and the time range of a query.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson, DATETIME, datetimeValue } from '../../src/modules/site-insights/columns.js';
import { eventRow } from '../../src/modules/site-insights/event-row.js';
import { rangeOf } from '../../src/modules/site-insights/query.js';
import type { SiteInsightsEvent } from '../../src/modules/site-insights/schemas.js';
import { userAgentFamilies } from '../../src/modules/site-insights/user-agent.js';

describe('userAgentFamilies', () => {
  const table: [string, string, string, string, string | null][] = [
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36 Edg/120.0',
      'edge',
      'windows',
      'desktop',
      null,
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15',
      'safari',
      'macos',
      'desktop',
      null,
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
      'firefox',
      'linux',
      'desktop',
      null,
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
      'safari',
      'ios',
      'mobile',
      null,
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-X700) AppleWebKit/537.36 Chrome/120.0 Safari/537.36',
      'chrome',
      'android',
      'tablet',
      null,
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36',
      'chrome',
      'android',
      'mobile',
      null,
    ],
    [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'unknown',
      'unknown',
      'unknown',
      'googlebot',
    ],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
      'unknown',
      'unknown',
      'unknown',
      'claudebot',
    ],
    ['curl/8.5.0', 'unknown', 'unknown', 'unknown', 'unknown'],
    ['', 'unknown', 'unknown', 'unknown', null],
  ];
  for (const [ua, browser, os, device, bot] of table) {
    test(ua || '(empty)', () =>
      assert.deepEqual(userAgentFamilies(ua), { browser, os, device, bot }),
    );
  }
});

const base = {
  session: {
    visitorId: 'v',
    sessionId: 's',
    cookies: { a: 'b' },
    ip: '198.51.100.7',
    userAgent: 'curl/8',
    language: null,
    referrer: '',
  },
  location: {
    url: 'https://docs.test/a/b?jwt_token=x&utm_campaign=spring#h',
    siteSection: null,
    siteSpace: null,
    siteShareKey: null,
    space: null,
    revision: null,
    page: null,
  },
};

describe('eventRow', () => {
  test('keeps no query string, hashes ids per site, keeps utm parameters', () => {
    const row = eventRow('site_a', { ...base, type: 'page_view' } as SiteInsightsEvent, 0);
    assert.equal(row.url, 'https://docs.test/a/b');
    assert.equal(row.url_path, '/a/b');
    assert.equal(row.utm_campaign, 'spring');
    assert.equal(row.referrer, null, 'an empty referrer is none');
    assert.notEqual(row.visitor, 'v');
    assert.notEqual(
      row.visitor,
      eventRow('site_b', { ...base, type: 'page_view' } as SiteInsightsEvent, 0).visitor,
    );
    assert.equal(row.at, '1970-01-01T00:00:00.000Z');
    assert.ok(!JSON.stringify(row).includes('198.51.100.7'));
  });

  test("each type's own fields", () => {
    const link = eventRow(
      's',
      {
        ...base,
        type: 'link_click',
        link: { target: { url: 'https://x.test/p', kind: 'url' }, position: 'footer' },
      } as SiteInsightsEvent,
      0,
    );
    assert.deepEqual(
      [link.link_kind, link.link_value, link.link_domain, link.link_position],
      ['url', '{"kind":"url","url":"https://x.test/p"}', 'x.test', 'footer'],
    );
    const ask = eventRow(
      's',
      {
        ...base,
        type: 'ask_rate_response',
        query: 'q',
        rating: -1,
        responseId: 'r',
      } as SiteInsightsEvent,
      0,
    );
    assert.equal(ask.ask_rating, '-1');
    const api = eventRow(
      's',
      {
        ...base,
        type: 'api_client_open',
        operation: { path: '/p', method: 'GET' },
      } as SiteInsightsEvent,
      0,
    );
    assert.deepEqual([api.api_path, api.api_method], ['/p', 'get']);
  });
});

describe('rangeOf and time buckets', () => {
  const now = Date.parse('2026-03-04T10:30:00Z');
  test('presets end 5 minutes ahead', () => {
    assert.deepEqual(rangeOf('last7Days', now), { from: now - 7 * 86_400_000, to: now + 300_000 });
  });
  test('custom ranges: ordered, at most 400 days', () => {
    assert.deepEqual(rangeOf({ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }, now), {
      from: Date.parse('2026-01-01T00:00:00Z'),
      to: Date.parse('2026-02-01T00:00:00Z'),
    });
    assert.throws(
      () => rangeOf({ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, now),
      /body\.range\.to/,
    );
    assert.throws(
      () => rangeOf({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, now),
      /731 days/,
    );
  });
  test("the week bucket's SQL starts on Monday, as datetimeValue reads it", () => {
    // (ts - (ts - 4 days) % 7 days) for Wednesday 2026-03-04 is Monday 2026-03-02.
    const ts = now;
    const week = ts - ((ts - 4 * 86_400_000) % (7 * 86_400_000));
    assert.equal(datetimeValue('week', week), '2026-03-02T00:00:00.000Z');
    assert.match(DATETIME.week, /345600000/);
    assert.equal(datetimeValue('month', '2026-03'), '2026-03-01T00:00:00.000Z');
  });
  test('canonicalJson sorts keys', () => {
    assert.equal(
      canonicalJson({ url: 'u', kind: 'url' }),
      canonicalJson({ kind: 'url', url: 'u' }),
    );
  });
});
