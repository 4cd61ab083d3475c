/**
 * The mapping of Livery's audit actions to GitBook's (src/modules/audit/gitbook-actions.ts): one
 * entry for every action Livery records, and the UUIDs of audit events (event-ids.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AUDIT_ACTIONS } from '../../src/modules/audit/actions.js';
import { auditEventUuid, parseAuditEventUuid } from '../../src/modules/audit/event-ids.js';
import {
  GITBOOK_AUDIT_ACTIONS,
  gitbookActionList,
  gitbookActionOf,
  liveryActionsOf,
  renderGitBookActionTable,
} from '../../src/modules/audit/gitbook-actions.js';

test('every action Livery records has a mapping entry (gitbook: null says "none" explicitly)', () => {
  const missing = Object.keys(AUDIT_ACTIONS).filter((a) => !(a in GITBOOK_AUDIT_ACTIONS));
  assert.deepEqual(missing, [], 'add these to GITBOOK_AUDIT_ACTIONS (gitbook-actions.ts)');
  const stale = Object.keys(GITBOOK_AUDIT_ACTIONS).filter((a) => !(a in AUDIT_ACTIONS));
  assert.deepEqual(stale, [], 'entries for actions Livery does not record');
  for (const [action, mapping] of Object.entries(GITBOOK_AUDIT_ACTIONS)) {
    assert.ok(mapping.label.length > 0, action);
    assert.equal(mapping.gitbook === null, mapping.basis === undefined, action);
  }
});

test('a Livery name shown as is never collides with a GitBook name of another action', () => {
  const gitbookNames = new Set(
    Object.values(GITBOOK_AUDIT_ACTIONS).flatMap((m) => (m.gitbook === null ? [] : [m.gitbook])),
  );
  for (const [action, mapping] of Object.entries(GITBOOK_AUDIT_ACTIONS)) {
    if (mapping.gitbook === null) assert.ok(!gitbookNames.has(action), action);
  }
});

test('the names and the action filter agree', () => {
  const cases: [string, string[]][] = [
    ['organization.team.created', ['team.created']],
    ['organization.team.member-updated', ['team.member.changed']],
    ['site.redirect.created', ['site.redirect.created']],
    ['site.created', ['site.created']],
    ['team.created', []],
    ['organization.custom-font.created', []],
  ];
  for (const [name, actions] of cases) assert.deepEqual(liveryActionsOf(name), actions, name);
  for (const action of Object.keys(AUDIT_ACTIONS)) {
    assert.ok(liveryActionsOf(gitbookActionOf(action)).includes(action), action);
  }
  assert.equal(gitbookActionOf('an.unknown.action'), 'an.unknown.action');
  const listed = gitbookActionList().map((a) => a.id);
  assert.deepEqual(listed, [...new Set(Object.keys(AUDIT_ACTIONS).map(gitbookActionOf))].sort());
});

test('docs/history.md shows the mapping as the code has it', () => {
  const doc = readFileSync(new URL('../../docs/history.md', import.meta.url), 'utf8');
  assert.ok(
    doc.includes(renderGitBookActionTable()),
    'paste renderGitBookActionTable() into docs/history.md ("GitBook\'s audit events")',
  );
});

test('audit event UUIDs: a UUIDv8 of the time and the id, read back to the time', () => {
  const cases: [string, string][] = [
    ['audit_00mh2abcd000AbCdEfGhIjKl', '2026-11-28T21:44:29.123Z'],
    ['audit_x', '1970-01-01T00:00:00.000Z'],
    ['audit_y', '9999-12-31T23:59:59.999Z'],
    ['audit_z', '2000-02-29T12:00:00.001Z'],
  ];
  for (const [id, at] of cases) {
    const uuid = auditEventUuid(id, at);
    assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const parsed = parseAuditEventUuid(uuid);
    assert.equal(parsed?.at, at);
    assert.ok(parsed?.matches(id));
    assert.ok(!parsed?.matches(`${id}x`));
    assert.ok(parseAuditEventUuid(uuid.toUpperCase())?.matches(id));
    assert.notEqual(auditEventUuid(`${id}x`, at), uuid);
  }
  for (const bad of [
    '',
    'nope',
    '123e4567-e89b-42d3-a456-426614174000',
    'ffffffff-ffff-8fff-bfff-ffffffffffff',
  ]) {
    assert.equal(parseAuditEventUuid(bad), undefined, bad);
  }
});
