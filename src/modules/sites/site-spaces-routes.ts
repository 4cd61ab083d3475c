import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, responses, SiteParams, SiteSpaceParams } from '../../http/schemas.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { AddSpaceToSiteSchema, SiteSpaceSchema, UpdateSiteSpaceSchema } from './schemas.js';
import type { SiteSpacesService } from './site-spaces-service.js';

export const siteSpacesRoutes: FastifyPluginAsyncTypebox<{
  siteSpaces: SiteSpacesService;
}> = async (app, { siteSpaces }) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/site-spaces',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'addSpaceToSite',
        summary: 'Add a space to a site',
        description:
          "The space must belong to the same organization; spaceId null creates a new space for the site-space. title is the site-space's own. The first site-space of a site is its default. draft (false), pageId (null), sectionId and template accept only what Livery is.",
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
      const siteSpace = await siteSpaces.add(
        organizationId,
        memberRoleOf(request),
        siteId,
        request.body,
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
      return siteSpaces.list(
        organizationId,
        memberRoleOf(request),
        siteId,
        request.query.default,
        pageRequest(request.query, 'integer'), // in their order: by position
      );
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      schema: {
        operationId: 'updateSiteSpaceById',
        summary: 'Update a site space',
        description:
          "path: unique within the site (409 when another site-space has it). spaceId: a space of the organization. hidden: left out of the published site's variant switcher. condition, draft and pageId accept only what Livery is (null, false, null). All or nothing.",
        tags: ['site-spaces'],
        params: SiteSpaceParams,
        body: UpdateSiteSpaceSchema,
        response: responses({ 200: SiteSpaceSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return siteSpaces.update(
        organizationId,
        memberRoleOf(request),
        siteId,
        siteSpaceId,
        request.body,
      );
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId',
    {
      schema: {
        operationId: 'deleteSiteSpaceById',
        summary: 'Delete a site space',
        description:
          'Deleting the default site-space makes the first remaining one (in order) the default. The space itself remains.',
        tags: ['site-spaces'],
        params: SiteSpaceParams,
        response: responses({
          204: NoContent('Site space did not exist'),
          205: NoContent('Site space has been deleted'),
        }),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const existed = await siteSpaces.delete(organizationId, siteId, siteSpaceId);
      return reply.code(existed ? 205 : 204).send();
    },
  );
};
