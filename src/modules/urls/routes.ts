import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendAtEndOfTurn } from '../../http/coalesce-writes.js';
import { markDeprecated } from '../../http/deprecation.js';
import { sendJsonText } from '../../http/json-text.js';
import { responses } from '../../http/schemas.js';
import type { Urls } from '../../urls.js';
import { LookupBodySchema, LookupQuerySchema, LookupSchema } from './schemas.js';
import type { UrlLookupService } from './service.js';

/** `POST /v1/urls/published`: the URL lookup GitBook's renderer makes for every page. */
export const urlRoutes: FastifyPluginAsyncTypebox<{
  lookup: UrlLookupService;
  urls: Urls;
}> = async (app, { lookup, urls }) => {
  app.post(
    '/urls/published',
    {
      schema: {
        operationId: 'resolvePublishedContentByUrl',
        summary: 'Resolve a URL of a published content',
        description:
          'The published site, variant and page a URL names, with a short-lived public site token to read them (docs/renderer.md). 404 for an address that names no published site a caller may know of; a visitor-authentication site without a valid visitor.jwtToken answers a redirect to its sign-in address, or 401 when it has none.',
        tags: ['urls'],
        body: LookupBodySchema,
        response: responses({ 200: LookupSchema }, [400, 413, 415]),
      },
    },
    // Not async: a kept answer is sent without a promise, with the other answers of this
    // event-loop turn (http/coalesce-writes.ts), as the customization GET is.
    (request, reply) => {
      reply.header('cache-control', 'no-store');
      const kept = lookup.peekJson(request.body);
      if (kept !== undefined) {
        sendAtEndOfTurn(reply, () => sendJsonText(reply, kept));
        return;
      }
      return lookup.resolveJson(request.body).then((json) => sendJsonText(reply, json));
    },
  );

  app.get(
    '/urls/published',
    {
      schema: {
        operationId: 'getPublishedContentByUrl',
        summary: 'Resolve a URL of a published content',
        description:
          'Deprecated by GitBook: the GET form of resolvePublishedContentByUrl (`POST /v1/urls/published`), with the same answer; the visitor token is `visitorAuthToken`. See docs/deprecations.md.',
        deprecated: true,
        tags: ['urls'],
        querystring: LookupQuerySchema,
        response: responses({ 200: LookupSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { url, visitorAuthToken, redirectOnError } = request.query;
      markDeprecated(reply, urls.deprecations(DOCS_SECTION), `${urls.base}/v1/urls/published`);
      reply.header('cache-control', 'no-store');
      const json = await lookup.resolveJson({
        url,
        redirectOnError,
        ...(visitorAuthToken === undefined ? {} : { visitor: { jwtToken: visitorAuthToken } }),
        names: { url: 'querystring.url', jwtToken: 'querystring.visitorAuthToken' },
      });
      return sendJsonText(reply, json);
    },
  );
};

/** docs/deprecations.md's section on it. */
const DOCS_SECTION = 'get-v1urlspublished';
