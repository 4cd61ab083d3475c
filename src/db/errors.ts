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

/** A database that is busy or unreachable is a transient condition (503), not a bug (500). */
export function translateDriverError(error: unknown): unknown {
  const code = driverCode(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || isRetryableConflict(error)) {
    return new AppError(503, 'The database is busy; retry the request shortly', {
      'retry-after': '1',
    });
  }
  if (isUnavailable(error)) {
    return new AppError(503, 'The database is unavailable; retry the request shortly', {
      'retry-after': '1',
    });
  }
  return error;
}

function driverCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
