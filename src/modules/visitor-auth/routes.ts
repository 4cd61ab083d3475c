import type { FastifyPluginAsync } from 'fastify';
import { responses } from '../../http/schemas.js';
import { actorOf } from '../audit/actor.js';
import type { SiteScope } from '../sites/scope.js';
import {
  PublishingAuthSchema,
  type UpdatePublishingAuth,
  UpdatePublishingAuthSchema,
} from './schemas.js';
import type { PublishingAuthService } from './service.js';

/** Visitor-authentication settings, mounted once per scope (site-keyed, deprecated space-keyed). */
export const publishingAuthRoutes: FastifyPluginAsync<{
  publishingAuth: PublishingAuthService;
  scope: SiteScope;
}> = async (app, { publishingAuth, scope }) => {
  const path = `${scope.prefix}/publishing/auth`;
  const tags = ['site-publishing-auth'];
  const conflicts = scope.deprecated ? [409] : [];

  app.get(
    path,
    {
      schema: {
        operationId: scope.operationId('getSitePublishingAuthById'),
        summary: 'Get a site auth config',
        description:
          'Created on first read with backend "custom" and a fresh private key (HS256 secret for visitor JWTs).',
        tags,
        params: scope.params,
        response: responses({ 200: PublishingAuthSchema }, [400, ...conflicts]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = await scope.target(request);
      return publishingAuth.get(organizationId, siteId);
    },
  );

  app.patch(
    path,
    {
      schema: {
        operationId: scope.operationId('updateSitePublishingAuthById'),
        summary: 'Update a site auth config',
        description:
          'backend is required (custom; Livery has no integrations). fallbackURL and logoutURL: absent leaves it unchanged, null removes it, else an absolute http(s) URL.',
        tags,
        params: scope.params,
        body: UpdatePublishingAuthSchema,
        response: responses({ 200: PublishingAuthSchema }, [400, 413, 415, ...conflicts]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = await scope.target(request);
      const input = request.body as UpdatePublishingAuth;
      return publishingAuth.update(organizationId, siteId, input, actorOf(request));
    },
  );

  app.post(
    `${path}/regenerate`,
    {
      config: { idempotent: true },
      schema: {
        operationId: scope.operationId('regenerateSitePublishingAuthById'),
        summary: 'Regenerate a site auth',
        description:
          'Regenerate the publishing authentication settings for a site. This will re-generate the private key: tokens signed with the old key stop verifying at once.',
        tags,
        params: scope.params,
        response: responses({ 200: PublishingAuthSchema }, [400, ...conflicts]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = await scope.target(request);
      return publishingAuth.regenerate(organizationId, siteId, actorOf(request));
    },
  );
};
