import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { sendJsonText } from '../../http/json-text.js';
import { created, NoContent, responses, SiteSpaceParams, SpaceParams } from '../../http/schemas.js';
import type { SiteSpacesService } from '../sites/site-spaces-service.js';
import {
  AnalyticsContentPagesSchema,
  FeedbackBodySchema,
  FeedbackParams,
  PageFeedbackSchema,
  PeriodQuery,
  TrackViewSchema,
} from './schemas.js';
import type { Rating } from './score.js';
import type { InsightsService } from './service.js';

/** Content insights (docs/insights.md): ratings, page views and per-page analytics. */
export const insightsRoutes: FastifyPluginAsyncTypebox<{
  insights: InsightsService;
  siteSpaces: SiteSpacesService;
}> = async (app, { insights, siteSpaces }) => {
  /** 201 with Location for a visitor's first rating of the page, 200 when it replaces one. */
  const rate = async (
    reply: FastifyReply,
    spaceId: string,
    { pageId, visitorId }: { pageId: string; visitorId: string },
    { rating }: { rating: Rating },
  ) => {
    const { created, feedback } = await insights.rate(spaceId, pageId, visitorId, rating);
    if (created) reply.code(201).header('location', feedback.urls.location);
    return feedback;
  };

  const feedbackResponses = responses(
    {
      200: { ...PageFeedbackSchema, description: 'Feedback updated' },
      201: created(PageFeedbackSchema, 'Feedback created'),
    },
    [400, 413, 415],
  );

  app.put(
    '/spaces/:spaceId/pages/:pageId/feedbacks/:visitorId',
    {
      schema: {
        operationId: 'createPageFeedback',
        summary: 'Create a page feedback by a visitor.',
        description:
          "A visitor's rating of a page of the current revision: 201 with Location when new, 200 when it replaces that visitor's earlier rating of the page.",
        tags: ['insights'],
        params: FeedbackParams,
        body: FeedbackBodySchema,
        response: feedbackResponses,
      },
    },
    async (request, reply) => rate(reply, request.params.spaceId, request.params, request.body),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/insights/pages/:pageId/feedbacks/:visitorId',
    {
      schema: {
        operationId: 'createSitesPageFeedback',
        summary: 'Create a page feedback by a visitor on a site.',
        description: 'As createPageFeedback, for the space the site-space shows.',
        tags: ['insights'],
        params: Type.Object({
          ...SiteSpaceParams.properties,
          pageId: FeedbackParams.properties.pageId,
          visitorId: FeedbackParams.properties.visitorId,
        }),
        body: FeedbackBodySchema,
        response: feedbackResponses,
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const spaceId = await siteSpaces.spaceOf(organizationId, siteId, siteSpaceId);
      return rate(reply, spaceId, request.params, request.body);
    },
  );

  app.get(
    '/spaces/:spaceId/pages/:pageId/feedbacks/:visitorId',
    {
      schema: {
        operationId: 'getPageFeedback',
        summary: 'Get a page feedback by a visitor.',
        tags: ['insights'],
        params: FeedbackParams,
        response: responses({ 200: PageFeedbackSchema }, [400]),
      },
    },
    async (request) => {
      const { spaceId, pageId, visitorId } = request.params;
      return insights.feedback(spaceId, pageId, visitorId);
    },
  );

  app.post(
    '/spaces/:spaceId/insights/track_view',
    {
      schema: {
        operationId: 'trackViewInSpaceById',
        summary: 'Track a page view in a space',
        description:
          "Counts one view of a document page of the current revision (per page and day). Takes `{pageId, visitorId?}`; GitBook 0.91's `visitor`, `url` and `referrer` are accepted too. Visitor ids are validated but not stored (docs/insights.md).",
        tags: ['insights'],
        params: SpaceParams,
        body: TrackViewSchema,
        response: responses({ 204: NoContent('Page view has been tracked.') }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      await insights.trackView(request.params.spaceId, request.body.pageId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/spaces/:spaceId/insights/content',
    {
      schema: {
        operationId: 'getContentAnalyticsForSpaceById',
        summary: 'Get content analytics for a given space.',
        description:
          'Every document page of the current revision with its views and feedback score, all time (docs/insights.md).',
        tags: ['insights'],
        params: SpaceParams,
        response: responses({ 200: AnalyticsContentPagesSchema }),
      },
    },
    async (request, reply) =>
      sendJsonText(reply, JSON.stringify(await insights.contentAnalytics(request.params.spaceId))),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/insights/content',
    {
      schema: {
        operationId: 'getContentAnalyticsForSiteSpaceById',
        summary: 'Get page traffic and ratings for a given site space.',
        description:
          "As getContentAnalyticsForSpaceById for the site-space's space, over `period` (all time when omitted).",
        tags: ['insights'],
        params: SiteSpaceParams,
        querystring: PeriodQuery,
        response: responses({ 200: AnalyticsContentPagesSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const spaceId = await siteSpaces.spaceOf(organizationId, siteId, siteSpaceId);
      const analytics = await insights.contentAnalytics(spaceId, request.query.period);
      return sendJsonText(reply, JSON.stringify(analytics));
    },
  );
};
