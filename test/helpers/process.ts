import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ensureSiteAssets } from '../../scripts/build-site-assets.js';
import { createTestDatabase } from './backend.js';
import { call } from './load.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything written to stdout so far. */
  stdout(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the server (by default `src/server.ts` through tsx) on a free port, and resolves once
 * it listens.
 * `env` is added to a minimal environment (no inherited DATABASE_URL or PORT).
 */
export async function startServer(
  env: Record<string, string>,
  /** `node`'s arguments: the sources through tsx, or the compiled server (see npm start). */
  nodeArgs: string[] = ['--import', 'tsx', 'src/server.ts'],
): Promise<ServerProcess> {
  ensureSiteAssets(); // the server reads the published site's built script and stylesheet
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      LOG_LEVEL: 'info',
      // These servers take write storms from one token on a loaded machine: what they test is
      // durability and coherence, not rate limits or load shedding (test/process/operations.test.ts).
      RATE_LIMIT_PER_MINUTE: '0',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    err += String(chunk);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a server that did not start must not outlive the test
      reject(new Error(`server did not start:\n${out}\n${err}`));
    }, 60_000);
    const check = () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}\n${err}`));
    });
  });
  return {
    child,
    url,
    stdout: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Runs a command to completion; resolves with its exit code and output. */
export async function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  ensureSiteAssets(); // a server run to completion reads them too
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout += String(c);
  });
  child.stderr.on('data', (c) => {
    stderr += String(c);
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** The environment of a server that bootstraps a fresh database with `token` as its owner's. */
export function bootstrapEnv(databaseUrl: string, token: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, LIVERY_BOOTSTRAP_TOKEN: token };
}

/** The id of the organization a server bootstrapped (the first it lists). */
export async function firstOrgId(url: string, token: string): Promise<string> {
  const orgs = await call(url, token, 'GET', '/v1/orgs');
  assert.equal(orgs.status, 200, JSON.stringify(orgs.body));
  const [org] = orgs.body.items as { id: string }[];
  assert.ok(org, 'the server has an organization');
  return org.id;
}

/**
 * `count` Livery processes started at the same moment on one database (`env` adds to each), as
 * several processes run behind a load balancer; if any fails to start, the others are killed
 * and the first failure is thrown.
 */
export async function startTogether(
  env: Record<string, string>,
  count: number,
): Promise<ServerProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer(env)));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed !== undefined) {
    for (const r of started) if (r.status === 'fulfilled') await r.value.stop('SIGKILL');
    throw failed.reason;
  }
  return started.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value);
}

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
  const [a, b] = (await startTogether(bootstrapEnv(database.url, token), 2)) as [
    ServerProcess,
    ServerProcess,
  ];
  return {
    a,
    b,
    orgId: await firstOrgId(a.url, token),
    databaseUrl: database.url,
    close: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await database.dispose();
    },
  };
}
