import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { sendJsonText } from '../../http/json-text.js';
import { responses, SiteParams } from '../../http/schemas.js';
import { SettingsSchema } from '../../settings/settings-schema.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { SiteRedirectSchema } from '../redirects/schemas.js';
import { setRendererCache, siteTag, spaceTag } from '../revalidation/cache-headers.js';
import { SiteSchema } from '../sites/schemas.js';
import { SiteStructureSchema } from '../sites/structure/schemas.js';
import type { Reader, RendererReadsService } from './service.js';

const ShareKeyQuery = Type.Object({
  shareKey: Type.Optional(
    Type.String({
      maxLength: 256,
      description: 'Accepted for compatibility: the caller’s token decides what it may read',
    }),
  ),
});

const PublishedContentSiteSchema = Type.Object(
  {
    object: Type.Literal('published-content-site'),
    site: SiteSchema,
    structure: SiteStructureSchema,
    customizations: Type.Object({
      site: SettingsSchema,
      siteSpaces: Type.Record(Type.String(), SettingsSchema, {
        description: 'The effective settings of each site-space, by its id',
      }),
    }),
    scripts: Type.Array(Type.Object({}), { description: 'Livery runs no integration scripts' }),
  },
  { title: 'PublishedContentSite' },
);

const SOURCE = Type.String({
  maxLength: 512,
  pattern: '^/',
  description: 'The source path of the redirect (`/old/page`)',
});

const MetaLinksSchema = Type.Object(
  {
    canonical: Type.Optional(Type.Object({})),
    alternates: Type.Array(
      Type.Object({ kind: Type.Literal('page'), page: Type.String(), space: Type.String() }),
    ),
  },
  { title: 'RevisionPageMetaLinks' },
);

const readerOf = (request: FastifyRequest): Reader =>
  request.siteToken === null
    ? { role: memberRoleOf(request) }
    : { siteToken: { site: request.siteToken.site } };

/** The reads GitBook's renderer makes besides content (docs/renderer.md). */
export const rendererRoutes: FastifyPluginAsyncTypebox<{ reads: RendererReadsService }> = async (
  app,
  { reads },
) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/published',
    {
      config: { keptAnswer: true },
      schema: {
        operationId: 'getPublishedContentSite',
        summary: 'Get the full published profile of a site including structure and customization',
        description:
          'The site, its structure (its sections, section groups and external links when it has sections, else its site-spaces; drafts left out) and the effective customization of the site and of every site-space shown: what a renderer needs (docs/renderer.md).',
        tags: ['sites'],
        params: SiteParams,
        querystring: ShareKeyQuery,
        response: responses({ 200: PublishedContentSiteSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const view = await reads.publishedView(organizationId, siteId, readerOf(request));
      setRendererCache(reply, { tags: [siteTag(siteId)] });
      return sendJsonText(reply, view);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/redirect',
    {
      schema: {
        operationId: 'getSiteRedirectBySource',
        summary: 'Resolve a site redirect rule by its source path',
        description:
          "The site's live redirect rules first (an exact source, else the longest prefix), then the redirects of its variants' `.gitbook.yaml` (those only when no page is at the source path); 404 otherwise.",
        tags: ['site-redirects'],
        params: SiteParams,
        querystring: Type.Object({
          source: SOURCE,
          shareKey: ShareKeyQuery.properties.shareKey,
        }),
        response: responses(
          {
            200: Type.Object({
              redirect: SiteRedirectSchema,
              target: Type.String({ description: 'URL of the destination of the redirect' }),
            }),
          },
          [400],
        ),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return reads.redirect(organizationId, siteId, request.query.source);
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId/meta-links',
    {
      schema: {
        operationId: 'listRevisionPageMetaLinks',
        summary: 'List all meta links for a page in a revision',
        description:
          'No canonical link (Livery pages have none); as alternates, the same page path in the other site-spaces of the site a site token reads.',
        tags: ['space-content'],
        params: Type.Object({
          spaceId: Type.String(),
          revisionId: Type.String(),
          pageId: Type.String(),
        }),
        response: responses({ 200: MetaLinksSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId, pageId } = request.params;
      const site = request.siteToken?.site;
      const links = await reads.metaLinks(spaceId, { kind: 'revision', revisionId }, pageId, site);
      // Alternates follow the other variants' current content: tagged, not immutable.
      setRendererCache(reply, {
        tags: [spaceTag(spaceId), ...(site === undefined ? [] : [siteTag(site)])],
      });
      return links;
    },
  );

  app.get(
    '/spaces/:spaceId/content/page/:pageId/meta-links',
    {
      schema: {
        operationId: 'listSpacePageMetaLinks',
        summary: "List all meta links for a page in the space's current revision",
        description:
          "listRevisionPageMetaLinks of the space's current revision: no canonical link; as alternates, the same page path in the other site-spaces of the site a site token reads (none for a member's token).",
        tags: ['space-content'],
        params: Type.Object({ spaceId: Type.String(), pageId: Type.String() }),
        response: responses({ 200: MetaLinksSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const site = request.siteToken?.site;
      const links = await reads.metaLinks(spaceId, { kind: 'space' }, pageId, site);
      setRendererCache(reply, {
        tags: [spaceTag(spaceId), ...(site === undefined ? [] : [siteTag(site)])],
      });
      return links;
    },
  );
};
