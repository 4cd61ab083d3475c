import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { created, responses, SpaceParams } from '../../http/schemas.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import type { SpaceLifecycle } from './lifecycle.js';
import { MoveSpaceSchema, SpaceSchema } from './schemas.js';

/** restoreSpace, duplicateSpace and moveSpace (docs/content.md, "Spaces: delete, restore, …"). */
export const spaceLifecycleRoutes: FastifyPluginAsyncTypebox<{
  lifecycle: SpaceLifecycle;
}> = async (app, { lifecycle }) => {
  app.post(
    '/spaces/:spaceId/restore',
    {
      // The space is in the trash: its organization is found there (access/auth.ts).
      config: { spaceInTrash: true },
      schema: {
        operationId: 'restoreSpace',
        summary: 'Restore a recently deleted space from the trash',
        description:
          'Takes a space deleted by deleteSpaceById within the last 7 days out of the trash, as it was (content, history, change requests, Git Sync). A space deleted longer ago, purged, or unknown is a 404; a space that is not deleted is a 409.',
        tags: ['spaces'],
        params: SpaceParams,
        response: responses({ 200: SpaceSchema }, [400, 409]),
      },
    },
    async (request) =>
      lifecycle.restore(request.params.spaceId, memberRoleOf(request), actorOf(request)),
  );

  app.post(
    '/spaces/:spaceId/duplicate',
    {
      // A retried duplicate with the same Idempotency-Key makes one copy, not two.
      config: { idempotent: true },
      schema: {
        operationId: 'duplicateSpace',
        summary: 'Create a full copy of a space',
        description:
          'A new space in the same organization, titled "<title> (copy)", with the emoji, icon, language and current content (pages, files, reusable content) of the space; its history starts at the copy, and no site shows it. File bytes are shared, not copied.',
        tags: ['spaces'],
        params: SpaceParams,
        response: responses({ 201: created(SpaceSchema, 'Space duplicated') }, [400]),
      },
    },
    async (request, reply) => {
      const space = await lifecycle.duplicate(
        request.params.spaceId,
        memberRoleOf(request),
        actorOf(request),
      );
      return reply.code(201).header('location', space.urls.location).send(space);
    },
  );

  app.post(
    '/spaces/:spaceId/move',
    {
      schema: {
        operationId: 'moveSpace',
        summary: 'Move a space to a different collection or position',
        description:
          "Moves the space before or after another space of its organization, in the order listSpacesInOrganizationById lists them. Livery has no collections: a collection (as parent or position), or a space of another organization, is a 400 naming the field. A move that changes nothing (no position, or where the space already is) is GitBook's 409.",
        tags: ['spaces'],
        params: SpaceParams,
        body: MoveSpaceSchema,
        response: responses({ 200: SpaceSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) =>
      lifecycle.move(request.params.spaceId, request.body, memberRoleOf(request), actorOf(request)),
  );
};
