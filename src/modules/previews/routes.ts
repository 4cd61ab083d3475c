import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { optionalBody } from '../../http/optional-body.js';
import { NoContent, responses } from '../../http/schemas.js';
import { urlLooksIllFormed } from '../../http/text-guard.js';
import { principalOf } from '../access/permission-checks.js';
import { parseSiteAddress } from '../published/access/address.js';
import { pageCsp, STRICT_CSP } from '../published/rendering/csp.js';
import { plain404 } from '../published/routes.js';
import { CreatePreviewLinkSchema, PreviewLinkSchema, PreviewParams } from './schemas.js';
import { type ChangeRequestPreviewsService, PREVIEW_SEGMENT } from './service.js';

const PATH = '/spaces/:spaceId/change-requests/:changeRequestId/preview-link';
const tags = ['change-requests', 'livery'];

/** `…/change-requests/{changeRequestId}/preview-link` (Livery extension, docs/change-request-previews.md). */
export const previewLinkRoutes: FastifyPluginAsyncTypebox<{
  previews: ChangeRequestPreviewsService;
}> = async (app, { previews }) => {
  app.post(
    PATH,
    {
      preValidation: optionalBody,
      schema: {
        operationId: 'createChangeRequestPreviewLink',
        summary: "Get or make the change request's preview link",
        description:
          "Livery extension. The change request's open preview link, made when it has none (so calling it again answers the same link). Its `url` shows the change request's content as the published site would show the space, to anyone holding it, until the link is deleted or the change request merged or archived (a merged or archived change request is a 409). See docs/change-request-previews.md.",
        tags,
        params: PreviewParams,
        body: CreatePreviewLinkSchema,
        response: responses({ 200: PreviewLinkSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return previews.open({
        spaceId,
        changeRequestId,
        ...(request.body.label === undefined ? {} : { label: request.body.label }),
        actor: principalOf(request).userId,
      });
    },
  );

  app.get(
    PATH,
    {
      schema: {
        operationId: 'getChangeRequestPreviewLink',
        summary: "The change request's preview link",
        description:
          'Livery extension. The open preview link of the change request; 404 when it has none (never made, deleted, or the change request merged or archived).',
        tags,
        params: PreviewParams,
        response: responses({ 200: PreviewLinkSchema }),
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const changeRequest = await previews.changeRequestIn(spaceId, changeRequestId);
      const link = await previews.forChangeRequest(changeRequest.id);
      if (link === undefined) {
        throw new AppError(404, `Change request #${changeRequest.number} has no open preview link`);
      }
      return link;
    },
  );

  app.delete(
    PATH,
    {
      schema: {
        operationId: 'deleteChangeRequestPreviewLink',
        summary: "Close the change request's preview link",
        description:
          'Livery extension. Its address answers 410 from now on; a new link (another address) can be made with POST. 204 whether or not there was an open link.',
        tags,
        params: PreviewParams,
        response: responses({ 204: NoContent('The link is closed (or there was none)') }),
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const changeRequest = await previews.changeRequestIn(spaceId, changeRequestId);
      await previews.close(changeRequest.id, 'closed by an editor');
      return reply.code(204).send();
    },
  );
};

/**
 * `/s/@livery/preview/{id}.{signature}/[{pagePath}]`: a change request's preview for anyone
 * holding its address (no account, no cookie). Registered with the published sites (browser
 * scope, not /v1).
 */
export const previewPageRoutes: FastifyPluginAsyncTypebox<{
  previews: ChangeRequestPreviewsService;
}> = async (app, { previews }) => {
  // Every answer, the 404 and 410 too: never indexed, never cached, never sent on as a referrer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply
      .header('x-robots-tag', 'noindex')
      .header('cache-control', 'private, no-store')
      .header('referrer-policy', 'no-referrer');
    done(null, payload);
  });
  // As the published sites: ill-formed text names no preview (http/text-guard.ts).
  app.addHook('onRequest', (request, reply, done) => {
    if (urlLooksIllFormed(request.url)) {
      plain404(reply);
      return;
    }
    done();
  });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    // `/s/@livery/preview/{token}/…`: the segments after `@livery` (address.ts decodes them and
    // refuses `..`, separators and bad percent-encoding).
    const address = parseSiteAddress(request.url);
    const [preview, token, ...segments] = address?.segments ?? [];
    if (preview !== 'preview' || token === undefined) return plain404(reply);
    const answer = await previews.page(token, segments, request.log);
    switch (answer.kind) {
      case 'missing':
        return plain404(reply);
      case 'ended':
        return reply
          .code(410)
          .header('content-security-policy', STRICT_CSP)
          .type('text/html; charset=utf-8')
          .send(answer.html);
      case 'redirect':
        return reply.code(answer.permanent === true ? 301 : 302).redirect(answer.location);
      case 'markdown':
        return reply
          .header('x-content-type-options', 'nosniff')
          .type('text/markdown; charset=utf-8')
          .send(answer.text);
      case 'html':
        return reply
          .code(answer.status)
          .header('content-security-policy', pageCsp(answer.settings))
          .header('x-content-type-options', 'nosniff')
          .type('text/html; charset=utf-8')
          .send(answer.html);
    }
  };
  app.get(`/s/${PREVIEW_SEGMENT}/:token`, { schema: { hide: true } }, page);
  app.get(`/s/${PREVIEW_SEGMENT}/:token/*`, { schema: { hide: true } }, page);
};
