import { type Static, Type } from 'typebox';
import { ListSchema } from '../../http/pagination.js';
import { Enum } from '../../http/schema-helpers.js';

/**
 * `searchSiteContent` as GitBook 0.202 defines it: a query and which site-spaces to search,
 * given either as `scope` or in the deprecated top-level form (`mode`, `siteSpaceIds`,
 * `siteSpaceId`) that GitBook's renderer still sends. One flat object per form, so a refusal
 * names the field; the service checks the combinations (service.ts, scopeOf).
 */

export const MAX_QUERY = 512;

const SiteSpaceIds = Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100 });

export const SiteSearchScopeSchema = Type.Object(
  {
    mode: Enum(
      ['default', 'specific', 'all'],
      '`default`: the current site-space (`currentSiteSpace`), else the default one (Livery sites have one section); `specific`: `siteSpaceIds`; `all`: every site-space',
    ),
    currentSiteSpace: Type.Optional(Type.String({ maxLength: 64 })),
    restrictTo: Type.Optional(Enum(['currentSiteSpace', 'otherSiteSpaces'])),
    siteSpaceIds: Type.Optional(SiteSpaceIds),
  },
  { additionalProperties: false, description: 'Define the scope of the search.' },
);

export const SearchSiteBodySchema = Type.Object(
  {
    query: Type.String({
      maxLength: MAX_QUERY,
      description:
        'Words to find (all of them; the last one also as the start of a longer word), case and accents ignored',
    }),
    scope: Type.Optional(SiteSearchScopeSchema),
    mode: Type.Optional(
      Type.Unsafe<'specific' | 'current' | 'all'>({
        type: 'string',
        enum: ['specific', 'current', 'all'],
        description: 'Deprecated, use scope instead.',
        deprecated: true,
      }),
    ),
    siteSpaceIds: Type.Optional(SiteSpaceIds),
    siteSpaceId: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type SearchSiteBody = Static<typeof SearchSiteBodySchema>;

const Score = Type.Number({
  minimum: 0,
  description: 'Relevance score for a search result. Higher is better and the score is unbounded.',
});
const ResultType = Type.Union([Type.Literal('page'), Type.Literal('section')]);
const AppUrls = Type.Object({ app: Type.String({ format: 'uri' }) });

export const SearchSectionResultSchema = Type.Object({
  id: Type.String({ description: "The heading's anchor; the page's id for its opening text" }),
  title: Type.String({ description: "The heading's text; '' for the text before any heading" }),
  path: Type.String({ description: "The page's path and `#anchor`" }),
  score: Score,
  resultType: ResultType,
  body: Type.String({ description: 'Plain text of the section around the first match' }),
  urls: AppUrls,
});

export const SearchPageResultSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  path: Type.String(),
  score: Score,
  rank: Type.Integer({ minimum: 1 }),
  resultType: ResultType,
  sections: Type.Array(SearchSectionResultSchema),
  ancestors: Type.Array(Type.Object({ title: Type.String() })),
  urls: AppUrls,
});

export const SearchSpaceResultSchema = Type.Object({
  type: Type.Literal('space'),
  id: Type.String({ description: 'The id of the space' }),
  title: Type.String(),
  score: Score,
  pages: Type.Array(SearchPageResultSchema),
});

export const SearchResultsSchema = ListSchema(SearchSpaceResultSchema);

export type SearchSectionResult = Static<typeof SearchSectionResultSchema>;
export type SearchPageResult = Static<typeof SearchPageResultSchema>;
export type SearchSpaceResult = Static<typeof SearchSpaceResultSchema>;
export type SearchResults = Static<typeof SearchResultsSchema>;
