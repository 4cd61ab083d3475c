import { type CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import { executeCompiled, type Tx } from '../../db/group-commit.js';
import { namePreparedStatement } from '../../db/postgres.js';
import { newTimeOrderedId } from '../../ids.js';
import type { JsonPatch } from '../../settings/json-patch.js';
import type { AuditAction, AuditTargetKind } from '../audit/actions.js';
import type { Actor } from '../audit/actor.js';

/**
 * The statements of one customization change: the document's UPDATE (guarded by its version),
 * its revision (numbered `max + 1` of its scope) and its audit entry (which names the revision's
 * number). On PostgreSQL the three are one statement (data-modifying CTEs), so a change costs
 * the batch one round trip, as it did before history; on SQLite, where a statement costs no
 * round trip, three. Each is compiled once per database (Kysely's `sql`, so the placeholders
 * are the dialect's) and then run with new values: this runs on every write, and building and
 * compiling the statements cost more than the database's own work for them.
 */

export interface RecordedChange {
  scope: string;
  at: string;
  actor: Actor;
  operation: 'put' | 'patch' | 'delete' | 'restore';
  etag: string;
  document: string | null;
  changes: JsonPatch;
  restoredFrom: number | null;
  /** Why, when not a person's request (a site import: its commit); null otherwise. */
  message: string | null;
  audit: {
    organizationId: string;
    action: AuditAction;
    target: { kind: AuditTargetKind; id: string };
    /** The entry's details besides `revision`, which comes first. */
    details: Record<string, unknown>;
  };
}

/** What a change updates: the site's settings or the variant's override, at a known version. */
export interface DocumentUpdate {
  table: 'sites' | 'site_spaces';
  id: string;
  json: string | null;
  version: number;
}

/** Runs the change; answers the revision's number, or undefined when the UPDATE matched no row. */
export async function runChange(
  tx: Tx,
  update: DocumentUpdate,
  change: RecordedChange,
): Promise<number | undefined> {
  const { audit } = change;
  const rest = JSON.stringify(audit.details).slice(1);
  const values: Values = {
    json: update.json,
    version: update.version,
    nextVersion: update.version + 1,
    id: update.id,
    at: change.at,
    scope: change.scope,
    user: change.actor.userId,
    token: change.actor.tokenId,
    operation: change.operation,
    etag: change.etag,
    document: change.document,
    changes: JSON.stringify(change.changes),
    restoredFrom: change.restoredFrom,
    message: change.message,
    auditId: newTimeOrderedId('audit_'),
    organization: audit.organizationId,
    action: audit.action,
    targetKind: audit.target.kind,
    targetId: audit.target.id,
    // `{"revision":N,…}`: N is spliced in by the database (PostgreSQL) or below (SQLite).
    detailsTail: rest === '}' ? '}' : `,${rest}`,
    details: '',
  };
  const statements = statementsOf(tx, update.table);
  if (statements.combined !== undefined) {
    const { rows } = await executeCompiled(tx, bind(statements.combined, values));
    return (rows[0] as { number: number } | undefined)?.number;
  }
  const updated = await executeCompiled(tx, bind(statements.update, values));
  if (updated.numAffectedRows !== 1n) return undefined;
  const { rows } = await executeCompiled(tx, bind(statements.revision, values));
  const number = (rows[0] as { number: number } | undefined)?.number;
  if (number === undefined) return undefined;
  values.details = `{"revision":${number}${values.detailsTail}`;
  await executeCompiled(tx, bind(statements.audit, values));
  return number;
}

/** The oldest revisions of a scope beyond the newest `keep` (CUSTOMIZATION_HISTORY_KEEP). */
export async function pruneRevisions(tx: Tx, scope: string, newest: number, keep: number) {
  if (keep === 0 || newest <= keep) return;
  await sql`delete from customization_revisions
    where scope = ${scope} and number <= ${newest - keep}`.execute(tx);
}

interface Values {
  json: string | null;
  version: number;
  nextVersion: number;
  id: string;
  at: string;
  scope: string;
  user: string;
  token: string | null;
  operation: string;
  etag: string;
  document: string | null;
  changes: string;
  restoredFrom: number | null;
  message: string | null;
  auditId: string;
  organization: string;
  action: string;
  targetKind: string;
  targetId: string;
  detailsTail: string;
  details: string;
}

/** A compiled statement and, for each of its parameters, the value it takes. */
interface Template {
  query: CompiledQuery;
  slots: (keyof Values)[];
}

const bind = (template: Template, values: Values): CompiledQuery => ({
  ...template.query,
  parameters: template.slots.map((slot) => values[slot]),
});

interface Statements {
  /** PostgreSQL: update, revision and audit entry in one. */
  combined?: Template;
  update: Template;
  revision: Template;
  audit: Template;
}

const compiled = new WeakMap<object, Map<string, Statements>>();

function statementsOf(tx: Tx, table: DocumentUpdate['table']): Statements {
  // One compilation per dialect adapter: a transaction's adapter is its database's.
  const key = tx.getExecutor().adapter;
  let byTable = compiled.get(key);
  if (byTable === undefined) {
    byTable = new Map();
    compiled.set(key, byTable);
  }
  let statements = byTable.get(table);
  if (statements === undefined) {
    // Without the unit's plugins: compiling is not a statement of the unit (group-commit.ts).
    statements = compileStatements(tx.withoutPlugins() as unknown as Kysely<unknown>, table);
    byTable.set(table, statements);
  }
  return statements;
}

/** Each parameter is a marker naming the value it takes (see `bind`). */
const MARKER = '\u0000livery-value:';
const v = (name: keyof Values) => sql`${MARKER + name}`;

function compileStatements(db: Kysely<unknown>, table: DocumentUpdate['table']): Statements {
  const [document, version, updatedAt] =
    table === 'sites'
      ? ['customization', 'customization_version', 'customization_updated_at']
      : ['override', 'override_version', 'override_updated_at'];
  const update = sql`update ${sql.table(table)} set ${sql.ref(document)} = ${v('json')},
    ${sql.ref(version)} = ${v('nextVersion')}, ${sql.ref(updatedAt)} = ${v('at')}
    where id = ${v('id')} and ${sql.ref(version)} = ${v('version')}`;
  // The scope's row is locked by the unit's read: nobody else numbers this scope meanwhile.
  const revisionValues = sql`(select coalesce(max(number), 0) + 1 from customization_revisions
      where scope = ${v('scope')}),
    ${v('scope')}, ${v('at')}, ${v('user')}, ${v('token')}, ${v('operation')}, ${v('etag')},
    ${v('document')}, ${v('changes')}, cast(${v('restoredFrom')} as integer), ${v('message')}`;
  const auditValues = sql`${v('auditId')}, ${v('organization')}, ${v('at')}, ${v('user')},
    ${v('token')}, ${v('action')}, ${v('targetKind')}, ${v('targetId')}`;
  const statements: Statements = {
    update: template(db, update),
    revision: template(
      db,
      sql`insert into customization_revisions (${REVISION_COLUMNS})
        values (${revisionValues}) returning number`,
    ),
    audit: template(
      db,
      sql`insert into audit_log (${AUDIT_COLUMNS}) values (${auditValues}, ${v('details')})`,
    ),
  };
  if (isPostgres(db)) {
    statements.combined = named(
      template(
        db,
        sql`with updated as (${update} returning 1),
      revision as (
        insert into customization_revisions (${REVISION_COLUMNS})
        select ${revisionValues} from updated
        returning number
      ),
      entry as (
        insert into audit_log (${AUDIT_COLUMNS})
        select ${auditValues}, '{"revision":' || number || ${v('detailsTail')} from revision
      )
      select number from revision`,
      ),
    );
  }
  return statements;
}

/** PostgreSQL: planned once per connection rather than per change (db/postgres.ts). */
function named(statement: Template): Template {
  namePreparedStatement(statement.query.sql);
  return statement;
}

function template(db: Kysely<unknown>, query: RawBuilder<unknown>): Template {
  const compiledQuery = query.compile(db);
  const slots = compiledQuery.parameters.map((parameter) => {
    if (typeof parameter !== 'string' || !parameter.startsWith(MARKER)) {
      throw new Error(`change-sql: a parameter without a marker: ${String(parameter)}`);
    }
    return parameter.slice(MARKER.length) as keyof Values;
  });
  return { query: compiledQuery, slots };
}

const REVISION_COLUMNS = sql.raw(
  'number, scope, created_at, actor_user_id, actor_token_id, operation, etag, document, changes, restored_from, message',
);
const AUDIT_COLUMNS = sql.raw(
  'id, organization_id, at, actor_user_id, actor_token_id, action, target_kind, target_id, details',
);
