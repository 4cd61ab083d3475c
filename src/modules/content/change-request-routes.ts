import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { optionalBody } from '../../http/optional-body.js';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { Enum } from '../../http/schema-helpers.js';
import { created, responses, SpaceParams } from '../../http/schemas.js';
import { principalOf } from '../access/permission-checks.js';
import type { ChangeRequestsService } from './change-requests-service.js';
import type { PageChange } from './changes.js';
import {
  ChangeRequestSchema,
  ChangeRequestStatuses,
  CreateChangeRequestSchema,
  CreatedChangeRequestSchema,
  MergeResultSchema,
  UpdateChangeRequestSchema,
  UpdateContentSchema,
  UpdateResultSchema,
} from './schemas.js';

const CrParams = Type.Object({
  ...SpaceParams.properties,
  changeRequestId: Type.String({
    description: 'The unique ID of the change request or its number identifier in the space',
  }),
});

/** Change requests (docs/content.md): create, list, read, edit, change content, merge, update. */
export const changeRequestRoutes: FastifyPluginAsyncTypebox<{
  changeRequests: ChangeRequestsService;
  /** The body limit of a change list: room for a page of PAGE_MAX_BYTES (docs/content.md). */
  contentBodyLimit: number;
}> = async (app, { changeRequests, contentBodyLimit }) => {
  app.post(
    '/spaces/:spaceId/change-requests',
    {
      preValidation: optionalBody,
      config: { idempotent: true },
      schema: {
        operationId: 'createChangeRequest',
        summary: 'Create a change request',
        description:
          'Answers the whole change request (status open, based on the current revision), plus the deprecated `changeRequest` property holding its id (docs/content.md).',
        tags: ['change-requests'],
        params: SpaceParams,
        body: CreateChangeRequestSchema,
        response: responses(
          { 201: created(CreatedChangeRequestSchema, 'Change Request Created') },
          [400, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const created = await changeRequests.create(
        request.params.spaceId,
        userId,
        request.body.subject,
      );
      return reply.code(201).header('location', created.urls.location).send(created);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      schema: {
        operationId: 'listChangeRequestsForSpace',
        summary: 'List all change requests',
        tags: ['change-requests'],
        params: SpaceParams,
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(Enum(ChangeRequestStatuses, 'Only this status (default open)')),
          contributor: Type.Optional(Type.String({ description: 'Accepted; not filtered on' })),
        }),
        response: responses({ 200: ListSchema(ChangeRequestSchema) }, [400]),
      },
    },
    async (request) =>
      changeRequests.list(
        request.params.spaceId,
        request.query.status ?? 'open',
        pageRequest(request.query),
      ),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        operationId: 'getChangeRequestById',
        summary: 'Get a change request by its ID',
        tags: ['change-requests'],
        params: CrParams,
        response: responses({ 200: ChangeRequestSchema }),
      },
    },
    async (request) => changeRequests.get(request.params.spaceId, request.params.changeRequestId),
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        operationId: 'updateChangeRequestById',
        summary: 'Update a change request',
        description:
          'Subject and status (draft, open, archived). A merged change request is a 409.',
        tags: ['change-requests'],
        params: CrParams,
        body: UpdateChangeRequestSchema,
        response: responses({ 200: ChangeRequestSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) =>
      changeRequests.update(request.params.spaceId, request.params.changeRequestId, request.body),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      bodyLimit: contentBodyLimit,
      schema: {
        operationId: 'updateChangeRequestContent',
        summary: 'Update the content of a change request',
        description:
          "GitBook 0.202's change list: insert_page, update_page, delete_page, applied in order, all or nothing (400 or 409 naming `changes[i]`). Answers the updated change request. A merged or archived change request is a 409.",
        tags: ['change-request-content'],
        params: CrParams,
        querystring: Type.Object({
          compat: Type.Optional(
            Type.Boolean({ description: 'Accepted; Livery always answers the change request' }),
          ),
        }),
        body: UpdateContentSchema,
        response: responses({ 200: ChangeRequestSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) =>
      changeRequests.updateContent(
        request.params.spaceId,
        request.params.changeRequestId,
        request.body.changes as PageChange[],
        principalOf(request).userId,
      ),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      schema: {
        operationId: 'mergeChangeRequest',
        summary: 'Merge a change request',
        description:
          'Makes a new revision of the space from the change request. When the space moved on meanwhile, pages changed on only one side merge cleanly; pages changed on both are a 409 naming them (update the change request, then merge).',
        tags: ['change-requests'],
        params: CrParams,
        response: responses({ 200: MergeResultSchema }, [400, 409]),
      },
    },
    async (request) =>
      changeRequests.merge(
        request.params.spaceId,
        request.params.changeRequestId,
        principalOf(request).userId,
      ),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      schema: {
        operationId: 'updateChangeRequest',
        summary: 'Update a change request with changes from the main content',
        description:
          "Brings the space's current content into the change request (afterwards it is no longer outdated); 409 naming the pages changed on both sides.",
        tags: ['change-requests'],
        params: CrParams,
        response: responses({ 200: UpdateResultSchema }, [400, 409]),
      },
    },
    async (request) =>
      changeRequests.rebase(
        request.params.spaceId,
        request.params.changeRequestId,
        principalOf(request).userId,
      ),
  );
};
