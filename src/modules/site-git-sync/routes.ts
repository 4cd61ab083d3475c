import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses, SiteParams } from '../../http/schemas.js';
import { actorOf } from '../audit/actor.js';
import {
  ExportToGitRepositorySchema,
  GitSyncStateSchema,
  ImportGitRepositorySchema,
} from '../git-sync/schemas.js';
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
  app.post(
    '/orgs/:organizationId/sites/:siteId/git/export',
    {
      schema: {
        operationId: 'exportSiteToGitRepository',
        summary: 'Export a whole site to a Git repository (docs.yaml)',
        description:
          "Livery extension. Queues the export and answers 204; getSiteGitInfo tells how it ended. Writes docs.yaml (the site's title, sections, section groups, external links and variants), each variant's space in its directory as exportToGitRepository writes a space, and livery-customization.yaml when the site has customization, as one commit on the branch (none when nothing changed), never force-pushed. 409 while another operation of the site runs.",
        tags: ['livery'],
        params: SiteParams,
        body: ExportToGitRepositorySchema,
        response: responses(
          { 204: Type.Null({ description: 'The export is queued' }) },
          [400, 409],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await siteGitSync.startExport(organizationId, siteId, request.body);
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
          "Livery extension. The site's latest site import or export as GitBook's GitSyncState (operation.direction says which); 404 before the first. Each space's own import is in its getSpaceGitInfo.",
        tags: ['livery'],
        params: SiteParams,
        response: responses({ 200: GitSyncStateSchema }),
      },
    },
    async (request) => siteGitSync.info(request.params.organizationId, request.params.siteId),
  );
};
