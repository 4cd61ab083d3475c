import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Db } from '../db/database.js';
import { AppError, badRequest } from '../errors.js';
import {
  bodyHash,
  type IdempotencyOptions,
  IdempotencyStore,
  type RequestFingerprint,
} from './idempotency-store.js';
import { asArray } from './route-hooks.js';
import { responses } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route honours `Idempotency-Key` (installIdempotency): a retry with the same key answers
     * the first response instead of running again. For routes that create something.
     */
    idempotent?: boolean;
  }
}

const HEADER = 'idempotency-key';
const REPLAYED = 'idempotent-replayed';
/** 1 to 255 visible ASCII characters (VCHAR: `!` to `~`). */
const KEY = /^[!-~]{1,255}$/;
/** The response headers stored and replayed with the body. */
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'last-modified'] as const;

/**
 * `Idempotency-Key` for the routes of this scope that opt in with `config: { idempotent: true }`
 * (docs/api.md, "Idempotency"). To be called in the `/v1` scope after the bearer hook (keys
 * belong to the authenticated user) and before the routes are registered. Other routes get no
 * hook at all; opted-in routes cost one header check when the header is absent.
 */
export function installIdempotency(
  app: FastifyInstance,
  {
    db,
    keyOwnerOf,
    ...options
  }: {
    db: Db;
    /** Whose keys a request uses: the authenticated user (http/ knows no principal). */
    keyOwnerOf: (request: FastifyRequest) => string;
  } & IdempotencyOptions,
): IdempotencyStore {
  const store = new IdempotencyStore(db, options);
  /** The claimed key's row id of a request that runs for the first time. */
  const claims = new WeakMap<FastifyRequest, string>();

  async function begin(request: FastifyRequest, reply: FastifyReply, key: string) {
    if (!KEY.test(key)) {
      throw badRequest(
        'The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces)',
      );
    }
    const userId = keyOwnerOf(request);
    try {
      await store.purgeIfDue();
    } catch (error) {
      request.log.warn({ err: error }, 'purge of expired idempotency keys failed');
    }
    const claim = await store.claim(userId, key, fingerprintOf(request));
    switch (claim.kind) {
      case 'claimed':
        claims.set(request, claim.id);
        return false;
      case 'replay': {
        const { status, headers, body } = claim.response;
        reply.code(status);
        for (const [name, value] of Object.entries(headers)) reply.header(name, value);
        reply.header(REPLAYED, 'true').send(Buffer.from(body, 'utf8'));
        return true;
      }
      case 'in-progress':
        throw new AppError(
          409,
          'A request with this Idempotency-Key is still in progress; retry it shortly',
          { 'retry-after': '1' },
        );
      case 'mismatch': {
        const { method, path } = claim;
        const same = method === request.method && path === fingerprintOf(request).path;
        throw new AppError(
          422,
          same
            ? 'This Idempotency-Key was already used with a different request body; use a new key for a different request'
            : `This Idempotency-Key was already used with a different request (${method} ${path}); use a new key for a different request`,
        );
      }
    }
  }

  // Callback style: without the header nothing is awaited. Before the body is validated, so a
  // validation error is stored (and replayed) like any other response.
  function preValidation(request: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) {
    const key = request.headers[HEADER];
    if (key === undefined) {
      done();
      return;
    }
    // Repeated headers (joined by Node with ", ") are invalid: a key has no spaces.
    begin(request, reply, Array.isArray(key) ? key.join(', ') : key).then(
      // Replayed: the response is sent, the chain stops here.
      (replayed) => {
        if (!replayed) done();
      },
      (error: Error) => done(error),
    );
  }

  function onSend(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ) {
    const id = request.headers[HEADER] === undefined ? undefined : claims.get(request);
    if (id === undefined) {
      done(null, payload);
      return;
    }
    claims.delete(request);
    const body = bodyText(payload);
    const settle =
      reply.statusCode >= 500 || body === undefined
        ? store.release(id)
        : store.complete(id, { status: reply.statusCode, headers: keptHeaders(reply), body });
    settle.then(
      () => done(null, payload),
      (error: unknown) => {
        // The response itself is not at fault: it is sent; a retry with the key gets a 409
        // until the key counts as abandoned (then it runs again).
        request.log.error({ err: error }, 'could not store the response of an Idempotency-Key');
        done(null, payload);
      },
    );
  }

  app.addHook('onRoute', (route) => {
    if (route.config?.idempotent !== true) return;
    route.preValidation = [preValidation, ...asArray(route.preValidation)] as never;
    route.onSend = [...asArray(route.onSend), onSend] as never;
    route.schema = documented(route.schema);
  });
  return store;
}

/** Method, path (trailing slash ignored, as the router does) with query string, body hash. */
function fingerprintOf(request: FastifyRequest): RequestFingerprint {
  const at = request.url.indexOf('?');
  let path = at === -1 ? request.url : request.url.slice(0, at);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const query = at === -1 ? '' : request.url.slice(at);
  return { method: request.method, path: path + query, hash: bodyHash(request.body) };
}

function bodyText(payload: unknown): string | undefined {
  if (payload === undefined || payload === null) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined; // a stream: not stored, the key is released
}

function keptHeaders(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI: the header parameter, the response header, the 409 and 422 responses.

type Schema = NonNullable<RouteOptions['schema']>;

const KeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[!-~]+$',
  description:
    'A unique value (e.g. a UUID) that makes a retry of this request safe: a request repeated with the same key within 24 hours is not run again, it answers the first response (with `Idempotent-Replayed: true`). Keys belong to the user; see docs/api.md, "Idempotency".',
});

const REPLAYED_HEADER = {
  type: 'string',
  enum: ['true'],
  description: 'Present when this is the stored response of an earlier request with the same key',
};

const CONFLICT =
  'Conflict; or a request with the same Idempotency-Key is still in progress (retry after `Retry-After` seconds)';
const MISMATCH =
  'Unprocessable Content: the Idempotency-Key was already used with a different request (method, path or body)';

function documented(schema: RouteOptions['schema']): Schema {
  const base = (schema ?? {}) as Schema & { headers?: { properties?: Record<string, TSchema> } };
  const errors = responses({}, [409, 422]) as Record<string, TSchema>;
  const response: Record<string, unknown> = {
    ...((base.response as Record<string, unknown> | undefined) ?? {}),
  };
  // Any response of the route itself but a 5xx may be a replay.
  for (const [status, value] of Object.entries(response)) {
    if (Number(status) >= 500 || typeof value !== 'object' || value === null) continue;
    const withHeaders = value as { headers?: Record<string, unknown> };
    response[status] = {
      ...value,
      headers: { ...withHeaders.headers, [REPLAYED]: REPLAYED_HEADER },
    };
  }
  response['409'] = { ...(response['409'] ?? errors['409']), description: CONFLICT };
  response['422'] = { ...errors['422'], description: MISMATCH };
  return {
    ...base,
    headers: Type.Object({
      ...(base.headers?.properties ?? {}),
      // Fastify matches header schemas case-insensitively; the document shows this spelling.
      'Idempotency-Key': Type.Optional(KeyHeader),
    }),
    response,
  };
}
