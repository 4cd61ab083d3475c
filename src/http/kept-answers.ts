import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BoundedCache } from '../bounded-cache.js';
import { CompressibleBody, setEncodingHeaders } from './content-coding.js';
import { asArray } from './route-hooks.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's 200 answer is JSON text read again and again unchanged (the published view
     * GitBook's renderer reads on every page view): it is sent as kept (installKeptAnswers).
     */
    keptAnswer?: boolean;
  }
}

/** Bodies kept with their compressed forms, by size. */
const KEPT_BYTES = 16 * 1024 * 1024;

/**
 * For the routes of this scope that opt in with `config: { keptAnswer: true }`: their final JSON
 * text (as it leaves, after every other `onSend`, such as the site-token filter) is kept with its
 * strong ETag and its compressed forms (http/content-coding.ts), made once while the text is the
 * same, and each request gets the coding it prefers, or a 304 for the ETag it already has. To be
 * called after the hooks that change answers (installSiteTokenAnswers), before the routes.
 *
 * Kept by request path and caller kind, each with the text it was made from: a request whose
 * text differs (the database changed, another reader's answer) makes it again. The services
 * keep their texts (the same string while nothing changes), so a hit is a pointer comparison.
 */
export function installKeptAnswers(
  app: FastifyInstance,
  readerOf: (request: FastifyRequest) => string,
): void {
  const kept = new BoundedCache<{ from: string; body: CompressibleBody }>(KEPT_BYTES);

  const bodyOf = (key: string, text: string) => {
    const hit = kept.get(key);
    if (hit !== undefined && hit.from === text) return hit.body;
    const body = new CompressibleBody(Buffer.from(text));
    kept.set(key, { from: text, body }, 2 * body.identity.body.length);
    return body;
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const path = request.url.split('?', 1)[0];
    const body = bodyOf(`${readerOf(request)} ${path}`, payload);
    const chosen = body.encodedFor(request.headers['accept-encoding']);
    const encoded = chosen instanceof Promise ? await chosen : chosen;
    if (setEncodingHeaders(request, reply, body, encoded, { etag: true })) {
      reply.code(304);
      return null;
    }
    return encoded.body;
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.keptAnswer !== true) return;
    route.onSend = [...asArray(route.onSend), onSend] as never;
  });
}
