import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, responses } from '../../http/schemas.js';
import { actorOf } from '../audit/actor.js';
import type { CustomHostnamesService } from './custom-hostnames.js';
import { CustomHostnameSchema, HostnameParams } from './custom-hostnames-schemas.js';

/**
 * `/v1/custom-hostnames/{hostname}` (GitBook 0.202's operations; docs/sites.md, "Custom
 * hostnames"). The path names no organization: the service checks the caller's role in the
 * organization of the site holding the hostname, and answers as for an unknown hostname when
 * the caller lacks it.
 */
export const customHostnamesRoutes: FastifyPluginAsyncTypebox<{
  hostnames: CustomHostnamesService;
}> = async (app, { hostnames }) => {
  app.get(
    '/custom-hostnames/:hostname',
    {
      schema: {
        operationId: 'getCustomHostname',
        summary: 'Get a custom hostname',
        description:
          'The site a hostname serves, for a member (role read) of its organization; 404 for anyone else, as for a hostname no site has. Always active and live: DNS and TLS are the job of the reverse proxy.',
        tags: ['custom-hostnames'],
        params: HostnameParams,
        response: responses({ 200: CustomHostnameSchema }),
      },
    },
    async (request) => hostnames.get(request.params.hostname, actorOf(request)),
  );

  app.patch(
    '/custom-hostnames/:hostname',
    {
      schema: {
        operationId: 'dnsRevalidateCustomHostname',
        summary: 'Revalidate a custom hostname DNS',
        description:
          "Livery checks no DNS, so there is nothing to revalidate: 204 for an admin of the organization whose site holds the hostname; for anyone else, GitBook's 400 for an inactive hostname (as for a hostname no site holds).",
        tags: ['custom-hostnames'],
        params: HostnameParams,
        response: responses(
          { 204: NoContent('Nothing to revalidate: the hostname is live') },
          [400],
        ),
      },
    },
    async (request, reply) => {
      await hostnames.revalidate(request.params.hostname, actorOf(request));
      return reply.code(204).send();
    },
  );

  app.delete(
    '/custom-hostnames/:hostname',
    {
      schema: {
        operationId: 'removeCustomHostname',
        summary: 'Remove a custom hostname',
        description:
          "The hostname leaves its site (as updateSiteById with hostname: null); the site stays at its PUBLIC_URL address. 205 when removed, 204 when no site the caller administers held it (another organization's hostname included: nothing says it exists).",
        tags: ['custom-hostnames'],
        params: HostnameParams,
        response: responses({
          204: NoContent('Custom hostname did not exist'),
          205: NoContent('Custom hostname has been removed'),
        }),
      },
    },
    async (request, reply) => {
      const removed = await hostnames.remove(request.params.hostname, actorOf(request));
      return reply.code(removed ? 205 : 204).send();
    },
  );
};
