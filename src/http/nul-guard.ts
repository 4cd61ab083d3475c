import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

/**
 * The NUL character (U+0000) is refused wherever a client's text could reach the database:
 * PostgreSQL cannot store it in a text value ("invalid byte sequence for encoding UTF8: 0x00"),
 * and one behaviour on both backends beats a 404 on SQLite and a 500 on PostgreSQL. The answer is
 * a 400 naming the field, in the words of the validation messages (validation-errors.ts):
 * `params.organizationId`, `querystring.search`, `body.header.links[0].title`.
 *
 * Cheap on the hot path: a URL carries a NUL only as `%00`, and JSON text only as the escape
 * `\u0000` (a raw control character is not valid JSON), so nothing is walked without one of them.
 * `\\u0000` (an escaped backslash, then "u0000") also matches; the walk then finds no NUL.
 */
const NUL = '\u0000';

export const nulMessage = (where: string) => `${where} must not contain the NUL character (U+0000)`;

/** In the `/v1` scope, before authentication and before anything reads the database. */
export function installNulGuard(scope: FastifyInstance): void {
  scope.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.includes('%00')) {
      done();
      return;
    }
    const where = nulInUrl(request);
    done(where === undefined ? undefined : badRequest(nulMessage(where)));
  });
}

/** Where a request's path parameters or query string hold a NUL, or undefined. */
export function nulInUrl(request: FastifyRequest): string | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value.includes(NUL)) return `params.${name}`;
  }
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    if (name.includes(NUL)) return `querystring[${JSON.stringify(name)}]`;
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.includes(NUL))) {
      return `querystring.${name}`;
    }
  }
  return undefined;
}

/**
 * Where a JSON body's text holds a NUL (in a value or a field name), or undefined. `text` is the
 * body as received: without the escape in it, nothing is walked.
 */
export function nulInJson(text: string, body: unknown): string | undefined {
  return text.includes('\\u0000') ? nulInBody(body) : undefined;
}

/** The first string of a parsed body holding a NUL, as `body.a.b[0]`. Iterative: bodies may be
 * nested deeper than the call stack. */
export function nulInBody(body: unknown): string | undefined {
  const stack: { value: unknown; at: string }[] = [{ value: body, at: 'body' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, at } = item;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return at;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], at: `${at}[${i}]` });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, field] = entries[i] as [string, unknown];
        if (key.includes(NUL)) return `${at}[${JSON.stringify(key)}]`;
        stack.push({ value: field, at: `${at}.${key}` });
      }
    }
  }
  return undefined;
}
