import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonText } from '../../http/json-text.js';
import { Enum } from '../../http/schema-helpers.js';
import { responses, SpaceParams } from '../../http/schemas.js';
import { JsonDocumentSchema } from '../documents/schema.js';
import { setRendererCache, spaceTag } from '../revalidation/cache-headers.js';
import { DEFAULT_CHANGES, type RevisionReadsService } from './revision-changes.js';
import { RevisionChangesQuery, RevisionSemanticChangesSchema } from './semantic-changes-schemas.js';

/**
 * Reads of a space's content by GitBook's other ids (docs/content.md): a document by its
 * document id, and what a revision changed.
 */
export const revisionReadRoutes: FastifyPluginAsyncTypebox<{
  reads: RevisionReadsService;
}> = async (app, { reads }) => {
  app.get(
    '/spaces/:spaceId/documents/:documentId',
    {
      schema: {
        operationId: 'getDocumentById',
        summary: 'Get a raw document from a space by its document ID',
        description:
          "A document of the space's current revision: a document page's (its `documentId`, which is its page id) or a reusable content's (its `document`, which is its id), as GitBook's JSON document (docs/content.md, \"Documents by id\"); 404 for any other id, a group's or a link's.",
        tags: ['space-content'],
        params: Type.Object({
          ...SpaceParams.properties,
          documentId: Type.String({ description: 'ID of the document in the space' }),
        }),
        querystring: Type.Object({
          schema: Type.Optional(
            Enum(['current', 'next'], 'Accepted; Livery has one document schema, the current one'),
          ),
        }),
        response: responses({ 200: JsonDocumentSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { spaceId, documentId } = request.params;
      return sendJsonText(reply, await reads.document(spaceId, documentId));
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/changes',
    {
      schema: {
        operationId: 'getRevisionSemanticChanges',
        summary: 'Get semantic content changes introduced by a revision',
        description:
          'The pages created, edited, moved and deleted, and the files and reusable contents created, edited and deleted, by the revision against its first parent (a first revision created all it has): docs/content.md, "What a revision changed".',
        tags: ['space-content'],
        params: Type.Object({
          ...SpaceParams.properties,
          revisionId: Type.String({ description: 'The unique id of the revision' }),
        }),
        querystring: RevisionChangesQuery,
        response: responses({ 200: RevisionSemanticChangesSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId } = request.params;
      const changes = await reads.changes(
        spaceId,
        revisionId,
        request.query.limit ?? DEFAULT_CHANGES,
      );
      // A revision and its parent never change (docs/renderer-cache.md).
      setRendererCache(reply, { tags: [spaceTag(spaceId)], immutable: true });
      return sendJsonText(reply, JSON.stringify(changes));
    },
  );
};
