import { type Static, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { SOURCE_MAX_LENGTH, SOURCE_PATTERN } from './source-path.js';

/** GitBook 0.202's site-redirects shapes (docs/sites.md, "Redirects"). */

export const SourcePathSchema = Type.String({
  maxLength: SOURCE_MAX_LENGTH,
  pattern: SOURCE_PATTERN,
  description:
    'The source path to redirect from, relative to the site: `/old/page`, or a prefix `/old/*` (everything below `/old/`, and `/old`) or `/old*` (everything starting with `/old`).',
  title: 'SiteRedirectSourcePath',
});

const SiteSection = Type.Object(
  { kind: Type.Literal('site-section'), siteSectionId: Type.String({ maxLength: 256 }) },
  { additionalProperties: false, title: 'SiteRedirectDestinationSiteSection' },
);
const SiteSpace = Type.Object(
  { kind: Type.Literal('site-space'), siteSpaceId: Type.String({ maxLength: 256 }) },
  { additionalProperties: false, title: 'SiteRedirectDestinationSiteSpace' },
);
const SitePage = Type.Object(
  {
    kind: Type.Literal('site-page'),
    siteSpaceId: Type.String({ maxLength: 256 }),
    pageId: Type.String({ maxLength: 256 }),
  },
  { additionalProperties: false, title: 'SiteRedirectDestinationPage' },
);
const External = Type.Object(
  {
    kind: Type.Literal('external'),
    url: Type.String({
      format: 'uri',
      maxLength: 2048,
      description: 'An absolute URL whose scheme the allow-list of links accepts (http, https…)',
    }),
  },
  { additionalProperties: false, title: 'SiteRedirectDestinationExternal' },
);
const InputPath = Type.Object(
  {
    kind: Type.Literal('path'),
    spaceId: Type.String({ maxLength: 256 }),
    path: Type.String({ maxLength: 2048 }),
  },
  {
    additionalProperties: false,
    title: 'SiteRedirectInputDestinationPath',
    description: 'A page of a space the site shows, by its path: stored as a site-page destination',
  },
);

export const DestinationSchema = Type.Union([SiteSection, SiteSpace, SitePage, External], {
  title: 'SiteRedirectDestination',
});
export type Destination = Static<typeof DestinationSchema>;

export const InputDestinationSchema = Type.Union(
  [SiteSection, SiteSpace, SitePage, External, InputPath],
  {
    title: 'SiteRedirectInputDestination',
  },
);
export type InputDestination = Static<typeof InputDestinationSchema>;

export const SiteRedirectSchema = Type.Object(
  {
    object: Type.Literal('site-redirect'),
    id: Type.String(),
    source: Type.String({ description: 'The source path (canonical percent-encoding)' }),
    draft: Type.Boolean(),
    captureWildcard: Type.Boolean(),
    permanent: Type.Boolean({
      description: 'Served as 308 to public live traffic, as 307 otherwise (and when false)',
    }),
    destination: DestinationSchema,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { title: 'SiteRedirect' },
);
export type SiteRedirect = Static<typeof SiteRedirectSchema>;

export const CreateSiteRedirectSchema = Type.Object(
  {
    source: SourcePathSchema,
    captureWildcard: Type.Optional(Type.Boolean()),
    draft: Type.Optional(Type.Boolean()),
    permanent: Type.Optional(Type.Boolean()),
    destination: InputDestinationSchema,
  },
  { additionalProperties: false, title: 'CreateSiteRedirect' },
);
export type CreateSiteRedirect = Static<typeof CreateSiteRedirectSchema>;

export const UpdateSiteRedirectSchema = Type.Object(
  {
    source: Type.Optional(SourcePathSchema),
    captureWildcard: Type.Optional(Type.Boolean()),
    draft: Type.Optional(Type.Boolean()),
    permanent: Type.Optional(Type.Boolean()),
    destination: Type.Optional(DestinationSchema),
  },
  { additionalProperties: false, title: 'UpdateSiteRedirect' },
);
export type UpdateSiteRedirect = Static<typeof UpdateSiteRedirectSchema>;

const PublishItem = Type.Object(
  { source: SourcePathSchema, intent: Type.Literal('publish') },
  { additionalProperties: false },
);
const UpsertItem = Type.Object(
  {
    source: SourcePathSchema,
    intent: Type.Optional(Enum(['live', 'draft'])),
    captureWildcard: Type.Optional(Type.Boolean()),
    permanent: Type.Optional(Type.Boolean()),
    destination: Type.Union([InputDestinationSchema, Type.Null()], {
      description: 'null deletes the rule of this source and intent',
    }),
  },
  { additionalProperties: false },
);
export const BulkItemSchema = Type.Union([PublishItem, UpsertItem]);
export type BulkItem = Static<typeof BulkItemSchema>;

export const BulkUpsertSchema = Type.Object(
  { redirects: Type.Array(BulkItemSchema, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false, title: 'BulkUpsertSiteRedirects' },
);

const withId = <S extends string>(status: S) =>
  Type.Object({
    status: Type.Literal(status),
    source: Type.String(),
    draft: Type.Boolean(),
    id: Type.String(),
  });

export const BulkResultSchema = Type.Object({
  results: Type.Array(
    Type.Union([
      withId('created'),
      withId('updated'),
      Type.Object({
        status: Type.Literal('deleted'),
        source: Type.String(),
        draft: Type.Boolean(),
      }),
      withId('published'),
    ]),
  ),
});
export type BulkResult = Static<typeof BulkResultSchema>['results'][number];

export const ORDER_BY = ['createdAt', 'updatedAt', 'source'] as const;

export const ListRedirectsQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 512, description: 'Part of the source path' })),
  draft: Type.Optional(
    Type.Boolean({ description: 'Draft rules (true) or live ones (false, the default)' }),
  ),
  orderBy: Type.Optional(Enum(ORDER_BY)),
});
