import type { Kysely } from 'kysely';
import { announceChanges } from '../change-notifications.js';

// PostgreSQL only (a no-op on SQLite): changes are announced to other processes.
// A later migration that creates a table announces its changes the same way.

export async function up(db: Kysely<unknown>): Promise<void> {
  await announceChanges(db, [
    'organizations',
    'users',
    'memberships',
    'api_tokens',
    'spaces',
    'sites',
    'site_spaces',
  ]);
}

export async function down(): Promise<void> {
  // The triggers go with their tables (0001's down).
}
