import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { memberRoleOf } from '../../http/auth.js';
import { optionalBody } from '../../http/optional-body.js';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, OrgParams, responses, SiteParams } from '../../http/schemas.js';
import {
  AddSpaceToSiteSchema,
  CreateSiteSchema,
  ListSitesQuery,
  SiteSchema,
  SiteSpaceSchema,
} from './schemas.js';
import type { SitesService } from './service.js';

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
      const site = await sites.create(request.params.organizationId, request.body);
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
      return sites.list(request.params.organizationId, filters, pageRequest({ page, limit }));
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
    async (request) => sites.get(request.params.organizationId, request.params.siteId),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'addSpaceToSite',
        summary: 'Add a space to a site',
        description:
          'The space must belong to the same organization. The first site-space of a site is its default.',
        tags: ['site-spaces'],
        params: SiteParams,
        body: AddSpaceToSiteSchema,
        response: responses(
          { 201: created(SiteSpaceSchema, 'Space added to the site') },
          [400, 409, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const siteSpace = await sites.addSpace(
        organizationId,
        memberRoleOf(request),
        siteId,
        request.body.spaceId,
      );
      return reply.code(201).header('location', siteSpace.urls.location).send(siteSpace);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      schema: {
        operationId: 'listSiteSpaces',
        summary: 'List all the site spaces',
        tags: ['site-spaces'],
        params: SiteParams,
        querystring: Type.Object({
          ...PageQuery,
          default: Type.Optional(
            Type.Boolean({
              description: 'true: only the default site-space; false: only the others',
            }),
          ),
          shareKey: Type.Optional(
            Type.String({ description: 'Accepted for compatibility; Livery does not need it' }),
          ),
        }),
        response: responses({ 200: ListSchema(SiteSpaceSchema) }, [400]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return sites.listSiteSpaces(
        organizationId,
        memberRoleOf(request),
        siteId,
        request.query.default,
        pageRequest(request.query),
      );
    },
  );
};
