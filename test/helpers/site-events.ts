import assert from 'node:assert/strict';
import type { TestContext } from './app.js';

/** A valid GitBook 0.202 SiteInsightsEvent of `type` with its own fields `own`. */
export function siteEvent(
  type: string,
  own: Record<string, unknown> = {},
  location: Record<string, unknown> = {},
  session: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type,
    session: {
      visitorId: 'visitor-1',
      sessionId: 'session-1',
      cookies: {},
      userAgent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      language: 'en',
      referrer: null,
      ...session,
    },
    location: {
      url: 'https://docs.example.com/guide/intro?utm_source=newsletter&share=secret',
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space: null,
      revision: null,
      page: null,
      ...location,
    },
    ...own,
  };
}

/** The site's events (of `type` when given) over the last 24 hours, read as the owner. */
export async function eventsCount(t: TestContext, siteBase: string, type?: string) {
  const res = await t.request({
    method: 'POST',
    url: `${siteBase}/insights/events/aggregate`,
    payload: {
      range: 'last24Hours',
      select: [{ column: 'eventsCount' }],
      ...(type === undefined ? {} : { where: [{ column: 'eventType', values: [type] }] }),
    },
  });
  assert.equal(res.statusCode, 200, res.body);
  const { columns } = JSON.parse(res.body) as { columns: { values: number[] }[] };
  return columns[0]?.values[0] ?? 0;
}
