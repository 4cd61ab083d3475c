import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, PageQuery } from '../../http/pagination.js';
import { OrgParams, responses, SpaceParams } from '../../http/schemas.js';
import type { ContentSearchService } from './content-search.js';
import { MAX_QUERY, SearchPageResultSchema, SearchResultsSchema } from './schemas.js';

const ContentQuerySchema = Type.Object({
  query: Type.String({
    maxLength: MAX_QUERY,
    description:
      'Words to find (all of them; the last one also as the start of a longer word), case and accents ignored',
  }),
  ...PageQuery,
});

const HOW =
  'Every word of the query must match, case and accents ignored, the last one also as the start of a longer word; pages are ranked title match > heading or description match > text match, then by frequency, each with its best sections (anchor, heading, excerpt). `limit` counts pages (default 20). See docs/search.md.';

/**
 * `GET /v1/spaces/{spaceId}/search` (searchSpaceContent) and `GET /v1/orgs/{org}/search`
 * (searchOrganizationContent): the site search over a space's or an organization's content.
 */
export const contentSearchRoutes: FastifyPluginAsyncTypebox<{
  contentSearch: ContentSearchService;
}> = async (app, { contentSearch }) => {
  app.get(
    '/spaces/:spaceId/search',
    {
      schema: {
        operationId: 'searchSpaceContent',
        summary: 'Full-text search across all pages in a space',
        description: `Searches the titles, descriptions, headings and text of the pages of the space's current revision (its live content, published or not; hidden pages left out), one ranked list. ${HOW}`,
        tags: ['space-content'],
        params: SpaceParams,
        querystring: ContentQuerySchema,
        response: responses({ 200: ListSchema(SearchPageResultSchema) }, [400]),
      },
    },
    (request) => contentSearch.searchSpace(request.params.spaceId, request.query),
  );

  app.get(
    '/orgs/:organizationId/search',
    {
      schema: {
        operationId: 'searchOrganizationContent',
        summary: 'Search content in an organization',
        description: `Searches the current revision of every space of the organization (published or not; hidden pages left out), ranked across spaces; results are grouped by space in rank order, each page with its \`rank\` in the whole list. ${HOW}`,
        tags: ['organizations'],
        params: OrgParams,
        querystring: ContentQuerySchema,
        response: responses({ 200: SearchResultsSchema }, [400]),
      },
    },
    (request) => contentSearch.searchOrganization(request.params.organizationId, request.query),
  );
};
