import { isAbsolute, resolve } from 'node:path';

/** Every setting Livery reads, resolved once from the environment and then frozen. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Absolute origin used in `urls.location` and `Location` headers, without a trailing slash. */
  readonly baseUrl: string;
  readonly database: DatabaseConfig;
  readonly logLevel: LogLevel;
  readonly orgTitle: string;
  /** When set, the first start makes this exact value the owner's API token (and does not print it). */
  readonly bootstrapToken: string | undefined;
  /** Grace period for in-flight requests on SIGTERM/SIGINT before the process exits anyway. */
  readonly shutdownTimeoutMs: number;
}

export type DatabaseConfig = {
  readonly dialect: 'sqlite';
  /** A file path (absolute, resolved against the working directory) or `:memory:`. */
  readonly filename: string;
  /**
   * SQLite `synchronous` pragma. FULL (default) fsyncs the WAL on every commit, so an acknowledged
   * write survives power loss; NORMAL survives a process crash but may lose the last commits on
   * an OS crash.
   */
  readonly synchronous: 'FULL' | 'NORMAL';
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

  const synchronous = str('SQLITE_SYNCHRONOUS', 'FULL').toUpperCase();
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
    problems.push(
      `SQLITE_SYNCHRONOUS must be FULL or NORMAL (got ${JSON.stringify(env.SQLITE_SYNCHRONOUS)})`,
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

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    host,
    port: port as number,
    baseUrl,
    database: Object.freeze({
      ...(database as { dialect: 'sqlite'; filename: string }),
      synchronous: synchronous as 'FULL' | 'NORMAL',
    }),
    logLevel: logLevel as LogLevel,
    orgTitle,
    bootstrapToken,
    shutdownTimeoutMs: shutdownTimeoutMs as number,
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

/** `sqlite:<path>` (relative or absolute), `sqlite://<path>` and `sqlite::memory:` are accepted. */
function parseDatabaseUrl(
  url: string,
  cwd: string,
): { dialect: 'sqlite'; filename: string } | string {
  if (url.startsWith('sqlite:')) {
    let path = url.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (path === '') return 'DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/livery.db';
    if (path === ':memory:') return { dialect: 'sqlite', filename: path };
    return { dialect: 'sqlite', filename: isAbsolute(path) ? path : resolve(cwd, path) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    return 'DATABASE_URL: PostgreSQL is not supported yet (it arrives with the scale issue); use sqlite:<path>';
  }
  // The value is not echoed: a database URL may carry a password.
  return 'DATABASE_URL must look like sqlite:./data/livery.db or sqlite:/absolute/path.db';
}
