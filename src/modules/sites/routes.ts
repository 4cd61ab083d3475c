import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { optionalBody } from '../../http/optional-body.js';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, OrgParams, responses, SiteParams } from '../../http/schemas.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import { CreateSiteSchema, ListSitesQuery, SiteSchema, UpdateSiteSchema } from './schemas.js';
import type { Caller, SitesService } from './service.js';

export const sitesRoutes: FastifyPluginAsyncTypebox<{ sites: SitesService }> = async (
  app,
  { sites },
) => {
  app.post(
    '/orgs/:organizationId/sites',
    {
      preValidation: optionalBody,
      config: { idempotent: true },
      schema: {
        operationId: 'createSite',
        summary: 'Create a site',
        tags: ['sites'],
        params: OrgParams,
        body: CreateSiteSchema,
        response: responses({ 201: created(SiteSchema, 'Site created') }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      const site = await sites.create(
        request.params.organizationId,
        request.body,
        callerOf(request),
      );
      return reply.code(201).header('location', site.urls.location).send(site);
    },
  );

  app.get(
    '/orgs/:organizationId/sites',
    {
      schema: {
        operationId: 'listSites',
        summary: 'List all sites',
        tags: ['sites'],
        params: OrgParams,
        querystring: Type.Object({ ...PageQuery, ...ListSitesQuery.properties }),
        response: responses({ 200: ListSchema(SiteSchema) }, [400]),
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      return sites.list(
        request.params.organizationId,
        memberRoleOf(request),
        filters,
        pageRequest({ page, limit }),
      );
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        operationId: 'getSiteById',
        summary: 'Get a site by its ID',
        tags: ['sites'],
        params: SiteParams,
        response: responses({ 200: SiteSchema }),
      },
    },
    async (request) =>
      sites.get(request.params.organizationId, request.params.siteId, memberRoleOf(request)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        operationId: 'updateSiteById',
        summary: 'Update a site',
        description:
          'Visibility changes go through this operation. All or nothing: an unknown defaultSiteSpace (400) or a basename used by another site (409) changes nothing.',
        tags: ['sites'],
        params: SiteParams,
        body: UpdateSiteSchema,
        response: responses({ 200: SiteSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return sites.update(organizationId, siteId, request.body, callerOf(request));
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        operationId: 'deleteSiteById',
        summary: 'Delete a site',
        description:
          'Deletes the site with its site-spaces, customization, overrides, share links, visitor-authentication settings and history. The spaces themselves remain.',
        tags: ['sites'],
        params: SiteParams,
        response: responses({
          204: NoContent('Site did not exist'),
          205: NoContent('Site has been deleted'),
        }),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const existed = await sites.delete(organizationId, siteId, actorOf(request));
      return reply.code(existed ? 205 : 204).send();
    },
  );

  for (const [operationId, summary, published] of [
    ['publishSite', 'Publish a site', true],
    ['unpublishSite', 'Unpublish a site', false],
  ] as const) {
    app.post(
      `/orgs/:organizationId/sites/:siteId/${published ? 'publish' : 'unpublish'}`,
      {
        config: { idempotent: true },
        schema: {
          operationId,
          summary,
          description: published
            ? 'Idempotent. The site must have a site-space (else 400). While published, urls.published is PUBLIC_URL + basename (or id).'
            : 'Idempotent. urls.published disappears.',
          tags: ['sites'],
          params: SiteParams,
          response: responses({ 200: SiteSchema }, [400]),
        },
      },
      async (request) => {
        const { organizationId, siteId } = request.params;
        return sites.setPublished(organizationId, siteId, published, callerOf(request));
      },
    );
  }
};

/** The caller of a site operation: who they are and their role in the site's organization. */
function callerOf(request: FastifyRequest): Caller {
  return { ...actorOf(request), role: memberRoleOf(request) };
}
