import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { responses, SiteParams } from '../../http/schemas.js';
import { OverridePatchSchema, SettingsInputSchema } from '../../settings/settings-schema.js';
import type { PublishedSiteService } from './service.js';

/** `POST /v1/orgs/{organizationId}/sites/{siteId}/preview` (Livery extension). */
export const previewRoutes: FastifyPluginAsyncTypebox<{ published: PublishedSiteService }> = async (
  app,
  { published },
) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/preview',
    {
      schema: {
        operationId: 'previewSitePage',
        summary: 'Render a page of the published site with draft customization settings',
        description:
          "Livery extension. Renders one page of a site-space (default: the site's default) as the published site would, with `customization` merged into the site-space's override the way overrideSiteSpaceCustomizationById merges it (and, with `site`, a draft of the site's settings in place of the stored ones), and saves nothing. Works whether or not the site is published. The theme is inline; links and assets are absolute addresses under PUBLIC_URL. See docs/published-site.md.",
        tags: ['site-customization', 'livery'],
        params: SiteParams,
        body: Type.Object(
          {
            siteSpaceId: Type.Optional(
              Type.String({ description: 'The site-space (variant); default: the default one' }),
            ),
            pagePath: Type.Optional(
              Type.String({
                maxLength: 2048,
                description: "The page's `path` (unencoded); default: the first page",
              }),
            ),
            customization: Type.Optional(OverridePatchSchema),
            site: Type.Optional(
              Type.Unsafe<Static<typeof SettingsInputSchema>>({
                ...SettingsInputSchema,
                description:
                  "A draft of the site's settings (an updateSiteCustomizationById body) to render with instead of the stored ones; `customization` still applies on top",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: responses(
          {
            200: Type.Unsafe<string>({
              description: 'The page, as HTML',
              content: { 'text/html': { schema: { type: 'string' } } },
            }),
          },
          [400, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const html = await published.preview(organizationId, siteId, request.body, request.log);
      return reply
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex')
        .type('text/html; charset=utf-8')
        .send(html);
    },
  );
};
