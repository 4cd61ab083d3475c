import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses, SiteParams } from '../../http/schemas.js';
import type { PublishingPreviews } from './publishing-preview.js';

const PreviewSchema = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      maxLength: 2048,
      description:
        'The site’s published address (or `target`) with a credential that opens it, for one hour, to whoever holds the URL',
    }),
  },
  { title: 'SitePublishingPreview' },
);

/** `GET /v1/orgs/{organizationId}/sites/{siteId}/publishing/preview` (docs/sites.md). */
export const publishingPreviewRoutes: FastifyPluginAsyncTypebox<{
  previews: PublishingPreviews;
}> = async (app, { previews }) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/preview',
    {
      schema: {
        operationId: 'getSitePublishingPreviewById',
        summary: "Generate a temporary preview URL for a site's published content",
        description:
          'A URL of the published site, valid for one hour, that shows the site to whoever opens it whether it is published or not and whatever its visibility, as a member previewing with an API token sees it (not indexed): docs/sites.md, "Publishing previews".',
        tags: ['site-preview'],
        params: SiteParams,
        querystring: Type.Object({
          siteSpace: Type.Optional(
            Type.String({
              maxLength: 128,
              description: 'The site-space to open (its address); the default one when absent',
            }),
          ),
          claims: Type.Optional(
            Type.String({
              maxLength: 2048,
              description:
                'Accepted and unused: Livery’s published site shows no content adapted to visitor claims',
            }),
          ),
          draft: Type.Optional(
            Type.Boolean({
              default: true,
              description:
                'Accepted; changes nothing: the published site never shows draft site-spaces or sections, and every other change is live once saved',
            }),
          ),
          target: Type.Optional(
            Type.String({
              maxLength: 2048,
              description:
                'An absolute address of the site’s published pages to open instead (wins over `siteSpace`)',
            }),
          ),
        }),
        response: responses({ 200: PreviewSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { siteSpace, target } = request.query;
      const url = await previews.url(organizationId, siteId, { siteSpace, target });
      // A credential: never kept by a cache.
      reply.header('cache-control', 'no-store');
      return { url };
    },
  );
};
