import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The backend this test run uses: test/run.ts runs the whole suite once per backend, setting
 * LIVERY_TEST_BACKEND (and TEST_DATABASE_URL for PostgreSQL).
 */
export const BACKEND: 'sqlite' | 'postgres' =
  process.env.LIVERY_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** A DATABASE_URL of a fresh, empty database that no other test uses. */
  url: string;
  /** Deletes it. */
  dispose(): Promise<void>;
}

let counter = 0;

/**
 * A fresh database of the run's backend: a new SQLite file in a temporary directory, or a new
 * schema in TEST_DATABASE_URL's database (selected by Livery's `schema` URL parameter), so that
 * tests running in parallel never see each other's rows.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (BACKEND === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'livery-test-'));
    return {
      url: `sqlite:${join(dir, 'livery.db')}`,
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = postgresUrl();
  counter += 1;
  const schema = `t_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return {
    url: url.toString(),
    dispose: async () => {
      await adminQuery(`drop schema if exists "${schema}" cascade`);
    },
  };
}

/** TEST_DATABASE_URL, required when the backend is PostgreSQL. */
export function postgresUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    throw new Error('LIVERY_TEST_BACKEND=postgres needs TEST_DATABASE_URL (postgres://…)');
  }
  return url;
}

/** Runs one statement on TEST_DATABASE_URL's database, outside Livery. */
export async function adminQuery(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
