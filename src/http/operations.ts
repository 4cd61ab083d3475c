import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { installMetrics } from './metrics.js';
import { installPressure, type PressureSources } from './pressure.js';
import { installReadiness } from './readiness.js';

export { installRateLimit } from './rate-limit.js';
export { serverTimeouts } from './timeouts.js';

/** Routes that keep answering under pressure: probes and metrics observe an overloaded process. */
const PRESSURE_EXEMPT: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Operations (docs/operations.md): `GET /readyz`, the 503 of a closing server, `GET /metrics`
 * and load shedding. Installed at the root, before `/healthz` and `/v1`, so that their hooks see
 * every request; routes registered earlier in a plugin of their own (Swagger UI's files under
 * `/docs`) are neither counted nor shed. Rate limits are installed in the `/v1` scope
 * (installRateLimit) and timeouts are server options (serverTimeouts).
 */
export async function installOperations(
  app: FastifyInstance,
  { config, db }: { config: Config; db: Db },
  sources?: PressureSources,
): Promise<void> {
  installReadiness(app, db, config.database);
  installMetrics(app, db);
  await installPressure(app, config, PRESSURE_EXEMPT, sources);
}
