import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ifMatch, sendRepresentation } from '../../http/conditional.js';
import { ListSchema, PageQuery } from '../../http/pagination.js';
import { responses, SiteParams, SiteSpaceParams } from '../../http/schemas.js';
import { SettingsSchema } from '../../settings/settings-schema.js';
import { actorOf } from '../audit/actor.js';
import {
  CompareQuery,
  ComparisonSchema,
  RevisionNumberParam,
  RevisionSchema,
  RevisionSummarySchema,
} from './history-schemas.js';
import type { CustomizationHistoryService } from './history-service.js';
import type { CustomizationService } from './service.js';

const tags = ['site-customization', 'livery'];
const IfMatch = Type.Object({
  'if-match': Type.Optional(
    Type.String({ description: 'Restore only if the current ETag matches (else 412)' }),
  ),
});

/**
 * Customization history (docs/history.md), for a site and for a variant alike: the same four
 * operations under each customization's path, named after the customization they belong to.
 */
export const customizationHistoryRoutes: FastifyPluginAsyncTypebox<{
  customization: CustomizationService;
  history: CustomizationHistoryService;
}> = async (app, { customization, history }) => {
  for (const kind of ['Site', 'SiteSpace'] as const) {
    const variant = kind === 'SiteSpace';
    const base = variant
      ? '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization/revisions'
      : '/orgs/:organizationId/sites/:siteId/customization/revisions';
    const params = variant ? SiteSpaceParams : SiteParams;
    const whose = variant ? "the variant's override" : "the site's customization";
    const numbered = Type.Object({ ...params.properties, ...RevisionNumberParam });
    const scopeOf = (p: { organizationId: string; siteId: string; siteSpaceId?: string }) => ({
      organizationId: p.organizationId,
      siteId: p.siteId,
      siteSpaceId: p.siteSpaceId,
    });

    app.get(
      base,
      {
        schema: {
          operationId: `list${kind}CustomizationRevisions`,
          summary: `List the revisions of ${whose}`,
          description:
            'Newest first, without their documents. Every change (PUT, PATCH, DELETE, restore) records one, numbered 1, 2, 3…; CUSTOMIZATION_HISTORY_KEEP may prune the oldest.',
          tags,
          params,
          querystring: Type.Object(PageQuery),
          response: responses({ 200: ListSchema(RevisionSummarySchema) }, [400]),
        },
      },
      async (request) => history.list(scopeOf(request.params), request.query),
    );

    app.get(
      `${base}/compare`,
      {
        schema: {
          operationId: `compare${kind}CustomizationRevisions`,
          summary: `Compare two revisions of ${whose}`,
          description:
            'The JSON Patch (RFC 6902) from the document of revision `from` to that of `to`; 0 stands for the defaults (a site) or no override (a variant).',
          tags,
          params,
          querystring: CompareQuery,
          response: responses({ 200: ComparisonSchema }, [400]),
        },
      },
      async (request) =>
        history.compare(scopeOf(request.params), request.query.from, request.query.to),
    );

    app.get(
      `${base}/:number`,
      {
        schema: {
          operationId: `get${kind}CustomizationRevision`,
          summary: `Get a revision of ${whose}`,
          description: variant
            ? 'With the override it stored (`settings`, null after a DELETE) and the effective settings it produced (`effective`).'
            : 'With the settings it stored (`settings`).',
          tags,
          params: numbered,
          response: responses({ 200: RevisionSchema }, [400]),
        },
      },
      async (request) => history.get(scopeOf(request.params), request.params.number),
    );

    app.post(
      `${base}/:number/restore`,
      {
        schema: {
          operationId: `restore${kind}CustomizationRevision`,
          summary: `Restore a revision of ${whose}`,
          description: variant
            ? "Makes the revision's override (or its absence) the variant's override again and records a `restore` revision. Answers the new effective settings, as PATCH does. Restoring the current state changes and records nothing."
            : "Makes the revision's settings current again, as a PUT of them would, and records a `restore` revision. Answers the stored settings, as PUT does. Restoring the current state changes and records nothing.",
          tags,
          params: numbered,
          headers: IfMatch,
          response: responses({ 200: SettingsSchema }, [400, 412]),
        },
      },
      async (request, reply) => {
        const { organizationId, siteId, number } = request.params;
        const precondition = ifMatch(request.headers['if-match']);
        const actor = actorOf(request);
        const { siteSpaceId } = request.params as { siteSpaceId?: string };
        const representation =
          siteSpaceId === undefined
            ? await customization.restoreSite(organizationId, siteId, number, precondition, actor)
            : await customization.restoreVariant(
                organizationId,
                siteId,
                siteSpaceId,
                number,
                precondition,
                actor,
              );
        return sendRepresentation(reply, representation);
      },
    );
  }
};
