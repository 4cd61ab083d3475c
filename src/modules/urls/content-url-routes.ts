import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/schemas.js';
import { principalOf } from '../access/permission-checks.js';
import { ChangeRequestSchema, RevisionPageSchema } from '../content/schemas.js';
import { SpaceSchema } from '../spaces/schemas.js';
import type { ContentByUrlService } from './content-by-url.js';

const ContentByUrlSchema = Type.Object(
  {
    space: SpaceSchema,
    changeRequest: Type.Optional(ChangeRequestSchema),
    page: Type.Optional(RevisionPageSchema),
  },
  { description: 'URL resolved to the content of a space' },
);

/** `GET /v1/urls/content` (getContentByUrl): the space, change request and page a URL names. */
export const contentUrlRoutes: FastifyPluginAsyncTypebox<{ byUrl: ContentByUrlService }> = async (
  app,
  { byUrl },
) => {
  app.get(
    '/urls/content',
    {
      schema: {
        operationId: 'getContentByUrl',
        summary: 'Resolve a URL to a content (space, collection, page)',
        description:
          "The space, and the change request and page, that a Livery URL names: an API URL of a space, change request, revision or page (the `urls.app` of Livery's objects), a studio variant URL, or a published page's URL. A URL naming nothing the caller may read (role read in the space's organization) is a 404. Livery has no collections. See docs/api.md, \"Resolving URLs\".",
        tags: ['urls'],
        querystring: Type.Object(
          { url: Type.String({ minLength: 1, maxLength: 2048, description: 'URL to resolve' }) },
          { additionalProperties: false },
        ),
        response: responses({ 200: ContentByUrlSchema }, [400]),
      },
    },
    (request) => byUrl.resolve(principalOf(request).userId, request.query.url),
  );
};
