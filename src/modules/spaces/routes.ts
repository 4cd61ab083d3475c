import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { memberRoleOf, principalOf } from '../../http/auth.js';
import { optionalBody } from '../../http/optional-body.js';
import { created, OrgParams, responses } from '../../http/schemas.js';
import type { SpaceKeyedScope } from '../sites/scope.js';
import { SpaceParams } from '../sites/scope.js';
import type { SitesService } from '../sites/service.js';
import { CreateSpaceSchema, SpaceSchema, UpdateSpaceSchema } from './schemas.js';
import type { SpacesService } from './service.js';

export const spacesRoutes: FastifyPluginAsyncTypebox<{
  spaces: SpacesService;
  sites: SitesService;
  spaceKeyed: SpaceKeyedScope;
}> = async (app, { spaces, sites, spaceKeyed }) => {
  app.post(
    '/orgs/:organizationId/spaces',
    {
      preValidation: optionalBody,
      config: { idempotent: true },
      schema: {
        operationId: 'createSpace',
        summary: 'Create a space',
        tags: ['spaces'],
        params: OrgParams,
        body: CreateSpaceSchema,
        response: responses({ 201: created(SpaceSchema, 'Space created') }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      const space = await spaces.create(
        request.params.organizationId,
        memberRoleOf(request),
        request.body,
      );
      return reply.code(201).header('location', space.urls.location).send(space);
    },
  );

  app.get(
    '/spaces/:spaceId',
    {
      schema: {
        operationId: 'getSpaceById',
        summary: 'Get a space by its ID',
        tags: ['spaces'],
        params: SpaceParams,
        querystring: Type.Object({
          shareKey: Type.Optional(
            Type.String({ description: 'Accepted for compatibility; Livery does not need it' }),
          ),
        }),
        response: responses({ 200: SpaceSchema }, [400]),
      },
    },
    async (request) => spaces.get(principalOf(request).userId, request.params.spaceId),
  );

  app.patch(
    '/spaces/:spaceId',
    {
      schema: {
        operationId: 'updateSpaceById',
        summary: 'Update a space',
        description:
          'Updates title, emoji (null removes it) and editMode. The deprecated fields visibility and published change the one site showing the space (409 when none or several do); answers to requests using them carry Deprecation and Link headers (docs/deprecations.md).',
        tags: ['spaces'],
        params: SpaceParams,
        body: UpdateSpaceSchema,
        response: responses({ 200: SpaceSchema }, [400, 409, 413, 415]),
      },
      onSend: async (request, reply, payload) => {
        if (usesSiteFields(request.body)) await spaceKeyed.markAnswer(request, reply);
        return payload;
      },
    },
    async (request) => {
      const { visibility, published, ...own } = request.body;
      const { userId } = principalOf(request);
      if (visibility !== undefined || published !== undefined) {
        const { organizationId, siteId } = await spaceKeyed.target(request);
        await sites.update(
          organizationId,
          siteId,
          {
            ...(visibility === undefined ? {} : { visibility }),
            ...(published === undefined ? {} : { published }),
          },
          userId,
        );
      }
      return Object.keys(own).length === 0
        ? spaces.get(userId, request.params.spaceId)
        : spaces.update(userId, request.params.spaceId, own);
    },
  );
};

function usesSiteFields(body: unknown): boolean {
  return typeof body === 'object' && body !== null && ('visibility' in body || 'published' in body);
}
