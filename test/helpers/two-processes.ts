import { createTestDatabase } from './backend.js';
import { call } from './load.js';
import { type ServerProcess, startTwo } from './process.js';

export interface TwoProcesses {
  a: ServerProcess;
  b: ServerProcess;
  /** The organization the two bootstrapped (once, between them). */
  orgId: string;
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * Two Livery processes started at the same moment on a fresh database of the run's backend,
 * bootstrapped with `token`: the way several processes run behind a load balancer.
 */
export async function startTwoOnFreshDatabase(token: string): Promise<TwoProcesses> {
  const database = await createTestDatabase();
  const env = { DATABASE_URL: database.url, LIVERY_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'info' };
  const [a, b] = await startTwo(env);
  const orgs = await call(a.url, token, 'GET', '/v1/orgs');
  const orgId = ((orgs.body.items as { id: string }[])[0] as { id: string }).id;
  return {
    a,
    b,
    orgId,
    databaseUrl: database.url,
    close: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await database.dispose();
    },
  };
}
