import { AppError } from '../errors.js';

/**
 * Driver errors are recognised here and nowhere else, so repositories and services never look at
 * driver codes or message prefixes.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverCode(error);
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  );
}

/** PostgreSQL: the transaction lost a race (serialization failure, deadlock) and may be retried. */
export function isRetryableConflict(error: unknown): boolean {
  const code = driverCode(error);
  return code === '40001' || code === '40P01';
}

// Transient conditions that a retry a moment later can cure: a locked SQLite file; a PostgreSQL
// server that is unreachable, restarting, shutting down or out of connections.
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
// `pg` reports some connection losses with no code, only these messages.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

export function isUnavailable(error: unknown): boolean {
  const code = driverCode(error);
  if (code !== undefined && UNAVAILABLE.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return error instanceof Error && code === undefined && UNAVAILABLE_MESSAGE.test(error.message);
}

/**
 * A fault of the database or of the operator's environment, not of the request: a 503 with
 * `Retry-After` in GitBook's envelope. The client is told only that the database is unavailable;
 * `reason` names the real cause for the one log line the error handler writes.
 */
export class DatabaseFault extends AppError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    /** For the log: the real cause, e.g. "disk full writing the database". */
    readonly reason: string,
    /** Transient (a lock, a lost connection) faults log at warn; those needing an operator, error. */
    readonly severity: 'warn' | 'error',
    /**
     * SQLite failed to write or open its file: what is wrong with the file, its directory or the
     * disk (db/environment-check.ts) says more than SQLite's "disk I/O error".
     */
    readonly aboutSqliteFile = false,
  ) {
    super(503, message, { 'retry-after': String(retryAfterSeconds) });
    this.name = 'DatabaseFault';
  }
}

/** A database that is busy, unreachable or unusable is a condition to retry (503), not a bug (500). */
export function translateDriverError(error: unknown): unknown {
  const code = driverCode(error);
  if (/^SQLITE_(BUSY|LOCKED)/.test(code ?? '') || isRetryableConflict(error)) {
    return new DatabaseFault(
      'The database is busy; retry the request shortly',
      1,
      `the database is busy (${describeDriverError(error)})`,
      'warn',
    );
  }
  if (isUnavailable(error)) {
    return new DatabaseFault(
      'The database is unavailable; retry the request shortly',
      1,
      `the database does not answer (${describeDriverError(error)})`,
      'warn',
    );
  }
  const reason = environmentFault(error);
  if (reason !== undefined) {
    return new DatabaseFault(
      'The database is unavailable; retry the request later',
      ENVIRONMENT_RETRY_AFTER_SECONDS,
      `${reason} (${describeDriverError(error)})`,
      'error',
      /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN)/.test(code ?? ''),
    );
  }
  return error;
}

/** Faults an operator must cure (disk, permissions, a dropped database) last longer than a lock. */
export const ENVIRONMENT_RETRY_AFTER_SECONDS = 5;

/**
 * The real cause of a database error that the operator's environment causes and that no retry a
 * moment later is likely to cure (disk full, a read-only or unopenable file, I/O errors, a dropped
 * database or schema, missing tables, refused credentials), in words fit for a response; undefined
 * for anything else. The driver's own text (describeDriverError) goes to the log only.
 */
export function environmentFault(error: unknown): string | undefined {
  const code = driverCode(error);
  if (code === undefined) {
    const inner = error instanceof Error ? error.cause : undefined;
    return inner === undefined ? undefined : environmentFault(inner);
  }
  if (code === 'SQLITE_FULL' || code === '53100') return 'disk full writing the database';
  if (code.startsWith('SQLITE_READONLY') || code === '25006') return 'the database is read-only';
  if (code.startsWith('SQLITE_IOERR') || code === '58030') return 'I/O error on the database file';
  if (code === 'SQLITE_CANTOPEN') return 'the database file cannot be opened';
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return 'the database file is damaged: restore it from a backup';
  }
  if (code === '3D000') return 'the PostgreSQL database does not exist';
  if (code === '3F000') return 'the PostgreSQL schema does not exist';
  const message = error instanceof Error ? error.message : '';
  if (code === '42P01' || (code === 'SQLITE_ERROR' && message.startsWith('no such table'))) {
    return 'tables missing: run migrations, or the database was recreated empty';
  }
  if (code === '28P01' || code === '28000') return "PostgreSQL refused Livery's credentials";
  if (code === '42501') return 'PostgreSQL denied Livery a privilege it needs';
  return undefined;
}

/** The driver's code and message, for logs (they name no credentials). */
export function describeDriverError(error: unknown): string {
  if (error instanceof AggregateError) return error.errors.map(describeDriverError).join('; ');
  if (!(error instanceof Error)) return String(error);
  const code = driverCode(error);
  return code !== undefined && !error.message.includes(code)
    ? `${code}: ${error.message}`
    : error.message;
}

function driverCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
