import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import { type TextProblem, textProblem, textProblemMessage } from '../well-formed-text.js';

/**
 * Ill-formed text (well-formed-text.ts: the NUL character, a lone surrogate) is refused wherever
 * a client's text could reach the database or a stored document: PostgreSQL cannot store a NUL,
 * and a lone surrogate is not Unicode (stored, it broke every page of a site). One behaviour on
 * both backends: a 400 naming the field, in the words of the validation messages
 * (validation-errors.ts): `params.organizationId`, `querystring.search`,
 * `body.socialAccounts[0].handle`.
 *
 * Cheap on the hot path, as nothing is walked without a sign of one:
 * - a URL carries a NUL only as `%00`, and a lone surrogate only as the bytes UTF-8 would give it
 *   (`%ED%A0%80` … `%ED%BF%BF`, "WTF-8"): the router refuses those in the path (a 400, see
 *   framework-errors.ts), the query parser keeps them as they are, so the raw query is searched;
 * - JSON text carries a NUL only as the escape `\u0000` and a lone surrogate only as an escape
 *   `\ud800` … `\udfff` (a raw control character is not valid JSON, and the body is decoded from
 *   UTF-8, which turns stray bytes into U+FFFD). `\\u0000` (an escaped backslash, then "u0000")
 *   and surrogate pairs written as escapes also match; the walk then finds nothing.
 */

/** The UTF-8-style bytes of U+D800 to U+DFFF, percent-encoded. */
const ENCODED_SURROGATE = /%ed%[ab][0-9a-f]%[89ab][0-9a-f]/i;
/** The JSON escapes that may hold a NUL or a lone surrogate. */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** Where ill-formed text was found, and what is wrong with it. */
export type IllFormedText = { where: string; problem: TextProblem };

/** The 400 that refuses it. */
export const refusalOf = ({ where, problem }: IllFormedText) =>
  badRequest(textProblemMessage(where, problem));

/** Whether a URL shows a sign of ill-formed text (then illFormedInUrl says where). */
export function urlLooksIllFormed(url: string): boolean {
  return url.includes('%00') || ENCODED_SURROGATE.test(url) || textProblem(url) !== undefined;
}

/** In the `/v1` and `/studio` scopes, before authentication and before anything reads the database. */
export function installTextGuard(scope: FastifyInstance): void {
  scope.addHook('onRequest', (request, _reply, done) => {
    if (!urlLooksIllFormed(request.url)) {
      done();
      return;
    }
    const found = illFormedInUrl(request);
    done(found === undefined ? undefined : refusalOf(found));
  });
}

/** Where a request's path parameters or query string hold ill-formed text, or undefined. */
export function illFormedInUrl(request: FastifyRequest): IllFormedText | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    const problem = typeof value === 'string' ? textProblem(value) : undefined;
    if (problem !== undefined) return { where: `params.${name}`, problem };
  }
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    const inName = textProblem(name);
    if (inName !== undefined)
      return { where: `querystring[${JSON.stringify(name)}]`, problem: inName };
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      const problem = typeof v === 'string' ? textProblem(v) : undefined;
      if (problem !== undefined) return { where: `querystring.${name}`, problem };
    }
  }
  return encodedSurrogateInQuery(request.url);
}

/** A query parameter whose raw text holds a percent-encoded surrogate (left as is by the parser). */
function encodedSurrogateInQuery(url: string): IllFormedText | undefined {
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  for (const pair of url.slice(start + 1).split('&')) {
    if (!ENCODED_SURROGATE.test(pair)) continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decodeOrKeep(rawName.replaceAll('+', ' '));
    const where = ENCODED_SURROGATE.test(rawName)
      ? `querystring[${JSON.stringify(name)}]`
      : `querystring.${name}`;
    return { where, problem: 'lone-surrogate' };
  }
  return undefined;
}

function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Where a JSON body's text holds ill-formed text (in a value or a field name), or undefined.
 * `text` is the body as received: without a suspect escape in it, nothing is walked.
 */
export function illFormedInJson(text: string, body: unknown): IllFormedText | undefined {
  return SUSPECT_ESCAPE.test(text) ? illFormedInBody(body) : undefined;
}

/** The first string of a parsed body holding ill-formed text, as `body.a.b[0]`. Iterative:
 * bodies may be nested deeper than the call stack. */
export function illFormedInBody(body: unknown): IllFormedText | undefined {
  const stack: { value: unknown; at: string }[] = [{ value: body, at: 'body' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, at } = item;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem !== undefined) return { where: at, problem };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], at: `${at}[${i}]` });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, field] = entries[i] as [string, unknown];
        const problem = textProblem(key);
        if (problem !== undefined) return { where: `${at}[${JSON.stringify(key)}]`, problem };
        stack.push({ value: field, at: `${at}.${key}` });
      }
    }
  }
  return undefined;
}
