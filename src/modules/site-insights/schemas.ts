import { type Static, type TObject, type TProperties, Type } from 'typebox';
import { Enum, OrNull } from '../../http/schema-helpers.js';
import { ContentRefSchema } from '../../settings/content-ref.js';
import { Leaf } from '../../settings/schema-kit.js';

/**
 * GitBook 0.202's site-insights shapes (docs/insights.md, "Site events"): the events
 * `trackEventsInSiteById` takes, one object per `type` (the discriminator lets the validator
 * check only the branch `type` names, so a 400 names the real field), and the query
 * `aggregateSiteEvents` takes. Bounds GitBook leaves open are Livery's, and documented.
 */

/** Most events one request may carry (GitBook sets none; its renderer sends a few at a time). */
export const MAX_EVENTS = 100;

const Id = (description: string) => Type.String({ maxLength: 256, description });
const NullableId = (description: string) => OrNull(Id(description));
const Url = (description: string) => Type.String({ format: 'uri', maxLength: 2048, description });

const SessionSchema = Leaf(
  {
    visitorId: Id("GitBook's unique identifier of the visitor (stored hashed)"),
    sessionId: Id("GitBook's unique identifier of the visitor's session (stored hashed)"),
    cookies: Type.Record(Type.String({ maxLength: 256 }), Type.String({ maxLength: 4096 }), {
      maxProperties: 64,
      description: "The visitor's cookies: accepted, never stored",
    }),
    ip: Type.Optional(Type.String({ maxLength: 64, description: 'Accepted, never stored' })),
    userAgent: Type.String({
      maxLength: 1024,
      description: 'Only its browser, OS, device and bot families are stored',
    }),
    language: OrNull(Type.String({ maxLength: 64, description: 'Language of the visitor' })),
    referrer: Type.Unsafe<string | null>({
      description: 'Referrer of the session (stored without its query string)',
      anyOf: [
        { type: 'null' },
        { type: 'string', enum: [''] },
        { type: 'string', format: 'uri', maxLength: 2048 },
      ],
    }),
    visitorAuthToken: Type.Optional(
      OrNull(Type.String({ maxLength: 8192, deprecated: true, description: 'Never stored' })),
    ),
    visitorAuthClaims: Type.Optional(
      Type.Record(Type.String({ maxLength: 256 }), Type.Unknown(), {
        maxProperties: 64,
        description: 'Only whether there are any is stored (visitorAuthenticated)',
      }),
    ),
  },
  'Analytics info on the visitor session',
);

const LocationSchema = Leaf(
  {
    url: Url('URL of the location (stored without its query string; utm_* parameters are kept)'),
    displayContext: Type.Optional(Enum(['site', 'server', 'embed', 'mcp'] as const)),
    siteSection: NullableId('ID of the concerned site section'),
    siteSpace: NullableId('ID of the concerned site space'),
    siteShareKey: NullableId('ID of the concerned site share key'),
    space: NullableId('ID of the concerned space'),
    revision: NullableId('ID of the concerned revision'),
    page: NullableId('ID of the concerned page'),
  },
  'Location of the event',
);

const Rating = Enum(['bad', 'ok', 'good'] as const);
const Query = (description: string) => Type.String({ maxLength: 512, description });
const Operation = Leaf({
  path: Type.String({ maxLength: 2048 }),
  method: Type.String({ maxLength: 16 }),
});
const Ad = Leaf({
  domain: Type.String({ maxLength: 256 }),
  zoneId: Type.String({ maxLength: 256 }),
  placement: Enum(['aside'] as const),
});

/** One event type: the base fields of every event and its own. */
const event = <K extends string, P extends TProperties>(type: K, own: P) =>
  Leaf({
    type: Type.Literal(type),
    session: SessionSchema,
    location: LocationSchema,
    timestamp: Type.Optional(
      Type.String({ format: 'date-time', description: 'Within 5 minutes of now; now when absent' }),
    ),
    ...own,
  });

const EVENTS = [
  event('page_view', {}),
  event('page_markdown_request', { markdownSource: Type.Optional(Enum(['page-action'] as const)) }),
  event('search_open', {}),
  event('search_type_query', { query: Query('Query of the search') }),
  event('search_open_result', {
    query: Query('Query of the search'),
    result: Type.Union([
      Leaf({ spaceId: Id('ID of the space'), pageId: Id('ID of the page') }),
      Leaf({ recordId: Id('ID of the record') }),
    ]),
  }),
  event('page_post_feedback', { feedback: Leaf({ rating: Rating }) }),
  event('page_post_feedback_comment', {
    feedback: Leaf({ rating: Rating, comment: Type.String({ minLength: 1, maxLength: 512 }) }),
  }),
  event('agent_feedback', {}),
  event('ask_question', {
    query: Query('Question being asked'),
    goal: Type.Optional(Type.String({ maxLength: 2048, description: 'Accepted, not stored' })),
  }),
  event('ask_view', {}),
  event('ask_rate_response', {
    query: Query('Question asked'),
    rating: Type.Union([Type.Literal(1), Type.Literal(-1)]),
    responseId: Id('ID of the AI response'),
  }),
  event('link_click', {
    link: Leaf({
      target: ContentRefSchema,
      position: Enum(['announcement', 'header', 'footer', 'sidebar', 'content'] as const),
    }),
  }),
  event('api_client_open', { operation: Operation }),
  event('api_client_request', { operation: Operation }),
  event('trademark_click', {
    placement: Enum(['sidebar', 'ad', 'footer', 'pdf', 'embed'] as const),
  }),
  event('ad_click', { ad: Ad }),
  event('ad_display', { ad: Ad }),
  event('llms_request', { llmsVariant: Enum(['standard', 'full'] as const) }),
  event('mcp_request', {}),
  event('rss_request', {}),
] as const;

type EventSchemas = (typeof EVENTS)[number];
export type SiteInsightsEvent = EventSchemas extends infer E
  ? E extends TObject
    ? Static<E>
    : never
  : never;
export type SiteInsightsEventType = SiteInsightsEvent['type'];
export const EVENT_TYPES = EVENTS.map((e) => e.properties.type.const) as SiteInsightsEventType[];

export const SiteInsightsEventSchema = Type.Unsafe<SiteInsightsEvent>({
  type: 'object',
  title: 'SiteInsightsEvent',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: EVENTS.map((e) => ({ ...e })),
});

export const TrackEventsSchema = Leaf({
  events: Type.Array(SiteInsightsEventSchema, {
    maxItems: MAX_EVENTS,
    description: `At most ${MAX_EVENTS} events per request (docs/insights.md)`,
  }),
});
