import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, badRequest } from '../../../errors.js';
import { responses, SpaceParams } from '../../../http/schemas.js';
import { pushEventOf, sameRepository } from '../webhooks/push-event.js';
import { verifyWebhook } from '../webhooks/verify.js';
import type { GitLinksService } from './service.js';

/** The most a push event may weigh (GitHub caps its payloads at 25 MB; pushes are far smaller). */
const WEBHOOK_BYTES = 10 * 1024 * 1024;

/**
 * `POST /v1/git/webhooks/{spaceId}` (Livery extension, docs/git-sync.md "Webhooks"): push
 * events of GitHub, GitLab and Gitea/Forgejo, each checked as its provider signs them, against
 * the raw bytes received. A push is only a hint to fetch: the branch's state is always read from
 * the repository itself, so a replayed or reordered event changes nothing.
 */
export const gitWebhookRoutes: FastifyPluginAsyncTypebox<{ links: GitLinksService }> = async (
  app,
  { links },
) => {
  // The signature is over the bytes as sent: this route reads its body raw, whatever its type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BYTES },
    (_req, body, done) => done(null, body),
  );
  app.post(
    '/git/webhooks/:spaceId',
    {
      bodyLimit: WEBHOOK_BYTES,
      schema: {
        operationId: 'receiveGitWebhook',
        summary: "Receive a repository's push event",
        description:
          "Livery extension. GitHub (X-Hub-Signature-256), GitLab (X-Gitlab-Token) and Gitea/Forgejo (X-Gitea-Signature) push events for a linked space, signed with the link's webhook secret. 202 with what Livery does about it; 401 when the signature does not match.",
        tags: ['spaces', 'livery'],
        params: SpaceParams,
        response: responses({ 202: Type.Object({ result: Type.String() }) }, [400, 401]),
      },
    },
    async (request, reply) => {
      const spaceId = request.params.spaceId;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const link = await links.webhookSecretOf(spaceId);
      const verified =
        link === undefined
          ? ({ ok: false, reason: 'the space is not linked to a repository' } as const)
          : verifyWebhook({ headers: request.headers, body, secret: link.secret });
      if (!verified.ok || link === undefined) {
        request.log.warn(
          { spaceId, reason: verified.ok ? 'no link' : verified.reason, ip: request.ip },
          'git webhook refused',
        );
        throw new AppError(
          401,
          "The webhook's signature does not match this space's link (or the space is not linked)",
        );
      }
      const event = pushEventOf(
        verified.provider,
        verified.event,
        body,
        request.headers['content-type'],
      );
      if ('invalid' in event) {
        throw badRequest(`body: the push event cannot be read (${event.invalid})`);
      }
      if ('ignored' in event) return reply.code(202).send({ result: event.ignored });
      if (
        event.repositoryUrls.length > 0 &&
        !event.repositoryUrls.some((u) => sameRepository(u, link.row.url))
      ) {
        return reply.code(202).send({ result: 'a push to another repository: ignored' });
      }
      request.log.info(
        { spaceId, provider: verified.provider, delivery: verified.delivery, ref: event.ref },
        'git webhook received',
      );
      const result = await links.pushed(link.row, event);
      return reply.code(202).send({ result });
    },
  );
};
