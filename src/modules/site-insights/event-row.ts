import { createHash } from 'node:crypto';
import type { SiteInsightEventRow } from '../../db/schema.js';
import { canonicalJson } from './columns.js';
import type { SiteInsightsEvent } from './schemas.js';
import { userAgentFamilies } from './user-agent.js';

/**
 * What Livery stores of one event (docs/insights.md, "What is stored"), a pure function of the
 * event as GitBook's schema carries it:
 *
 * - the visitor and session ids as a hash salted with the site's id: distinct visitors and
 *   sessions can be counted, a site's hash says nothing about another site's, and no id a
 *   browser holds can be found in the table;
 * - URLs (location and referrer) without their query string and fragment, which can carry share
 *   keys, visitor tokens or search terms; `utm_*` parameters are kept as their own columns;
 * - the user agent as families (user-agent.ts), the language as sent;
 * - of the visitor's claims only whether there are any; never the IP address, cookies or token.
 */
export function eventRow(
  siteId: string,
  event: SiteInsightsEvent,
  ts: number,
): SiteInsightEventRow {
  const { session, location } = event;
  const url = parsed(location.url);
  const referrer = session.referrer ? parsed(session.referrer) : undefined;
  const families = userAgentFamilies(session.userAgent);
  const claims = session.visitorAuthClaims;
  const row: SiteInsightEventRow = {
    site_id: siteId,
    ts,
    at: new Date(ts).toISOString(),
    type: event.type,
    display_context: location.displayContext ?? 'site',
    visitor: hashed(siteId, session.visitorId),
    session: hashed(siteId, session.sessionId),
    url: url === undefined ? null : withoutQuery(url),
    url_path: url?.pathname ?? null,
    site_section: location.siteSection,
    site_space: location.siteSpace,
    share_key: location.siteShareKey,
    space: location.space,
    revision: location.revision,
    page: location.page,
    referrer: referrer === undefined ? null : withoutQuery(referrer),
    referrer_domain: referrer?.hostname ?? null,
    utm_source: utm(url, 'source'),
    utm_medium: utm(url, 'medium'),
    utm_campaign: utm(url, 'campaign'),
    utm_term: utm(url, 'term'),
    utm_content: utm(url, 'content'),
    language: session.language ?? null,
    browser: families.browser,
    os: families.os,
    device: families.device,
    bot: families.bot,
    search_query: null,
    search_record: null,
    feedback_rating: null,
    feedback_comment: null,
    ask_rating: null,
    link_kind: null,
    link_value: null,
    link_domain: null,
    link_position: null,
    api_path: null,
    api_method: null,
    llms_variant: null,
    markdown_source: null,
    ad_domain: null,
    ad_placement: null,
    trademark_placement: null,
    authenticated: claims !== undefined && Object.keys(claims).length > 0 ? 1 : 0,
  };
  return { ...row, ...ownFields(event) };
}

/** The columns of the event's own fields, by type. */
function ownFields(event: SiteInsightsEvent): Partial<SiteInsightEventRow> {
  switch (event.type) {
    case 'page_markdown_request':
      return { markdown_source: event.markdownSource ?? null };
    case 'search_type_query':
    case 'ask_question':
      return { search_query: event.query };
    case 'search_open_result':
      return {
        search_query: event.query,
        search_record: 'recordId' in event.result ? event.result.recordId : null,
      };
    case 'page_post_feedback':
      return { feedback_rating: event.feedback.rating };
    case 'page_post_feedback_comment':
      return { feedback_rating: event.feedback.rating, feedback_comment: event.feedback.comment };
    case 'ask_rate_response':
      return { search_query: event.query, ask_rating: String(event.rating) };
    case 'link_click': {
      const { target, position } = event.link;
      const url = target.kind === 'url' ? parsed(target.url) : undefined;
      return {
        link_kind: target.kind,
        link_value: canonicalJson(target),
        link_domain: url?.hostname || null,
        link_position: position,
      };
    }
    case 'api_client_open':
    case 'api_client_request':
      return { api_path: event.operation.path, api_method: event.operation.method.toLowerCase() };
    case 'trademark_click':
      return { trademark_placement: event.placement };
    case 'ad_click':
    case 'ad_display':
      return { ad_domain: event.ad.domain, ad_placement: event.ad.placement };
    case 'llms_request':
      return { llms_variant: event.llmsVariant };
    default:
      return {};
  }
}

function hashed(siteId: string, id: string): string {
  return createHash('sha256')
    .update(siteId)
    .update('\u0000')
    .update(id)
    .digest('base64url')
    .slice(0, 22);
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

const withoutQuery = (url: URL) =>
  url.protocol === 'http:' || url.protocol === 'https:'
    ? `${url.origin}${url.pathname}`
    : url.protocol;

function utm(url: URL | undefined, name: string): string | null {
  const value = url?.searchParams.get(`utm_${name}`);
  return value ? value.slice(0, 256) : null;
}
