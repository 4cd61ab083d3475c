import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses, SiteParams } from '../../http/schemas.js';
import { actorOf } from '../audit/actor.js';
import { GitSyncStateSchema, ImportGitRepositorySchema } from '../git-sync/schemas.js';
import type { SiteGitSyncService } from './service.js';

/** A whole site from Git (Livery extension in GitBook's style, docs/git-sync.md). */
export const siteGitSyncRoutes: FastifyPluginAsyncTypebox<{
  siteGitSync: SiteGitSyncService;
}> = async (app, { siteGitSync }) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/git/import',
    {
      schema: {
        operationId: 'importSiteGitRepository',
        summary: "Import a whole site from a Git repository's docs.yaml",
        description:
          "Livery extension. Queues the import and answers 204; getSiteGitInfo tells how it ended. Reads docs.yaml (or gitbook-docs.yaml) at the top of repoProjectDirectory, checks it and the customization file against every rule before changing anything, then makes the site's sections, section groups, external links and variants what the file says and imports each space's directory as importGitRepository does. 409 while another import of the site runs.",
        tags: ['livery'],
        params: SiteParams,
        body: ImportGitRepositorySchema,
        response: responses(
          { 204: Type.Null({ description: 'The import is queued' }) },
          [400, 409],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await siteGitSync.startImport(organizationId, siteId, request.body, actorOf(request));
      return reply.code(204).send();
    },
  );
  app.get(
    '/orgs/:organizationId/sites/:siteId/git/info',
    {
      schema: {
        operationId: 'getSiteGitInfo',
        summary: "Get the site's Git Sync state",
        description:
          "Livery extension. The site's latest site import as GitBook's GitSyncState; 404 before the first. Each space's own import is in its getSpaceGitInfo.",
        tags: ['livery'],
        params: SiteParams,
        response: responses({ 200: GitSyncStateSchema }),
      },
    },
    async (request) => siteGitSync.info(request.params.organizationId, request.params.siteId),
  );
};
