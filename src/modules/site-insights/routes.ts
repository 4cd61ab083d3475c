import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, responses, SiteParams } from '../../http/schemas.js';
import { AggregationQuerySchema, AggregationResultSchema } from './query-schemas.js';
import { TrackEventsSchema } from './schemas.js';
import type { SiteEventsService } from './service.js';

const tags = ['site-insights'];

/** GitBook 0.202's site-insights operations (docs/insights.md, "Site events"). */
export const siteInsightsRoutes: FastifyPluginAsyncTypebox<{
  siteEvents: SiteEventsService;
}> = async (app, { siteEvents }) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/insights/events',
    {
      schema: {
        operationId: 'trackEventsInSiteById',
        summary: 'Track site events',
        description:
          'Records what readers did on the site (page views, searches, feedback, link clicks, …): at most 100 events per request, each `timestamp` within 5 minutes of now. Answered once the events are checked; they are written within a fraction of a second. Per site at most SITE_EVENTS_PER_MINUTE events per minute (429 with Retry-After beyond). What is stored of a visitor: docs/insights.md.',
        tags,
        params: SiteParams,
        body: TrackEventsSchema,
        response: responses({ 204: NoContent('Events have been tracked.') }, [400, 413, 415, 429]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await siteEvents.track(organizationId, siteId, request.body.events);
      return reply.code(204).send();
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/insights/events/aggregate',
    {
      schema: {
        operationId: 'aggregateSiteEvents',
        summary: "Query a site's analytics events",
        description:
          'Counts the site\'s events over `range` (at most 400 days), grouped by `groupBy` and filtered by `where`. The answer is columnar: one entry per column (the groups\' first, then the selected ones), each with one value per row. Columns Livery does not collect (geography, visitor claims) are null. docs/insights.md, "Aggregating".',
        tags,
        params: SiteParams,
        body: AggregationQuerySchema,
        response: responses({ 200: AggregationResultSchema }, [400, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return siteEvents.aggregate(organizationId, siteId, request.body);
    },
  );
};
