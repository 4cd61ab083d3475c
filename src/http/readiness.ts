import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/database.js';
import { migrationStatus } from '../db/migration-status.js';
import { AppError } from '../errors.js';

const NOT_READY =
  'Not ready: the database does not answer, a migration is pending or the server is shutting down';

/**
 * `GET /readyz` (docs/operations.md, "Health and readiness"): 200 when this process can serve,
 * i.e. the database answers and has every migration this code knows of; a 503 in GitBook's
 * envelope otherwise. `GET /healthz` (app.ts) stays the liveness probe.
 *
 * Once `app.close()` begins (SIGTERM, see server.ts), the requests that still arrive on open
 * connections, `/readyz` included, get a 503 in the envelope with `Connection: close`; this
 * replaces Fastify's `return503OnClosing`, whose body is not GitBook's envelope.
 */
export function installReadiness(app: FastifyInstance, db: Db): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!closing) return done();
    done(
      new AppError(503, 'The server is shutting down; please retry', {
        connection: 'close',
        'retry-after': '1',
      }),
    );
  });

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers and is fully migrated',
        tags: ['operations'],
        response: {
          200: Type.Object(
            { status: Type.Literal('ready') },
            { description: 'Ready: route traffic to this process' },
          ),
          503: Type.Object(
            {
              error: Type.Object({
                code: Type.Integer({ description: 'The HTTP status code' }),
                message: Type.String({ description: 'Why this process is not ready' }),
              }),
            },
            { description: NOT_READY },
          ),
        },
      },
    },
    async (request) => {
      let pending: string[];
      try {
        ({ pending } = await migrationStatus(db));
      } catch (error) {
        request.log.warn({ err: error }, 'readiness: the database check failed');
        throw new AppError(503, 'Not ready: the database does not answer');
      }
      if (pending.length > 0) {
        throw new AppError(503, `Not ready: migrations pending: ${pending.join(', ')}`);
      }
      return { status: 'ready' as const };
    },
  );
}
