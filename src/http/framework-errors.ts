import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Requests Fastify's router refuses before any route runs (Fastify's `frameworkErrors`): a path
 * that is not valid percent-encoding, or a path parameter longer than the router allows. The API
 * answers them in GitBook's envelope; a published site's address is a plain 404 (it names no page),
 * the published module's `plain404`, which the app passes in (http/ imports no module).
 */
export function frameworkErrors(
  error: Error & { code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
  plain404: (reply: FastifyReply) => unknown,
): void {
  reply.header('x-request-id', request.id);
  if (request.url.startsWith('/s/')) {
    plain404(reply);
    return;
  }
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, 'path: a path parameter is longer than 256 characters']
      : [400, 'path: the URL path is not valid percent-encoding (UTF-8)'];
  void reply.code(status).send({ error: { code: status, message } });
}
