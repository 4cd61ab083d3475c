import { Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { EntityId, RevisionPageSchema } from '../content/schemas.js';
import { RATINGS } from './score.js';

export const RatingSchema = Enum(RATINGS);

export const PageFeedbackSchema = Type.Object(
  {
    object: Type.Literal('page-feedback'),
    visitorId: Type.String(),
    rating: RatingSchema,
    createdAt: Type.String({
      format: 'date-time',
      description: 'When the current rating was given',
    }),
    revision: Type.String({ description: 'ID of the revision when the rating was given' }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { title: 'PageFeedback' },
);

export const FeedbackBodySchema = Type.Object(
  { rating: RatingSchema },
  { additionalProperties: false, title: 'PageFeedbackInput' },
);

export const FeedbackParams = Type.Object({
  spaceId: Type.String({ description: 'The unique id of the space' }),
  pageId: EntityId('The unique id of the page'),
  visitorId: EntityId('The id of the visitor'),
});

export const TrackViewSchema = Type.Object(
  {
    pageId: EntityId('The page viewed'),
    visitorId: Type.Optional(EntityId('The visitor, when known')),
    visitor: Type.Optional(
      Type.Object(
        {
          anonymousId: EntityId("GitBook 0.91's visitor id; used when visitorId is absent"),
          cookies: Type.Optional(Type.Record(Type.String(), Type.String())),
          ip: Type.Optional(Type.String()),
          userAgent: Type.Optional(Type.String()),
          language: Type.Optional(Type.String()),
        },
        { additionalProperties: false, description: 'GitBook 0.91 form; only anonymousId is kept' },
      ),
    ),
    url: Type.Optional(Type.String({ maxLength: 2048, description: 'Accepted, not stored' })),
    referrer: Type.Optional(Type.String({ maxLength: 2048, description: 'Accepted, not stored' })),
  },
  { additionalProperties: false, title: 'TrackView' },
);

const count = (description: string) => Type.Number({ description });

export const AnalyticsContentPagesSchema = Type.Object(
  {
    pages: Type.Array(
      Type.Object({
        page: RevisionPageSchema,
        pageViews: count('Views of the page'),
        feedbacks: Type.Object({
          score: count(
            "Mean weight of the ratings: +1 'good', -0.5 'ok', -2 'bad'; 0 without ratings",
          ),
          total: count('Number of ratings'),
          rating: Type.String({
            deprecated: true,
            description: "'good' when score > 0, 'ok' when 0, 'bad' below",
          }),
          ponderedScore: count('score × total'),
          bad: count("Number of 'bad' ratings"),
          ok: count("Number of 'ok' ratings"),
          good: count("Number of 'good' ratings"),
        }),
      }),
    ),
  },
  { title: 'AnalyticsContentPages' },
);

export const PeriodQuery = Type.Object({
  period: Type.Optional(
    Enum(
      ['last_week', 'last_month', 'last_year'],
      'Only views and ratings of this period; all time when omitted',
    ),
  ),
});
