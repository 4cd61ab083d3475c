import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses, SpaceParams } from '../../../http/schemas.js';
import { principalOf } from '../../access/permission-checks.js';
import { GitLinkSchema, LinkInputSchema } from './schemas.js';
import type { GitLinksService } from './service.js';

/**
 * A space linked to a repository's branch (Livery extension, docs/git-sync.md "Linking a
 * repository"): GitBook's Git Sync installations are GitHub and GitLab apps of gitbook.com, which
 * a self-hosted server cannot be; a link is the repository itself, with its credentials.
 */
export const gitLinkRoutes: FastifyPluginAsyncTypebox<{ links: GitLinksService }> = async (
  app,
  { links },
) => {
  app.put(
    '/spaces/:spaceId/git/link',
    {
      schema: {
        operationId: 'linkSpaceGitRepository',
        summary: 'Link the space to a repository branch (two-way Git Sync)',
        description:
          "Livery extension. Links (or re-links) the space: its merges become commits on the branch, the branch's pushes come in by webhook or polling, and the first sync starts from the `priority` side. Answers the link with the webhook's secret (the only answer that shows it).",
        tags: ['spaces', 'livery'],
        params: SpaceParams,
        body: LinkInputSchema,
        response: responses({ 200: GitLinkSchema }, [400]),
      },
    },
    async (request) =>
      links.link(request.params.spaceId, request.body, principalOf(request).userId),
  );
  app.get(
    '/spaces/:spaceId/git/link',
    {
      schema: {
        operationId: 'getSpaceGitLink',
        summary: "Get the space's link to a repository",
        tags: ['spaces', 'livery'],
        params: SpaceParams,
        response: responses({ 200: GitLinkSchema }),
      },
    },
    async (request) => links.get(request.params.spaceId),
  );
  app.delete(
    '/spaces/:spaceId/git/link',
    {
      schema: {
        operationId: 'unlinkSpaceGitRepository',
        summary: 'Unlink the space from its repository',
        description:
          'Livery extension. Stops syncing; the space and the repository keep what they have. Its credentials are deleted.',
        tags: ['spaces', 'livery'],
        params: SpaceParams,
        response: responses({ 204: Type.Null({ description: 'Unlinked' }) }),
      },
    },
    async (request, reply) => {
      await links.unlink(request.params.spaceId);
      return reply.code(204).send();
    },
  );
  app.post(
    '/spaces/:spaceId/git/sync',
    {
      schema: {
        operationId: 'syncSpaceGitRepository',
        summary: 'Sync a linked space with its branch now',
        description:
          'Livery extension. Queues a sync and answers 204; getSpaceGitInfo tells how it ended. 409 while another operation of the space runs.',
        tags: ['spaces', 'livery'],
        params: SpaceParams,
        response: responses({ 204: Type.Null({ description: 'The sync is queued' }) }, [400, 409]),
      },
    },
    async (request, reply) => {
      await links.syncNow(request.params.spaceId);
      return reply.code(204).send();
    },
  );
};
