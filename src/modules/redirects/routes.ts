import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, responses, SiteParams } from '../../http/schemas.js';
import type { Urls } from '../../urls.js';
import { actorOf } from '../audit/actor.js';
import {
  BulkResultSchema,
  BulkUpsertSchema,
  CreateSiteRedirectSchema,
  ListRedirectsQuery,
  SiteRedirectSchema,
  UpdateSiteRedirectSchema,
} from './schemas.js';
import type { RedirectsService } from './service.js';

const tags = ['site-redirects'];
const RedirectParams = Type.Object({
  ...SiteParams.properties,
  siteRedirectId: Type.String({ description: 'The unique id of the site redirect' }),
});

/** GitBook 0.202's site-redirects operations (docs/sites.md, "Redirects"). */
export const redirectsRoutes: FastifyPluginAsyncTypebox<{
  redirects: RedirectsService;
  urls: Urls;
}> = async (app, { redirects, urls }) => {
  const base = '/orgs/:organizationId/sites/:siteId/redirects';

  app.post(
    base,
    {
      config: { idempotent: true },
      schema: {
        operationId: 'createSiteRedirect',
        summary: 'Create a URL redirect rule for a site',
        description:
          'A source of the site (exact, or a prefix ending with `*`) to a destination. 409 when the site has a rule of that source already (a draft and a live rule may share one); 400 naming the field for a loop or a chain of more than 5 redirects.',
        tags,
        params: SiteParams,
        body: CreateSiteRedirectSchema,
        response: responses(
          { 201: created(SiteRedirectSchema, 'The redirect was created') },
          [400, 409, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const made = await redirects.create(organizationId, siteId, request.body, actorOf(request));
      const location = `${urls.site(organizationId, siteId)}/redirects/${made.id}`;
      return reply.code(201).header('location', location).send(made);
    },
  );

  app.put(
    base,
    {
      config: { idempotent: true },
      schema: {
        operationId: 'bulkUpsertSiteRedirects',
        summary: 'Create, update, delete, or publish site redirect rules in bulk',
        description:
          'Up to 500 items applied in order, upserting by source and intent; `destination: null` deletes; `intent: "publish"` makes a draft live (replacing the live rule of that source). All or nothing: an item Livery refuses fails the request with a 400 naming it (`body.redirects[3].source`), and nothing changes.',
        tags,
        params: SiteParams,
        body: BulkUpsertSchema,
        response: responses({ 200: BulkResultSchema }, [400, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return redirects.bulk(organizationId, siteId, request.body.redirects, actorOf(request));
    },
  );

  app.get(
    base,
    {
      schema: {
        operationId: 'listSiteRedirects',
        summary: 'List all URL redirect rules configured for a site',
        description:
          'Live rules (or drafts, `draft=true`), newest first (`orderBy=createdAt`, the default, or `updatedAt`) or by source; `search` keeps the sources containing the text.',
        tags,
        params: SiteParams,
        querystring: Type.Object({ ...PageQuery, ...ListRedirectsQuery.properties }),
        response: responses({ 200: ListSchema(SiteRedirectSchema) }, [400]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { page, limit, ...query } = request.query;
      return redirects.list(organizationId, siteId, query, pageRequest({ page, limit }));
    },
  );

  app.patch(
    `${base}/:siteRedirectId`,
    {
      schema: {
        operationId: 'updateSiteRedirectById',
        summary: 'Update a URL redirect rule for a site',
        description:
          'Only the fields given change; `draft: false` makes a draft live (409 when a live rule has its source).',
        tags,
        params: RedirectParams,
        body: UpdateSiteRedirectSchema,
        response: responses({ 200: SiteRedirectSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      return redirects.update(
        organizationId,
        siteId,
        siteRedirectId,
        request.body,
        actorOf(request),
      );
    },
  );

  app.delete(
    `${base}/:siteRedirectId`,
    {
      schema: {
        operationId: 'deleteSiteRedirectById',
        summary: 'Delete a site redirect',
        tags,
        params: RedirectParams,
        response: responses({
          204: NoContent('Site redirect did not exist'),
          205: NoContent('Site redirect deleted'),
        }),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteRedirectId } = request.params;
      const existed = await redirects.delete(
        organizationId,
        siteId,
        siteRedirectId,
        actorOf(request),
      );
      return reply.code(existed ? 205 : 204).send();
    },
  );
};
