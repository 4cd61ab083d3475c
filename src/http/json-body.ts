import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { badRequest } from '../errors.js';
import { illFormedInJson, refusalOf } from './text-guard.js';

export const BODY_LIMIT = 1024 * 1024;

/**
 * JSON is the only body format: every other media type, `text/plain` included, is a 415.
 *
 * Keys that would reach an object's prototype (`__proto__`, `constructor.prototype`) are refused,
 * not stripped, and so is ill-formed text (a NUL, a lone surrogate) anywhere in the body, in a
 * value or a field name (text-guard.ts). An empty body is
 * "no body": the official client sends `Content-Type: application/json` with no body when an
 * optional body is left out (e.g. `createSite(orgId)`).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    // application/json, and structured-syntax types such as application/merge-patch+json
    /^application\/(?:[\w.-]+\+)?json$/i,
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => {
      const text = body.toString();
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      let parsed: unknown;
      try {
        parsed = secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' });
      } catch (error) {
        done(badRequest(describeJsonError(error)), undefined);
        return;
      }
      // Refused here, for every route: no ill-formed text reaches a service (text-guard.ts).
      const illFormed = illFormedInJson(text, parsed);
      if (illFormed === undefined) done(null, parsed);
      else done(refusalOf(illFormed), undefined);
    },
  );
}

function describeJsonError(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/prototype/.test(message)) {
    return 'The request body contains a forbidden key (__proto__ or constructor.prototype)';
  }
  // JSON.parse's own message says where the text stops being JSON, and nothing about us.
  return `The request body is not valid JSON: ${message}`;
}
