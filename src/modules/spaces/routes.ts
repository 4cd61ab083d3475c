import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { memberRoleOf, principalOf } from '../../http/auth.js';
import { optionalBody } from '../../http/optional-body.js';
import { created, OrgParams, responses } from '../../http/schemas.js';
import { CreateSpaceSchema, SpaceSchema } from './schemas.js';
import type { SpacesService } from './service.js';

export const spacesRoutes: FastifyPluginAsyncTypebox<{ spaces: SpacesService }> = async (
  app,
  { spaces },
) => {
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
        params: Type.Object({
          spaceId: Type.String({ description: 'The unique id of the space' }),
        }),
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
};
