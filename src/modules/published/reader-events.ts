import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { SiteInsightsEvent } from '../site-insights/schemas.js';

/**
 * What Livery's own published site reports of its readers (docs/insights.md, "Livery's published
 * site"): its script posts a few small facts, and the server makes GitBook's events of them, as
 * GitBook's renderer would, so both count the same in `aggregateSiteEvents`.
 */

/** At most this many events per report (site.js sends one or two). */
export const MAX_READER_EVENTS = 20;

const Text = (maxLength: number) => Type.String({ maxLength });

/** One reader event as site.js sends it. */
export const ReaderEventSchema = Type.Union([
  Type.Object(
    { type: Type.Literal('search_type_query'), query: Text(512) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('search_open_result'),
      query: Text(512),
      pageId: Text(256),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('link_click'),
      url: Type.String({ maxLength: 2048, pattern: '^https?://' }),
      position: Type.Union(
        ['announcement', 'header', 'footer', 'sidebar', 'content'].map((p) => Type.Literal(p)),
      ),
    },
    { additionalProperties: false },
  ),
]);

export type ReaderEvent =
  | { type: 'search_type_query'; query: string }
  | { type: 'search_open_result'; query: string; pageId: string }
  | { type: 'link_click'; url: string; position: string };

/** Where the reader is: the page (when any), the address the browser shows, where they came from. */
export interface ReaderContext {
  siteSpaceId: string;
  spaceId: string;
  pageId: string | null;
  url: string;
  referrer: string | null;
  /** The tracking cookie's id, else the tab's random id (sessionStorage): never stored as is. */
  visitorId: string;
  sessionId: string;
}

/** GitBook's event of type `type` with its own fields `own`, as the reader's browser would send it. */
export function readerEvent(
  request: FastifyRequest,
  context: ReaderContext,
  type: SiteInsightsEvent['type'],
  own: Record<string, unknown> = {},
): SiteInsightsEvent {
  const language = request.headers['accept-language']?.split(',')[0]?.trim().slice(0, 64);
  return {
    type,
    ...own,
    session: {
      visitorId: context.visitorId,
      sessionId: context.sessionId,
      cookies: {},
      userAgent: (request.headers['user-agent'] ?? '').slice(0, 1024),
      language: language || null,
      referrer: context.referrer,
    },
    location: {
      url: context.url,
      displayContext: 'site',
      siteSection: null,
      siteSpace: context.siteSpaceId,
      siteShareKey: null,
      space: context.spaceId,
      revision: null,
      page: context.pageId,
    },
  } as SiteInsightsEvent;
}

/** GitBook's event for one of site.js's reports. */
export function eventOfReport(
  request: FastifyRequest,
  context: ReaderContext,
  report: ReaderEvent,
): SiteInsightsEvent {
  switch (report.type) {
    case 'search_type_query':
      return readerEvent(request, context, report.type, { query: report.query });
    case 'search_open_result':
      return readerEvent(request, context, report.type, {
        query: report.query,
        result: { spaceId: context.spaceId, pageId: report.pageId },
      });
    case 'link_click':
      return readerEvent(request, context, report.type, {
        link: { target: { kind: 'url', url: report.url }, position: report.position },
      });
  }
}

/** A URL the browser reported, if it is one (http or https), else the page's own address. */
export function reportedUrl(reported: string | undefined, fallback: string): string {
  if (reported === undefined) return fallback;
  try {
    const url = new URL(reported);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : fallback;
  } catch {
    return fallback;
  }
}
