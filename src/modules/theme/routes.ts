import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ifNoneMatchHits } from '../../http/conditional.js';
import { NoContent, responses, SiteSpaceParams } from '../../http/schemas.js';
import { renderableSettings, warnLeftOut } from '../../settings/renderable.js';
import type { Settings } from '../../settings/settings-schema.js';
import type { CustomizationService } from '../customization/service.js';
import { themeCss } from './css.js';

/** The CSS follows the settings: its tag is theirs, marked so the two never compare equal. */
const cssTag = (settingsEtag: string) => `"css-${settingsEtag.replace(/"/g, '')}"`;

/** `GET …/customization/theme.css` (Livery extension): the theme of a variant's settings. */
export const themeRoutes: FastifyPluginAsyncTypebox<{
  customization: CustomizationService;
  /** Absolute address of the font files (PUBLIC_URL + `@livery/fonts/`). */
  fontsBase: string;
}> = async (app, { customization, fontsBase }) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization/theme.css',
    {
      schema: {
        operationId: 'getSiteSpaceThemeCss',
        summary: "The CSS of a site space's effective customization",
        description:
          'Livery extension: custom properties for the 12-step scales of the primary, tint, info, success, warning and danger colors in both themes (`--primary-1` … `--primary-12`, `--primary-contrast`; light on `:root` and `[data-theme="light"]`, dark on `[data-theme="dark"]`), plus corners, fonts (`--font-sans`, `--font-heading`, `--font-mono`, with `@font-face` rules: files of default fonts served by Livery under PUBLIC_URL, the own files of a font definition) and link style. Answers 304 to a matching If-None-Match. See docs/published-site.md.',
        tags: ['site-customization', 'livery'],
        params: SiteSpaceParams,
        headers: Type.Object({
          'if-none-match': Type.Optional(
            Type.String({ description: 'Answer 304 if the current ETag matches' }),
          ),
        }),
        response: responses(
          {
            200: Type.Unsafe<string>({
              description: 'The theme, as CSS',
              content: { 'text/css': { schema: { type: 'string' } } },
            }),
            304: NoContent('Not modified'),
          },
          [400],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const settings = await customization.getVariant(organizationId, siteId, siteSpaceId);
      const etag = cssTag(settings.etag);
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const stored = JSON.parse(settings.json) as Settings;
      const css = themeCss(renderableSettings(stored, warnLeftOut(request.log)), fontsBase);
      return reply.type('text/css; charset=utf-8').send(css);
    },
  );
};
