import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { DatabaseConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { writeBlocker } from '../db/environment-check.js';
import { describeDriverError, environmentFault } from '../db/errors.js';
import { migrationStatus } from '../db/migration-status.js';
import { AppError } from '../errors.js';

const NOT_READY =
  'Not ready: the database does not answer, misses tables or migrations or cannot take writes (read-only, disk full), the server is overloaded or shutting down';

/**
 * `GET /readyz` (docs/operations.md, "Health and readiness"): 200 when this process can serve,
 * i.e. the database answers, has every migration this code knows of and can take writes, and load
 * shedding is not refusing requests; otherwise a 503 in GitBook's envelope, with `Retry-After`,
 * whose message names the cause. `GET /healthz` (app.ts) stays the liveness probe.
 *
 * Once `app.close()` begins (SIGTERM, see server.ts), the requests that still arrive on open
 * connections, `/readyz` included, get a 503 in the envelope with `Connection: close`; this
 * replaces Fastify's `return503OnClosing`, whose body is not GitBook's envelope.
 */
export function installReadiness(app: FastifyInstance, db: Db, database: DatabaseConfig): void {
  let closing = false;
  let lastReason: string | undefined;
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
      const { reason, detail } = await notReadyReason(app, db, database);
      if (reason !== lastReason) {
        // Probes come every few seconds: one line when the answer changes, not one per probe.
        if (reason === undefined) request.log.info('readiness: ready');
        else request.log.warn({ reason, detail }, `readiness: not ready: ${reason}`);
        lastReason = reason;
      }
      if (reason !== undefined) {
        throw new AppError(503, `Not ready: ${reason}`, { 'retry-after': '5' });
      }
      return { status: 'ready' as const };
    },
  );
}

interface Verdict {
  /** Why this process should get no traffic now, in words for the response; undefined: ready. */
  reason?: string;
  /** The driver's words, for the log only. */
  detail?: string;
}

async function notReadyReason(
  app: FastifyInstance,
  db: Db,
  database: DatabaseConfig,
): Promise<Verdict> {
  // A process that refuses /v1 requests for load must not say it is ready (docs/operations.md).
  if (app.hasDecorator('isUnderPressure') && app.isUnderPressure()) {
    return { reason: 'the server is overloaded and refuses requests (load shedding)' };
  }
  try {
    const { pending } = await migrationStatus(db);
    if (pending.length > 0) return { reason: `migrations pending: ${pending.join(', ')}` };
    const blocker = await writeBlocker(db, database);
    return blocker === undefined ? {} : { reason: blocker };
  } catch (error) {
    const detail = describeDriverError(error);
    return { reason: environmentFault(error) ?? 'the database does not answer', detail };
  }
}
