/**
 * `npm run seed -- --sites 100000 --variants 5 [--token gb_…]`: fills the database named by
 * DATABASE_URL (SQLite or PostgreSQL) with many sites, fast, for scale tests and benchmarks.
 *
 * - Runs the migrations first, like the server.
 * - Reuses the organization whose admin holds the given token (`--token`, else
 *   LIVERY_BOOTSTRAP_TOKEN), or creates an organization, its owner (admin) and that token through
 *   Livery's own identity service, exactly as the first start or `livery orgs create` does. On an
 *   empty database it is the first-start organization, so the server will not bootstrap another.
 *   Without a token, a new one is generated and printed.
 * - Inserts N published sites (basename `p-<id>`), each with V spaces and V site-spaces (position 1 is the default; paths are
 *   unique per site), in batched multi-row INSERTs (within the dialect's parameter limit), one
 *   transaction per batch of sites. Half of the sites carry a customization and about a third of
 *   the variants an override; both are made by Livery's own code from request bodies validated
 *   by the API's own body schemas, with the versions one PUT or one PATCH would leave. So every
 *   row is one the API itself could have written, and the server serves them as such.
 *
 * Prints progress, the total time and rows/s, then the organization id and one site and
 * site-space to query, and a last line `seed-result {json}` for scripts.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../src/config.js';
import { type Db, openDatabase } from '../src/db/database.js';
import { isPostgres } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { SiteRow, SiteSpaceRow, SpaceRow } from '../src/db/schema.js';
import { createBodyAjv } from '../src/http/validation.js';
import { IdentityRepository } from '../src/modules/identity/repository.js';
import { IdentityService } from '../src/modules/identity/service.js';
import { generateToken, hashToken } from '../src/modules/identity/tokens.js';
import { initialRevisionRow, newSpaceRow } from '../src/modules/spaces/service.js';
import { canonicalPatch } from '../src/settings/canonical.js';
import { DEFAULT_SETTINGS } from '../src/settings/defaults.js';
import { mergeOverride, settingsFromInput } from '../src/settings/merge.js';
import {
  OverridePatchSchema,
  SettingsInputSchema,
  type SettingsPatch,
} from '../src/settings/settings-schema.js';
import { slugify, uniqueSlug } from '../src/slug.js';
import { Urls } from '../src/urls.js';

const USAGE = `Usage: npm run seed -- [--sites N] [--variants V] [--token <API token>] [--batch B]

  --sites N      sites to add (default 1000)
  --variants V   spaces and site-spaces per site (default 5, at least 1)
  --token T      the owner's API token (default LIVERY_BOOTSTRAP_TOKEN, else a new one, printed)
  --batch B      sites per transaction (default 1000)

Writes to DATABASE_URL like the server (default sqlite:./data/livery.db).`;

/** Bound parameters per statement: SQLite's SQLITE_MAX_VARIABLE_NUMBER, PostgreSQL's protocol. */
const PARAMETER_LIMIT = { sqlite: 32_766, postgres: 65_535 };
/** Larger statements gain nothing measurable and cost more to build and compile. */
const MAX_ROWS_PER_STATEMENT = 2_000;
const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*$/;

interface SeedResult {
  organizationId: string;
  userId: string;
  sites: number;
  variants: number;
  rows: number;
  seconds: number;
  siteId: string;
  siteSpaceId: string;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      sites: { type: 'string', default: '1000' },
      variants: { type: 'string', default: '5' },
      token: { type: 'string' },
      batch: { type: 'string', default: '1000' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const sites = positiveInteger(values.sites, '--sites', 0);
  const variants = positiveInteger(values.variants, '--variants', 1);
  const batch = positiveInteger(values.batch, '--batch', 1);
  const given = values.token ?? (process.env.LIVERY_BOOTSTRAP_TOKEN || undefined);
  if (given !== undefined && (!TOKEN68.test(given) || given.length < 20)) {
    throw new UsageError('--token must be at least 20 characters of A-Z a-z 0-9 . _ ~ + / -');
  }
  const token = given ?? generateToken();

  const config = loadConfig();
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    // SQLite: a larger page cache for this connection only (the file is unchanged by it), so
    // that index pages stay in memory while rows with random ids land all over the B-trees.
    if (!isPostgres(db)) await sql`pragma cache_size = -262144`.execute(db);
    const owner = await organizationFor(db, token, config.orgTitle);
    if (owner.created) {
      process.stdout.write(`Created organization ${owner.organizationId} and its owner.\n`);
      if (given === undefined) process.stdout.write(`API token of the owner: ${token}\n`);
    } else {
      process.stdout.write(`Reusing organization ${owner.organizationId} (the token's admin).\n`);
    }
    const result = await seedSites(db, {
      organizationId: owner.organizationId,
      sites,
      variants,
      batch,
      progress: (line) => process.stdout.write(`${line}\n`),
    });
    const where =
      config.database.dialect === 'postgres'
        ? `PostgreSQL ${config.database.display} schema ${config.database.schema}`
        : `SQLite ${config.database.filename}`;
    process.stdout.write(
      [
        '',
        `Seeded ${sites} sites x ${variants} variants into ${where}:`,
        `  ${result.rows} rows in ${result.seconds.toFixed(1)} s (${Math.round(result.rows / Math.max(result.seconds, 0.001))} rows/s)`,
        `  organization: ${owner.organizationId}`,
        ...(result.siteId === ''
          ? []
          : [
              `  a site:       ${result.siteId}`,
              `  a site-space: ${result.siteSpaceId}`,
              `  try: curl -H "Authorization: Bearer $TOKEN" ${config.baseUrl}/v1/orgs/${owner.organizationId}/sites/${result.siteId}/site-spaces/${result.siteSpaceId}/customization`,
            ]),
        `seed-result ${JSON.stringify({ ...result, organizationId: owner.organizationId, userId: owner.userId })}`,
        '',
      ].join('\n'),
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

/**
 * The organization administered by the token's user; created with its owner and that token when
 * the token is unknown (the first-start organization on an empty database).
 */
async function organizationFor(
  db: Db,
  token: string,
  firstTitle: string,
): Promise<{ organizationId: string; userId: string; created: boolean }> {
  const hash = hashToken(token);
  const known = await db
    .selectFrom('api_tokens as t')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 't.user_id').on('m.role', '=', 'admin'),
    )
    .leftJoin('organizations as o', 'o.id', 'm.organization_id')
    .select(['t.user_id', 't.revoked_at', 'o.id as organization_id'])
    .where('t.token_hash', '=', hash)
    .orderBy('o.created_at')
    .executeTakeFirst();
  if (known !== undefined) {
    if (known.revoked_at !== null) throw new UsageError('That token is revoked.');
    if (known.organization_id === null) {
      throw new UsageError("That token's user administers no organization.");
    }
    return { organizationId: known.organization_id, userId: known.user_id, created: false };
  }
  const identity = new IdentityService(new IdentityRepository(db), new Urls('http://unused'));
  const input = { ownerName: 'Owner', token };
  const created =
    (await identity.isEmpty()) &&
    (await identity.createFirstOrganization({ ...input, title: firstTitle }));
  const made =
    created || (await identity.createOrganizationWithOwner({ ...input, title: 'Seeded sites' }));
  return { organizationId: made.organization.id, userId: made.user.id, created: true };
}

interface SeedOptions {
  organizationId: string;
  sites: number;
  variants: number;
  /** Sites per transaction. */
  batch: number;
  progress: (line: string) => void;
}

/** Inserts the sites; returns counts, timing and one site and variant to query. */
async function seedSites(
  db: Db,
  options: SeedOptions,
): Promise<Omit<SeedResult, 'organizationId' | 'userId'>> {
  const { organizationId, sites, variants, batch, progress } = options;
  const limit = isPostgres(db) ? PARAMETER_LIMIT.postgres : PARAMETER_LIMIT.sqlite;
  const documents = new Documents();
  const started = performance.now();
  // Creation times one millisecond apart, ending now: listings page in a stable order.
  const firstMs = Date.now() - sites;
  let rows = 0;
  let lastReport = started;
  let sample = { siteId: '', siteSpaceId: '' };

  for (let from = 0; from < sites; from += batch) {
    const spaceRows: SpaceRow[] = [];
    const siteRows: SiteRow[] = [];
    const siteSpaceRows: SiteSpaceRow[] = [];
    for (let i = from; i < Math.min(sites, from + batch); i++) {
      const at = new Date(firstMs + i).toISOString();
      const site = documents.site(organizationId, i, at);
      siteRows.push(site);
      const taken = new Set<string>();
      for (let k = 0; k < variants; k++) {
        const language = LANGUAGES[k];
        const title = language?.title ?? `Version ${k + 1}`;
        const space = newSpaceRow(organizationId, { title }, at, newId);
        spaceRows.push(space);
        const path = uniqueSlug(slugify(title, 'space'), taken);
        taken.add(path);
        const override = documents.override(i, k, site.title);
        siteSpaceRows.push({
          id: newId('sitesp_'),
          site_id: site.id,
          space_id: space.id,
          path,
          is_default: k === 0 ? 1 : 0,
          position: k + 1,
          created_at: at,
          override,
          override_version: override === null ? 0 : 1,
          override_updated_at: override === null ? null : at,
          condition: null,
          title: null,
          hidden: 0,
          section_id: null,
          git_key: null,
          localized_title: null,
          draft: 0,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      for (const chunk of chunks(spaceRows, limit)) {
        await trx.insertInto('spaces').values(chunk).execute();
        await trx.insertInto('revisions').values(chunk.map(initialRevisionRow)).execute();
      }
      for (const chunk of chunks(siteRows, limit)) {
        await trx.insertInto('sites').values(chunk).execute();
      }
      for (const chunk of chunks(siteSpaceRows, limit)) {
        await trx.insertInto('site_spaces').values(chunk).execute();
      }
    });
    rows += spaceRows.length + siteRows.length + siteSpaceRows.length;
    // A customized site whose second variant has an override, when there is one.
    const pick =
      siteSpaceRows.find((r) => r.override !== null) ?? siteSpaceRows[siteSpaceRows.length - 1];
    if (sample.siteId === '' && pick !== undefined) {
      sample = { siteId: pick.site_id, siteSpaceId: pick.id };
    }
    const nowMs = performance.now();
    const done = Math.min(sites, from + batch);
    if (nowMs - lastReport > 2_000 || done === sites) {
      lastReport = nowMs;
      const seconds = (nowMs - started) / 1000;
      progress(
        `  ${String(done).padStart(String(sites).length)}/${sites} sites, ${rows} rows, ` +
          `${seconds.toFixed(1)} s, ${Math.round(rows / Math.max(seconds, 0.001))} rows/s`,
      );
    }
  }
  // PostgreSQL's autovacuum vacuums and analyzes tables after this many inserts, within a minute
  // or so; do it now, so that what follows runs on the steady state (planner statistics, and
  // the visibility map that lets index-only scans skip the table). SQLite: Livery never runs
  // ANALYZE, nor does this.
  if (isPostgres(db) && sites > 0) {
    for (const table of ['spaces', 'sites', 'site_spaces']) {
      await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return { sites, variants, rows, seconds, ...sample };
}

/** Rows in slices whose bound parameters stay within the statement limit. */
function* chunks<T extends object>(rows: T[], parameterLimit: number): Generator<T[]> {
  const first = rows[0];
  if (first === undefined) return;
  const size = Math.min(
    MAX_ROWS_PER_STATEMENT,
    Math.floor(parameterLimit / Object.keys(first).length),
  );
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** The languages of the variants, in order; more variants are versions. */
const LANGUAGES = [
  { title: 'English', locale: 'en' },
  { title: 'Deutsch', locale: 'de' },
  { title: 'Français', locale: 'fr' },
  { title: 'Español', locale: 'es' },
  { title: '日本語', locale: 'ja' },
  { title: 'Nederlands', locale: 'nl' },
  { title: 'Norsk', locale: 'no' },
  { title: 'Português (Brasil)', locale: 'pt-br' },
  { title: '中文', locale: 'zh' },
] as const;

const FONTS = ['Inter', 'Roboto', 'OpenSans', 'Lato', 'Poppins', 'FiraSans'] as const;
const link = (title: string, path: string) => ({
  title,
  to: { kind: 'url' as const, url: `https://example.com/${path}` },
});

/** A body in stored form; a seeded variant has no override yet, so it edits the defaults. */
const stored = (body: SettingsPatch) => canonicalPatch(body, () => DEFAULT_SETTINGS.pageActions);

/**
 * The customization documents, as the API stores them: bodies a client could send, validated by
 * the API's own body schemas, turned into stored JSON by the API's own functions (a PUT stores
 * `settingsFromInput(body)`; a PATCH on a variant without override stores
 * `mergeOverride({}, body)`; both after `canonicalPatch`).
 */
class Documents {
  private readonly validPut = createBodyAjv().compile(SettingsInputSchema);
  private readonly validPatch = createBodyAjv().compile(OverridePatchSchema);

  site(organizationId: string, i: number, at: string): SiteRow {
    const title = `Product ${i + 1} Docs`;
    const body = i % 2 === 0 ? this.putBody(i, title) : undefined;
    const id = newId('site_');
    return {
      id,
      organization_id: organizationId,
      title,
      type: 'basic',
      visibility: 'public',
      // Published at PUBLIC_URL + `p-<id>` (unique as the id is), so that the URL lookup of
      // GitBook's renderer can be measured at scale (bench/scale.ts).
      published: 1,
      basename: `p-${id.slice('site_'.length)}`,
      agents_context: 'included',
      created_at: at,
      updated_at: at,
      customization: body === undefined ? null : JSON.stringify(settingsFromInput(stored(body))),
      customization_version: body === undefined ? 0 : 1,
      customization_updated_at: body === undefined ? null : at,
      proxy: null,
    };
  }

  /** The stored override of variant k of site i, or null for about two variants in three. */
  override(i: number, k: number, siteTitle: string): string | null {
    if (k === 0 || (i + k) % 3 !== 1) return null;
    const language = LANGUAGES[k];
    const body: SettingsPatch =
      language !== undefined
        ? {
            title: `${siteTitle} (${language.title})`,
            internationalization: { locale: language.locale },
          }
        : { title: `${siteTitle} v${k + 1}`, announcement: this.announcement(`Version ${k + 1}`) };
    if ((i + k) % 2 === 0) body.styling = { primaryColor: this.color(i * 7 + k) };
    if (!this.validPatch(body)) throw new Error(`invalid PATCH body ${JSON.stringify(body)}`);
    return JSON.stringify(mergeOverride({}, stored(body)));
  }

  /** Four shapes of PUT body, from a title and colors to header, footer and announcement. */
  private putBody(i: number, title: string): SettingsPatch {
    const primaryColor = this.color(i);
    const shape = (i / 2) % 4;
    let body: SettingsPatch;
    if (shape === 0) {
      body = { title, styling: { primaryColor }, favicon: { emoji: '📘' } };
    } else if (shape === 1) {
      body = {
        title,
        styling: { primaryColor, corners: 'circular', font: FONTS[i % FONTS.length] ?? 'Inter' },
        favicon: { emoji: '📗' },
        header: {
          logo: {
            light: `https://cdn.example.com/${i}/logo.svg`,
            dark: `https://cdn.example.com/${i}/logo-dark.svg`,
          },
          links: [
            {
              ...link('Guides', `${i}/guides`),
              links: [link('Start', `${i}/start`), link('Install', `${i}/install`)],
            },
            { ...link('API', `${i}/api`), style: 'button-primary', links: [] },
          ],
        },
        footer: {
          groups: [
            {
              title: 'Product',
              links: [link('Pricing', `${i}/pricing`), link('Changelog', `${i}/changelog`)],
            },
            { title: 'Company', links: [link('About', `${i}/about`), link('Blog', `${i}/blog`)] },
          ],
          copyright: `© ${2000 + (i % 26)} ${title}`,
        },
        announcement: this.announcement('Version 2 is out'),
      };
    } else if (shape === 2) {
      body = {
        title,
        styling: { theme: 'muted', primaryColor, tint: { color: primaryColor }, icons: 'duotone' },
        themes: { default: 'dark', toggeable: true },
        feedback: { enabled: true },
        privacyPolicy: { url: `https://example.com/${i}/privacy` },
        socialPreview: { url: `https://cdn.example.com/${i}/preview.png` },
      };
    } else {
      body = {
        title,
        styling: {
          primaryColor,
          sidebar: { background: 'filled', list: 'pill' },
          search: 'subtle',
        },
        header: { preset: 'bold', links: [{ ...link('Support', `${i}/support`), links: [] }] },
        ai: { mode: 'assistant' },
        trademark: { enabled: false },
        externalLinks: { target: 'blank' },
      };
    }
    if (!this.validPut(body)) throw new Error(`invalid PUT body ${JSON.stringify(body)}`);
    return body;
  }

  private announcement(message: string) {
    return { enabled: true, message, style: 'info' as const, link: link('Read more', 'news') };
  }

  private color(n: number) {
    const hex = (m: number) =>
      `#${((m * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6)}`;
    return { light: hex(n), dark: hex(n + 1) };
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let pool = Buffer.alloc(0);
let next = 0;

/**
 * Ids exactly as src/ids.ts `newId` makes them (prefix + 20 uniform base62 characters, by
 * rejection of bytes >= 248), drawing random bytes 64 KiB at a time instead of once per id.
 */
function newId(prefix = ''): string {
  let id = prefix;
  while (id.length < prefix.length + 20) {
    if (next === pool.length) {
      pool = randomBytes(65_536);
      next = 0;
    }
    const byte = pool[next++] as number;
    if (byte < 248) id += ALPHABET[byte % 62];
  }
  return id;
}

class UsageError extends Error {}

function positiveInteger(value: string, name: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`${name} must be an integer of at least ${min} (got ${value})`);
  }
  return Number(value);
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
