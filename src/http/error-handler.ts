import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseConfig } from '../config.js';
import { sqliteFileProblem } from '../db/environment-check.js';
import { DatabaseFault, translateDriverError } from '../db/errors.js';
import { AppError } from '../errors.js';
import type { MethodIndex } from './method-index.js';
import { describeValidationErrors } from './validation-errors.js';

/** GitBook's error body: the official client shows `error.message`. */
export function errorBody(code: number, message: string) {
  return { error: { code, message } };
}

/**
 * The one place where errors become responses. Typed `AppError`s keep their status; Fastify's own
 * client errors (bad JSON, wrong media type, body too large, validation) keep theirs with a
 * clearer message; anything else is our bug: a generic 500, details in the log only.
 */
export function installErrorHandlers(
  app: FastifyInstance,
  methods: MethodIndex,
  database?: DatabaseConfig,
): void {
  app.setErrorHandler((raw: FastifyError | AppError | Error, request, reply) => {
    const error = translateDriverError(raw) as FastifyError | AppError | Error;
    if (error instanceof DatabaseFault) return sendDatabaseFault(error, request, reply, database);
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return send(reply, error.statusCode, error.message);
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation !== undefined) {
      const part = fastifyError.validationContext ?? 'request';
      return send(reply, 400, describeValidationErrors(fastifyError.validation as never, part));
    }
    const status = fastifyError.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return send(reply, status, clientErrorMessage(fastifyError, request));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(
      reply,
      500,
      `Internal server error; quote request id ${request.id} when reporting it`,
    );
  });

  app.setNotFoundHandler((request: FastifyRequest, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = methods.allowed(path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return send(
        reply,
        405,
        `Method ${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
      );
    }
    return send(reply, 404, `No route ${request.method} ${path}`);
  });
}

/**
 * A 503 with Retry-After; the client hears only that the database is unavailable, the log gets
 * one line with the real cause (e.g. "the database file is read-only (/path)" where SQLite says
 * "disk I/O error"), at warn for transient faults and error for those an operator must cure.
 */
async function sendDatabaseFault(
  fault: DatabaseFault,
  request: FastifyRequest,
  reply: FastifyReply,
  database: DatabaseConfig | undefined,
) {
  const found =
    fault.aboutSqliteFile && database?.dialect === 'sqlite' && database.filename !== ':memory:'
      ? await sqliteFileProblem(database.filename).catch(() => undefined)
      : undefined;
  const reason = found === undefined ? fault.reason : `${found}: ${fault.reason}`;
  request.log[fault.severity]({ reason }, `database fault: ${reason}`);
  for (const [name, value] of Object.entries(fault.headers)) reply.header(name, value);
  return send(reply, fault.statusCode, fault.message);
}

const MIB = 1024 * 1024;

/** `1 MiB`, `4.5 MiB`, `512 KiB`. */
export function sizeName(bytes: number): string {
  if (bytes >= MIB) return `${Number((bytes / MIB).toFixed(1))} MiB`;
  return `${Number((bytes / 1024).toFixed(1))} KiB`;
}

function send(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(status, message));
}

function clientErrorMessage(error: FastifyError, request: FastifyRequest): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than the ${sizeName(request.routeOptions.bodyLimit ?? MIB)} limit`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'The request body must be JSON (Content-Type: application/json)';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `The request body is not valid JSON: ${error.message}`;
    case 'FST_CSRF_MISSING_SECRET':
    case 'FST_CSRF_INVALID_TOKEN':
      return 'Missing or invalid CSRF token: a request made with a Livery Studio session must send the x-csrf-token header that GET /studio/session gives';
    default:
      return error.message;
  }
}
