import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { DestinationStream } from 'pino';
import { ensureSiteAssets } from '../../scripts/build-site-assets.js';
import { buildApp, buildServices } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from './backend.js';

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** The DATABASE_URL of this app's database, for a second process or the CLI. */
  databaseUrl: string;
  services: ReturnType<typeof buildServices>;
  /** The owner of `orgId` (role admin) and their token. */
  token: string;
  userId: string;
  orgId: string;
  /** Sends a request with the owner's token unless `headers.authorization` says otherwise. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A real app on a real, fresh database of the run's backend (test/helpers/backend.ts; migrations
 * applied) with one organization and its owner. Each call gets its own SQLite file or PostgreSQL
 * schema, so tests never share state.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  logStream?: DestinationStream,
): Promise<TestContext> {
  // The app serves the published site's built script and stylesheet (a file run alone builds them).
  ensureSiteAssets();
  const database = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    // Load shedding measures this process's event loop, which the test runner itself stalls
    // (compiling apps, property loops); test/process/operations.test.ts turns it on where it is tested.
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    BASE_URL: 'http://livery.test',
    // Never the default ./data/secret.key: a test writes nothing into the checkout.
    SECRET_KEY: 'a-test-secret-key-of-at-least-32-characters',
    ...env,
  });
  const db = openDatabase(config.database);
  let services: ReturnType<typeof buildServices>;
  let owner: Awaited<ReturnType<typeof services.identity.createOrganizationWithOwner>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    await migrateToLatest(db);
    services = buildServices({ config, db });
    owner = await services.identity.createOrganizationWithOwner({
      title: 'Test organization',
      ownerName: 'Owner',
    });
    app = await buildApp({ config, db, ...(logStream === undefined ? {} : { logStream }) });
    await app.ready();
  } catch (error) {
    // A half-made test app must not leave its connections open: they would keep the test
    // process alive after its last test, and the run would never end.
    await db.destroy().catch(() => {});
    await database.dispose().catch(() => {});
    throw error;
  }
  const token = owner.token;
  return {
    app,
    db,
    config,
    databaseUrl: database.url,
    services,
    token,
    userId: owner.user.id,
    orgId: owner.organization.id,
    request: (options) =>
      app.inject({
        ...options,
        headers: { authorization: `Bearer ${token}`, ...(options.headers ?? {}) },
      }),
    close: async () => {
      await app.close();
      await services.workers.close();
      await db.destroy();
      await database.dispose();
    },
  };
}

export interface SiteFixture {
  siteId: string;
  /** Site-space ids, the default (first) one first. */
  siteSpaceIds: string[];
  spaceIds: string[];
  base: string;
}

/** A site with `variants` site-spaces, through the API. */
export async function createSite(t: TestContext, variants = 2): Promise<SiteFixture> {
  const spaceIds: string[] = [];
  for (let i = 0; i < variants; i++) {
    const space = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: { title: `Variant ${i}` },
    });
    spaceIds.push(expectStatus(space, 201).id as string);
  }
  const site = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Docs', spaces: spaceIds },
  });
  const siteId = expectStatus(site, 201).id as string;
  const list = await t.request({
    method: 'GET',
    url: `/v1/orgs/${t.orgId}/sites/${siteId}/site-spaces`,
  });
  const siteSpaceIds = (expectStatus(list, 200).items as { id: string }[]).map((s) => s.id);
  return { siteId, siteSpaceIds, spaceIds, base: `/v1/orgs/${t.orgId}/sites/${siteId}` };
}

/** Asserts the status (showing the body when it differs) and returns the parsed JSON body. */
export function expectStatus(
  response: LightMyRequestResponse,
  status: number,
): Record<string, unknown> {
  if (response.statusCode !== status) {
    throw new Error(`Expected HTTP ${status}, got ${response.statusCode}: ${response.body}`);
  }
  return response.body === '' ? {} : (response.json() as Record<string, unknown>);
}

/** Asserts a GitBook error envelope with that status; returns its message. */
export function expectError(response: LightMyRequestResponse, status: number): string {
  const body = expectStatus(response, status) as { error?: { code?: unknown; message?: unknown } };
  if (body.error?.code !== status || typeof body.error.message !== 'string') {
    throw new Error(`Not an error envelope for ${status}: ${response.body}`);
  }
  return body.error.message;
}
