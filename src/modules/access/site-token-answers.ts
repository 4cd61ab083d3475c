import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BoundedCache } from '../../bounded-cache.js';
import { AppError } from '../../errors.js';
import { asArray } from '../../http/route-hooks.js';
import { SITE_TOKEN_READS } from '../site-tokens/public-view.js';
import { PERMISSIONS } from './permissions.js';

/** Public answers kept, by the size of their text and of the answer they were made from. */
const KEPT_CHARACTERS = 32 * 1024 * 1024;

/**
 * The one place where every answer to a site token is made public (site-tokens/public-view.ts):
 * each operation the permission table opens to site tokens gets an `onSend` hook applying its
 * entry of SITE_TOKEN_READS, and an operation without an entry fails at start-up, so none can
 * answer a site token unfiltered. Answers to members are untouched.
 *
 * The answer is JSON text by then. The public text is kept, by operation and path, with the text
 * it was made from, and reused while a request gets that same text again: the published view is
 * the renderer's cached text (the same string while the database is unchanged), so its public
 * form costs a lookup on every page view; a revision's text never changes. (Not by query string:
 * none changes these answers, and a token could otherwise fill the cache with variants.)
 */
export function installSiteTokenAnswers(app: FastifyInstance): void {
  const kept = new BoundedCache<{ from: string; text: string }>(KEPT_CHARACTERS);

  const publicText = (key: string, from: string, answer: (body: unknown) => unknown) => {
    const hit = kept.get(key);
    if (hit !== undefined && hit.from === from) return hit.text;
    const text = JSON.stringify(answer(JSON.parse(from)));
    kept.set(key, { from, text }, from.length + text.length);
    return text;
  };

  app.addHook('onRoute', (route) => {
    const operationId = (route.schema as { operationId?: string } | undefined)?.operationId;
    if (operationId === undefined || PERMISSIONS[operationId]?.siteToken !== true) return;
    const read = SITE_TOKEN_READS[operationId];
    if (read === undefined) {
      throw new Error(`${operationId} is open to site tokens but public-view.ts has no answer`);
    }
    const { answer } = read;
    if (answer === undefined) return;
    const onSend = (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: Error | null, payload?: unknown) => void,
    ) => {
      if (request.siteToken === null || reply.statusCode >= 300) {
        done(null, payload);
      } else if (typeof payload !== 'string') {
        // Nothing leaves unfiltered: an answer this hook cannot read is a fault, not a pass.
        done(new AppError(500, `${operationId}: the answer to a site token is not JSON text`));
      } else {
        const path = request.url.split('?', 1)[0];
        let text: string;
        try {
          text = publicText(`${operationId} ${path}`, payload, answer);
        } catch (error) {
          done(error as Error);
          return;
        }
        done(null, text);
      }
    };
    route.onSend = [...asArray(route.onSend), onSend] as never;
  });
}
