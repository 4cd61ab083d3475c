import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery } from '../../http/pagination.js';
import { responses, SiteParams } from '../../http/schemas.js';
import { setRendererCache, siteTag } from '../revalidation/cache-headers.js';
import { SearchResultsSchema, SearchSiteBodySchema } from './schemas.js';
import type { SearchService } from './service.js';

/** `POST /v1/orgs/{organizationId}/sites/{siteId}/search` (searchSiteContent). */
export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (
  app,
  { search },
) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/search',
    {
      schema: {
        operationId: 'searchSiteContent',
        summary: 'Full-text search across all content in a site',
        description:
          "Searches the titles, descriptions, headings and text of the pages of a published site's site-spaces (their current revisions; hidden pages left out). Every word of the query must match, case and accents ignored, the last one also as the start of a longer word. Pages are ranked title match > heading or description match > text match, then by frequency; each comes with its best sections (anchor, heading, excerpt). `limit` counts pages (default 20); results are grouped by space in rank order. See docs/search.md.",
        tags: ['sites'],
        params: SiteParams,
        querystring: Type.Object(PageQuery),
        body: SearchSiteBodySchema,
        response: responses({ 200: SearchResultsSchema }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const found = await search.searchSite(organizationId, siteId, request.body, request.query);
      setRendererCache(reply, { tags: [siteTag(siteId)] });
      return found;
    },
  );
};
