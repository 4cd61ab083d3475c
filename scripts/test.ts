/**
 * `npm test` after type check and lint: the whole suite on SQLite, then, when TEST_DATABASE_URL
 * is set, the whole suite again on PostgreSQL. The last lines say which backends ran. A backend
 * that was asked for but cannot be reached fails the run; one that was not asked for is named as
 * not tested.
 *
 * The suite is in tiers, one folder of test/ each (README, "Tests in tiers"); arguments name the
 * tiers to run (`npm run test:unit` is `scripts/test.ts unit`), none means all of them. The unit
 * and performance tiers touch no database: run alone, they run once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { ensureChromium } from './chromium.js';
import { ensureGit } from './git.js';

const TIERS = ['unit', 'http', 'process', 'browser', 'conformance', 'performance'] as const;
type Tier = (typeof TIERS)[number];

const asked = process.argv.slice(2);
for (const name of asked) {
  if (!(TIERS as readonly string[]).includes(name)) {
    process.stderr.write(`scripts/test.ts: no tier "${name}" (tiers: ${TIERS.join(', ')})\n`);
    process.exit(2);
  }
}
const tiers: readonly Tier[] = asked.length === 0 ? TIERS : (asked as Tier[]);

/**
 * Every test file of the tiers (test/<tier>/<name>.test.ts), in the order of their names across
 * tiers: the order the flat test/ had, so that two files at a time make the same schedule.
 */
const files = tiers
  .flatMap((tier) => {
    const folder = `test/${tier}`;
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => ({ name, path: `${folder}/${name}` }));
  })
  .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  .map((file) => file.path);

// A test file outside the tiers would be run by no one: each file belongs to one tier.
const strays = readdirSync('test').filter(
  (name) => name !== 'helpers' && !(TIERS as readonly string[]).includes(name),
);
if (strays.length > 0) {
  process.stderr.write(`scripts/test.ts: in test/ but in no tier: ${strays.join(', ')}\n`);
  process.exit(2);
}

interface Outcome {
  backend: string;
  ok: boolean;
  detail: string;
}

function runSuite(backend: 'sqlite' | 'postgres'): Outcome {
  process.stdout.write(`\n=== Test suite on ${backend} ===\n`);
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', ...hangGuards(), ...files],
    { stdio: 'inherit', env: { ...process.env, LIVERY_TEST_BACKEND: backend } },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  return {
    backend,
    ok: result.status === 0,
    detail: result.status === 0 ? `passed in ${seconds} s` : `FAILED (exit ${result.status})`,
  };
}

/**
 * A run must end. A test that waits forever fails after 3 minutes (the longest takes about 30 s);
 * a test file whose tests are done but that leaked an open connection is ended instead of keeping
 * the run alive forever (the leak itself is a bug: its test fails or it is fixed, as in
 * test/helpers/app.ts). Node 20.14+ / 22 have both flags; older Node 20 releases run without.
 */
function hangGuards(): string[] {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const supported = major > 20 || (major === 20 && minor >= 14);
  return supported ? ['--test-timeout=180000', '--test-force-exit'] : [];
}

async function postgresReachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

// Git Sync's tests make real repositories with Debian's git: installed here when missing.
const git = ensureGit((line) => process.stdout.write(`${line}\n`));
if (git !== undefined) process.stdout.write(`git: ${git}\n`);

// The browser tests need Debian's Chromium: installed here when missing (and allowed).
if (tiers.includes('browser')) {
  const chromium = ensureChromium((line) => process.stdout.write(`${line}\n`));
  if (chromium !== undefined) process.stdout.write(`chromium: ${chromium}\n`);
}

const outcomes: Outcome[] = [runSuite('sqlite')];
const url = process.env.TEST_DATABASE_URL;
const databaseFree = tiers.every((tier) => tier === 'unit' || tier === 'performance');
let notTested: string | undefined;
if (databaseFree) {
  notTested = `no database: ${tiers.join(' and ')} ran once`;
} else if (url === undefined || url === '') {
  notTested =
    'PostgreSQL was NOT tested: set TEST_DATABASE_URL=postgres://… to run the suite on it';
} else {
  const problem = await postgresReachable(url);
  if (problem === undefined) outcomes.push(runSuite('postgres'));
  else outcomes.push({ backend: 'postgres', ok: false, detail: `UNREACHABLE (${problem})` });
}

process.stdout.write('\n=== Backends ===\n');
for (const o of outcomes) process.stdout.write(`  ${o.backend}: ${o.detail}\n`);
if (notTested !== undefined) process.stdout.write(`  ${notTested}\n`);
process.exitCode = outcomes.every((o) => o.ok) ? 0 : 1;
