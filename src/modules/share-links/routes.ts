import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, responses } from '../../http/schemas.js';
import { actorOf } from '../audit/actor.js';
import type { SiteScope } from '../sites/scope.js';
import {
  CreateShareLinkSchema,
  ShareLinkSchema,
  type UpdateShareLink,
  UpdateShareLinkSchema,
} from './schemas.js';
import type { ShareLinksService } from './service.js';

/** The share-link operations, mounted once per scope (site-keyed, deprecated space-keyed). */
export const shareLinkRoutes: FastifyPluginAsync<{
  shareLinks: ShareLinksService;
  scope: SiteScope;
}> = async (app, { shareLinks, scope }) => {
  const base = `${scope.prefix}/share-links`;
  const tags = ['site-share-links'];
  const LinkParams = Type.Object({
    ...scope.params.properties,
    shareLinkId: Type.String({ description: 'The unique id of the share link' }),
  });
  const conflicts = scope.deprecated ? [409] : [];
  const linkId = (params: unknown) => (params as { shareLinkId: string }).shareLinkId;

  app.get(
    base,
    {
      schema: {
        operationId: scope.operationId('listSiteShareLinks'),
        summary: 'List all share links',
        description: 'Links never show their key again (only its hash is stored): urls is {}.',
        tags,
        params: scope.params,
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(ShareLinkSchema) }, [400, ...conflicts]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = await scope.target(request);
      return shareLinks.list(organizationId, siteId, pageRequest(request.query as object));
    },
  );

  app.post(
    base,
    {
      // Not idempotent: a stored answer would keep the key, which Livery stores only hashed.
      schema: {
        operationId: scope.operationId('createSiteShareLink'),
        summary: 'Create a share link',
        description:
          "The response's urls.published carries the link's secret key (?share=<key>, 192 bits): the only time it is shown. Idempotency-Key is not honoured here: replaying the answer would mean keeping the key.",
        tags,
        params: scope.params,
        body: CreateShareLinkSchema,
        response: responses({ 201: created(ShareLinkSchema, 'The share link has been created') }, [
          400,
          413,
          415,
          ...conflicts,
        ]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = await scope.target(request);
      const { name } = request.body as { name: string };
      const link = await shareLinks.create(organizationId, siteId, name, actorOf(request));
      return reply
        .code(201)
        .header('location', shareLinks.location(organizationId, siteId, link.id))
        .send(link);
    },
  );

  app.patch(
    `${base}/:shareLinkId`,
    {
      schema: {
        operationId: scope.operationId('updateSiteShareLinkById'),
        summary: 'Update a share link',
        description: 'active: false stops the key from opening the site at once.',
        tags,
        params: LinkParams,
        body: UpdateShareLinkSchema,
        response: responses({ 200: ShareLinkSchema }, [400, 413, 415, ...conflicts]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = await scope.target(request);
      const input = request.body as UpdateShareLink;
      const id = linkId(request.params);
      return shareLinks.update(organizationId, siteId, id, input, actorOf(request));
    },
  );

  app.delete(
    `${base}/:shareLinkId`,
    {
      schema: {
        operationId: scope.operationId('deleteSiteShareLinkById'),
        summary: 'Deletes a share link',
        tags,
        params: LinkParams,
        response: responses(
          {
            204: NoContent('Site share link did not exist'),
            205: NoContent('Site share link has been deleted'),
          },
          conflicts,
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = await scope.target(request);
      const id = linkId(request.params);
      const existed = await shareLinks.delete(organizationId, siteId, id, actorOf(request));
      return reply.code(existed ? 205 : 204).send();
    },
  );
};
