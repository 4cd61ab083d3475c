import { availableParallelism, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Every setting Livery reads, resolved once from the environment and then frozen. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Absolute origin used in `urls.location` and `Location` headers, without a trailing slash. */
  readonly baseUrl: string;
  /** Where published sites are served: a site's URL is this plus its basename or id (ends in /). */
  readonly publicUrl: string;
  /**
   * TRUST_PROXY=1: the reverse proxy in front is trusted, so X-Forwarded-Host (and Fastify's
   * X-Forwarded-For and -Proto) say which host a visitor asked for (docs/deploy.md).
   */
  readonly trustProxy: boolean;
  /**
   * CUSTOM_HOSTNAME_SCHEME: `https` or `http`, the scheme of a site's custom hostname in the
   * addresses Livery writes (urls.published, canonical links); default PUBLIC_URL's scheme.
   */
  readonly customHostnameScheme: 'http' | 'https';
  readonly database: DatabaseConfig;
  readonly logLevel: LogLevel;
  readonly orgTitle: string;
  /** When set, the first start makes this exact value the owner's API token (and does not print it). */
  readonly bootstrapToken: string | undefined;
  /** Grace period for in-flight requests on SIGTERM/SIGINT before the process exits anyway. */
  readonly shutdownTimeoutMs: number;
  /** Requests per API token per fixed minute, counted per process; 0: no limit (docs/operations.md). */
  readonly rateLimitPerMinute: number;
  /** Site analytics events per site per fixed minute, counted per process; 0: no limit (docs/insights.md). */
  readonly siteEventsPerMinute: number;
  /** How long an email invite can be accepted (INVITE_TTL_DAYS, default 14). */
  readonly inviteTtlDays: number;
  /** Revisions kept per site and per variant (CUSTOMIZATION_HISTORY_KEEP); 0: all (docs/history.md). */
  readonly customizationHistoryKeep: number;
  /** Days audit-log entries are kept (AUDIT_LOG_KEEP_DAYS, default 365); 0: forever. */
  readonly auditLogKeepDays: number;
  /** STUDIO_SESSION_HOURS: how long a Livery Studio sign-in lasts (docs/studio.md). */
  readonly studioSessionHours: number;
  /** Time allowed to receive a whole request (headers and body); 0: no limit. */
  readonly requestTimeoutMs: number;
  /** Load shedding (503) above these; 0 disables each check. */
  readonly pressureMaxEventLoopDelayMs: number;
  readonly pressureMaxHeapUsedMb: number;
  readonly pressureMaxRssMb: number;
  /** Cache invalidation for GitBook's renderer (docs/renderer-cache.md); unset: none. */
  readonly rendererRevalidation: RendererRevalidationConfig | undefined;
  /** The worker threads that do CPU-heavy work off the request thread (docs/operations.md). */
  readonly workers: WorkersConfig;
  /** What one page and one space may hold, enforced when content is written (docs/content.md). */
  readonly contentLimits: ContentLimits;
  /** Importing content from Git repositories (docs/git-sync.md). */
  readonly gitSync: GitSyncConfig;
  /** PDF_MAX_PAGES: the most pages one PDF export holds (docs/pdf.md); more is a 413. */
  readonly pdfMaxPages: number;
}

export interface GitSyncConfig {
  /** GIT_LOCAL_DIRS: directories whose repositories may be imported by path or `file://`. */
  readonly localDirs: readonly string[];
  /** GIT_ALLOW_PRIVATE_HOSTS=1: repositories on loopback or private addresses may be fetched. */
  readonly allowPrivateHosts: boolean;
  /** GIT_OPERATION_TIMEOUT_MS: an import still running after this long ends as `timeout`. */
  readonly operationTimeoutMs: number;
  /** GIT_CACHE_DIR: where fetched repositories are kept between imports (this process's own). */
  readonly cacheDir: string;
  /**
   * SECRET_KEY or SECRET_KEY_FILE (docs/git-sync.md, "Credentials"): the key that encrypts
   * stored repository credentials and webhook secrets. Never log it.
   */
  readonly secretKey: { readonly value?: string; readonly file: string };
  /** GIT_COMMIT_AUTHOR: who export commits are by, `Name <email>`. */
  readonly author: { readonly name: string; readonly email: string };
  /** GIT_SYNC_DEBOUNCE_MS: how long a linked space waits for more revisions before committing. */
  readonly debounceMs: number;
  /** GIT_SYNC_TICK_MS: how often linked spaces are looked at (polling, missed work). */
  readonly tickMs: number;
}

export interface WorkersConfig {
  /** WORKER_THREADS: threads rendering pages and documents (the search has one of its own). */
  readonly threads: number;
  /** WORKER_QUEUE: tasks waiting for a thread, per pool, before more are refused with a 503. */
  readonly queue: number;
  /** RENDER_BUDGET_MS: a page body that takes longer is shown as its plain text, with a notice. */
  readonly renderBudgetMs: number;
}

export interface ContentLimits {
  /** PAGE_MAX_BYTES: a page's Markdown, in bytes of UTF-8. */
  readonly pageBytes: number;
  /** PAGE_MAX_BLOCKS: blocks in a page's document (table cells count, one block each). */
  readonly pageBlocks: number;
  /** SPACE_MAX_PAGES: pages (documents, groups and links) in a revision. */
  readonly spacePages: number;
  /** SPACE_MAX_FILES: files in a space (enforced where Livery stores files: Git import). */
  readonly spaceFiles: number;
  /** FILE_MAX_BYTES: one file (enforced where Livery stores files: Git import). */
  readonly fileBytes: number;
}

export interface RendererRevalidationConfig {
  /** RENDERER_REVALIDATE_URL: the renderer's `/~gitbook/revalidate`. */
  readonly url: string;
  /** RENDERER_SECRET: the renderer's GITBOOK_SECRET, the HMAC key of `x-gitbook-signature`. Never log it. */
  readonly secret: string;
  /** RENDERER_REVALIDATE_ATTEMPTS: attempts per request before giving up (default 6). */
  readonly attempts: number;
  /** RENDERER_REVALIDATE_RETRY_MS: wait before the first retry, doubled each time (default 500). */
  readonly firstRetryMs: number;
}

export type DatabaseConfig = SqliteConfig | PostgresConfig;

export type SqliteConfig = {
  readonly dialect: 'sqlite';
  /** A file path (absolute, resolved against the working directory) or `:memory:`. */
  readonly filename: string;
  /**
   * SQLite `synchronous` pragma. FULL (default) fsyncs the WAL on every commit, so an acknowledged
   * write survives power loss; NORMAL survives a process crash but may lose the last commits on
   * an OS crash.
   */
  readonly synchronous: 'FULL' | 'NORMAL';
  /**
   * How long a write waits for the write lock that another connection (the CLI, a backup, a
   * second Livery process) holds, before it is refused with a 503. The wait never blocks the
   * event loop (db/sqlite-driver.ts).
   */
  readonly lockWaitMs: number;
};

export type PostgresConfig = {
  readonly dialect: 'postgres';
  /** The DATABASE_URL without Livery's own `schema` parameter. May carry a password: never log it. */
  readonly connectionString: string;
  /** `host:port/database`, for messages: no user, no password. */
  readonly display: string;
  /** Where Livery's tables live (`search_path`); from `?schema=` in the URL, default `public`. */
  readonly schema: string;
  /** Connections per process (DATABASE_POOL_SIZE). */
  readonly poolSize: number;
};

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const TOKEN68 = /^[A-Za-z0-9._~+/-]+=*$/;

/**
 * Reads and validates the environment. Every bad key is reported in one error so that an operator
 * fixes them all at once instead of one restart per mistake.
 */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const str = (key: string, fallback: string) => {
    const value = env[key];
    return value === undefined || value === '' ? fallback : value;
  };

  const host = str('HOST', '127.0.0.1');
  const port = parseInteger(str('PORT', '8080'));
  if (port === undefined || port < 0 || port > 65535) {
    problems.push(`PORT must be an integer between 0 and 65535 (got ${JSON.stringify(env.PORT)})`);
  }

  const database = parseDatabaseUrl(str('DATABASE_URL', 'sqlite:./data/livery.db'), cwd);
  if (typeof database === 'string') problems.push(database);

  const poolSize = parseInteger(str('DATABASE_POOL_SIZE', '10'));
  if (poolSize === undefined || poolSize < 1 || poolSize > 1000) {
    problems.push(
      `DATABASE_POOL_SIZE must be an integer between 1 and 1000 (got ${JSON.stringify(env.DATABASE_POOL_SIZE)})`,
    );
  }

  const synchronous = str('SQLITE_SYNCHRONOUS', 'FULL').toUpperCase();
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
    problems.push(
      `SQLITE_SYNCHRONOUS must be FULL or NORMAL (got ${JSON.stringify(env.SQLITE_SYNCHRONOUS)})`,
    );
  }

  const lockWaitMs = parseInteger(str('SQLITE_LOCK_WAIT_MS', '5000'));
  if (lockWaitMs === undefined || lockWaitMs < 0 || lockWaitMs > 600_000) {
    problems.push(
      `SQLITE_LOCK_WAIT_MS must be an integer between 0 and 600000 (got ${JSON.stringify(env.SQLITE_LOCK_WAIT_MS)})`,
    );
  }

  const logLevel = str('LOG_LEVEL', 'info');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    problems.push(
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(logLevel)})`,
    );
  }

  const defaultHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const hostForUrl = defaultHost.includes(':') ? `[${defaultHost}]` : defaultHost;
  const baseUrl = str('BASE_URL', `http://${hostForUrl}:${port ?? 8080}`).replace(/\/+$/, '');
  if (!isHttpUrl(baseUrl)) {
    problems.push(`BASE_URL must be an absolute http(s) URL (got ${JSON.stringify(env.BASE_URL)})`);
  }

  // The base of published addresses (urls.published); serving pages there is docs/sites.md#publishing.
  const publicUrl = `${str('PUBLIC_URL', `${baseUrl}/s/`).replace(/\/+$/, '')}/`;
  // Unset, it follows BASE_URL, whose own problem is already reported.
  if (env.PUBLIC_URL !== undefined && !isHttpUrl(publicUrl)) {
    problems.push(
      `PUBLIC_URL must be an absolute http(s) URL (got ${JSON.stringify(env.PUBLIC_URL)})`,
    );
  }

  const trustProxy = parseFlag(env.TRUST_PROXY, 'TRUST_PROXY', problems);
  const schemeDefault = publicUrl.startsWith('https:') ? 'https' : 'http';
  const customHostnameScheme = str('CUSTOM_HOSTNAME_SCHEME', schemeDefault);
  if (customHostnameScheme !== 'http' && customHostnameScheme !== 'https') {
    problems.push(
      `CUSTOM_HOSTNAME_SCHEME must be https or http (got ${JSON.stringify(env.CUSTOM_HOSTNAME_SCHEME)})`,
    );
  }

  const orgTitle = str('LIVERY_ORG_TITLE', 'Default organization');
  if (orgTitle.length < 2 || orgTitle.length > 255) {
    problems.push('LIVERY_ORG_TITLE must be 2 to 255 characters long');
  }

  const bootstrapToken = env.LIVERY_BOOTSTRAP_TOKEN || undefined;
  if (
    bootstrapToken !== undefined &&
    (!TOKEN68.test(bootstrapToken) || bootstrapToken.length < 20)
  ) {
    problems.push(
      'LIVERY_BOOTSTRAP_TOKEN must be at least 20 characters of A-Z a-z 0-9 . _ ~ + / - (a bearer token)',
    );
  }

  const shutdownTimeoutMs = parseInteger(str('SHUTDOWN_TIMEOUT_MS', '10000'));
  if (shutdownTimeoutMs === undefined || shutdownTimeoutMs < 0) {
    problems.push(
      `SHUTDOWN_TIMEOUT_MS must be a non-negative integer (got ${JSON.stringify(env.SHUTDOWN_TIMEOUT_MS)})`,
    );
  }

  const upTo = (key: string, fallback: string, max: number): number => {
    const value = parseInteger(str(key, fallback));
    if (value === undefined || value > max) {
      problems.push(
        `${key} must be an integer between 0 and ${max} (got ${JSON.stringify(env[key])})`,
      );
    }
    return value ?? 0;
  };
  const rateLimitPerMinute = upTo('RATE_LIMIT_PER_MINUTE', '1200', 1_000_000_000);
  const siteEventsPerMinute = upTo('SITE_EVENTS_PER_MINUTE', '60000', 1_000_000_000);
  const inviteTtlDays = upTo('INVITE_TTL_DAYS', '14', 3650);
  const customizationHistoryKeep = upTo('CUSTOMIZATION_HISTORY_KEEP', '0', 1_000_000_000);
  const auditLogKeepDays = upTo('AUDIT_LOG_KEEP_DAYS', '365', 36_500);
  const studioSessionHours = upTo('STUDIO_SESSION_HOURS', '12', 24 * 90);
  if (studioSessionHours === 0) problems.push('STUDIO_SESSION_HOURS must be at least 1 (got 0)');
  const requestTimeoutMs = upTo('REQUEST_TIMEOUT_MS', '30000', 3_600_000);
  const pressureMaxEventLoopDelayMs = upTo('PRESSURE_MAX_EVENT_LOOP_DELAY_MS', '1000', 60_000);
  const pressureMaxHeapUsedMb = upTo('PRESSURE_MAX_HEAP_USED_MB', '0', 1_048_576);
  const pressureMaxRssMb = upTo('PRESSURE_MAX_RSS_MB', '0', 1_048_576);
  const rendererRevalidation = parseRendererRevalidation(env, problems);
  const workers = Object.freeze({
    threads: upTo('WORKER_THREADS', String(defaultThreads()), 64),
    queue: upTo('WORKER_QUEUE', '64', 100_000),
    renderBudgetMs: upTo('RENDER_BUDGET_MS', '5000', 600_000),
  });
  if (workers.threads === 0) problems.push('WORKER_THREADS must be at least 1 (got 0)');
  if (workers.renderBudgetMs === 0) problems.push('RENDER_BUDGET_MS must be at least 1 (got 0)');
  const contentLimits = Object.freeze({
    pageBytes: upTo('PAGE_MAX_BYTES', String(2 * 1024 * 1024), 1024 * 1024 * 1024),
    pageBlocks: upTo('PAGE_MAX_BLOCKS', '50000', 100_000_000),
    spacePages: upTo('SPACE_MAX_PAGES', '10000', 10_000_000),
    spaceFiles: upTo('SPACE_MAX_FILES', '20000', 10_000_000),
    fileBytes: upTo('FILE_MAX_BYTES', String(100 * 1024 * 1024), 64 * 1024 * 1024 * 1024),
  });
  for (const [key, value] of Object.entries(contentLimits)) {
    if (value === 0)
      problems.push(`${LIMIT_NAMES[key as keyof ContentLimits]} must be at least 1 (got 0)`);
  }

  const gitSync: GitSyncConfig = Object.freeze({
    localDirs: Object.freeze(
      (env.GIT_LOCAL_DIRS ?? '')
        .split(':')
        .map((dir) => dir.trim())
        .filter((dir) => dir !== ''),
    ),
    allowPrivateHosts:
      env.GIT_ALLOW_PRIVATE_HOSTS === '1' || env.GIT_ALLOW_PRIVATE_HOSTS === 'true',
    operationTimeoutMs: upTo('GIT_OPERATION_TIMEOUT_MS', '600000', 86_400_000),
    cacheDir: str('GIT_CACHE_DIR', join(tmpdir(), 'livery-git')),
    secretKey: Object.freeze({
      ...(env.SECRET_KEY ? { value: env.SECRET_KEY } : {}),
      file: resolve(cwd, str('SECRET_KEY_FILE', './data/secret.key')),
    }),
    author: Object.freeze(
      parseAuthor(str('GIT_COMMIT_AUTHOR', 'Livery <livery@localhost>'), problems),
    ),
    debounceMs: upTo('GIT_SYNC_DEBOUNCE_MS', '1000', 600_000),
    tickMs: upTo('GIT_SYNC_TICK_MS', '5000', 3_600_000),
  });
  if (gitSync.secretKey.value !== undefined && gitSync.secretKey.value.length < 32) {
    problems.push('SECRET_KEY must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  }
  if (gitSync.tickMs === 0) problems.push('GIT_SYNC_TICK_MS must be at least 1 (got 0)');
  if (gitSync.operationTimeoutMs === 0) {
    problems.push('GIT_OPERATION_TIMEOUT_MS must be at least 1 (got 0)');
  }
  for (const dir of gitSync.localDirs) {
    if (!isAbsolute(dir)) {
      problems.push(`GIT_LOCAL_DIRS must list absolute directories (got ${JSON.stringify(dir)})`);
    }
  }

  const pdfMaxPages = upTo('PDF_MAX_PAGES', '2000', 100_000);
  if (pdfMaxPages === 0) problems.push('PDF_MAX_PAGES must be at least 1 (got 0)');

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    host,
    port: port as number,
    baseUrl,
    publicUrl,
    trustProxy,
    customHostnameScheme: customHostnameScheme as 'http' | 'https',
    database: Object.freeze(
      (database as ParsedDatabase).dialect === 'sqlite'
        ? {
            ...(database as ParsedSqlite),
            synchronous: synchronous as 'FULL' | 'NORMAL',
            lockWaitMs: lockWaitMs as number,
          }
        : { ...(database as ParsedPostgres), poolSize: poolSize as number },
    ),
    logLevel: logLevel as LogLevel,
    orgTitle,
    bootstrapToken,
    shutdownTimeoutMs: shutdownTimeoutMs as number,
    rateLimitPerMinute,
    siteEventsPerMinute,
    inviteTtlDays,
    customizationHistoryKeep,
    auditLogKeepDays,
    studioSessionHours,
    requestTimeoutMs,
    pressureMaxEventLoopDelayMs,
    pressureMaxHeapUsedMb,
    pressureMaxRssMb,
    rendererRevalidation,
    workers,
    contentLimits,
    gitSync,
    pdfMaxPages,
  });
}

/** The environment variable of each content limit, for messages that name the setting. */
export const LIMIT_NAMES: Readonly<Record<keyof ContentLimits, string>> = {
  pageBytes: 'PAGE_MAX_BYTES',
  pageBlocks: 'PAGE_MAX_BLOCKS',
  spacePages: 'SPACE_MAX_PAGES',
  spaceFiles: 'SPACE_MAX_FILES',
  fileBytes: 'FILE_MAX_BYTES',
};

/** One thread per core but one (the request thread's), at least 1 and at most 4. */
function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** RENDERER_REVALIDATE_URL and RENDERER_SECRET: both or neither (one alone is a mistake). */
function parseRendererRevalidation(
  env: Env,
  problems: string[],
): RendererRevalidationConfig | undefined {
  const url = env.RENDERER_REVALIDATE_URL || undefined;
  const secret = env.RENDERER_SECRET || undefined;
  if (url === undefined && secret === undefined) return undefined;
  if (url === undefined || secret === undefined) {
    problems.push(
      `RENDERER_REVALIDATE_URL and RENDERER_SECRET go together: ${url === undefined ? 'RENDERER_SECRET' : 'RENDERER_REVALIDATE_URL'} is set, the other is not (set both to invalidate GitBook's renderer cache, or neither)`,
    );
    return undefined;
  }
  if (!isHttpUrl(url)) {
    problems.push(
      `RENDERER_REVALIDATE_URL must be an absolute http(s) URL, e.g. http://renderer:3000/~gitbook/revalidate (got ${JSON.stringify(url)})`,
    );
  }
  const attempts = parseInteger(env.RENDERER_REVALIDATE_ATTEMPTS || '6');
  if (attempts === undefined || attempts < 1 || attempts > 100) {
    problems.push(
      `RENDERER_REVALIDATE_ATTEMPTS must be an integer between 1 and 100 (got ${JSON.stringify(env.RENDERER_REVALIDATE_ATTEMPTS)})`,
    );
  }
  const firstRetryMs = parseInteger(env.RENDERER_REVALIDATE_RETRY_MS || '500');
  if (firstRetryMs === undefined || firstRetryMs < 1 || firstRetryMs > 60_000) {
    problems.push(
      `RENDERER_REVALIDATE_RETRY_MS must be an integer between 1 and 60000 (got ${JSON.stringify(env.RENDERER_REVALIDATE_RETRY_MS)})`,
    );
  }
  return Object.freeze({
    url,
    secret,
    attempts: attempts ?? 1,
    firstRetryMs: firstRetryMs ?? 1,
  });
}

function parseInteger(value: string): number | undefined {
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

type ParsedSqlite = Omit<SqliteConfig, 'synchronous' | 'lockWaitMs'>;
type ParsedPostgres = Omit<PostgresConfig, 'poolSize'>;
type ParsedDatabase = ParsedSqlite | ParsedPostgres;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * `sqlite:<path>` (relative or absolute), `sqlite://<path>` and `sqlite::memory:`; or
 * `postgres://` / `postgresql://` URLs as `pg` reads them, plus Livery's own `schema` parameter.
 */
/** A yes/no setting: unset, empty, `0` or `false` is no; `1` or `true` is yes. */
function parseFlag(value: string | undefined, key: string, problems: string[]): boolean {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  problems.push(`${key} must be 1, true, 0 or false (got ${JSON.stringify(value)})`);
  return false;
}

function parseDatabaseUrl(url: string, cwd: string): ParsedDatabase | string {
  if (url.startsWith('sqlite:')) {
    let path = url.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '') return 'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/livery.db';
    if (path === ':memory:') return { dialect: 'sqlite', filename: path };
    return { dialect: 'sqlite', filename: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'DATABASE_URL is not a valid postgres:// URL (the value is not shown: it may hold a password)';
    }
    const schema = parsed.searchParams.get('schema') ?? 'public';
    if (!SCHEMA_NAME.test(schema)) {
      return `DATABASE_URL schema must be a lowercase SQL identifier (got ${JSON.stringify(schema)})`;
    }
    parsed.searchParams.delete('schema');
    const database = decodeURIComponent(parsed.pathname.slice(1)) || '(default database)';
    return {
      dialect: 'postgres',
      connectionString: parsed.toString(),
      display: `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${database}`,
      schema,
    };
  }
  // The value is not echoed: a database URL may carry a password.
  return 'DATABASE_URL must look like sqlite:./data/livery.db, sqlite:/absolute/path.db or postgres://user@host:5432/database';
}

/** `Name <email>` (GIT_COMMIT_AUTHOR). */
function parseAuthor(value: string, problems: string[]): { name: string; email: string } {
  const match = /^([^<>\n]+?)\s*<([^<>\s]+)>$/.exec(value.trim());
  if (match === null) {
    problems.push(
      `GIT_COMMIT_AUTHOR must look like "Livery Bot <bot@example.com>" (got ${JSON.stringify(value)})`,
    );
    return { name: 'Livery', email: 'livery@localhost' };
  }
  return { name: match[1] ?? 'Livery', email: match[2] ?? 'livery@localhost' };
}
