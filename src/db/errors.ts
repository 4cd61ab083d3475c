import { AppError } from '../errors.js';

/**
 * Driver errors are recognised here and nowhere else, so repositories and services never look at
 * driver codes or message prefixes. PostgreSQL codes join SQLite's when that dialect arrives.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = driverCode(error);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A database that stays locked past the busy timeout is a transient condition, not a bug. */
export function translateDriverError(error: unknown): unknown {
  const code = driverCode(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new AppError(503, 'The database is busy; retry the request shortly', {
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
