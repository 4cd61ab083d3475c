import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses, SpaceParams } from '../../http/schemas.js';
import { principalOf } from '../access/permission-checks.js';
import {
  ExportToGitRepositorySchema,
  GitSyncStateSchema,
  ImportGitRepositorySchema,
} from './schemas.js';
import type { GitSyncService } from './service.js';
import type { GitExportService } from './sync/service.js';

/** GitBook's Git Sync operations on a space (docs/git-sync.md). */
export const gitSyncRoutes: FastifyPluginAsyncTypebox<{
  gitSync: GitSyncService;
  gitExport: GitExportService;
}> = async (app, { gitSync, gitExport }) => {
  app.post(
    '/spaces/:spaceId/git/import',
    {
      schema: {
        operationId: 'importGitRepository',
        summary: 'Import a Git repository into the space',
        description:
          'Queues the import and answers 204; getSpaceGitInfo tells how it ended. 409 while another import of the space runs.',
        tags: ['spaces'],
        params: SpaceParams,
        body: ImportGitRepositorySchema,
        response: responses(
          { 204: Type.Null({ description: 'The import is queued' }) },
          [400, 409],
        ),
      },
    },
    async (request, reply) => {
      await gitSync.startImport(request.params.spaceId, request.body, principalOf(request).userId);
      return reply.code(204).send();
    },
  );
  app.post(
    '/spaces/:spaceId/git/export',
    {
      schema: {
        operationId: 'exportToGitRepository',
        summary: 'Export the space to a Git repository',
        description:
          "Queues the export and answers 204; getSpaceGitInfo tells how it ended. The space is written as GitBook's Git Sync writes it, as one commit on the branch (none when nothing changed), never force-pushed. 409 while another operation of the space runs.",
        tags: ['spaces'],
        params: SpaceParams,
        body: ExportToGitRepositorySchema,
        response: responses(
          { 204: Type.Null({ description: 'The export is queued' }) },
          [400, 409],
        ),
      },
    },
    async (request, reply) => {
      await gitExport.startExport(
        request.params.spaceId,
        request.body,
        principalOf(request).userId,
      );
      return reply.code(204).send();
    },
  );
  app.get(
    '/spaces/:spaceId/git/info',
    {
      schema: {
        operationId: 'getSpaceGitInfo',
        summary: "Get the space's Git Sync state",
        tags: ['spaces'],
        params: SpaceParams,
        response: responses({ 200: GitSyncStateSchema }),
      },
    },
    async (request) => gitSync.info(request.params.spaceId),
  );
};
