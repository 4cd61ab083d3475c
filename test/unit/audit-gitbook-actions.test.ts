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
  const cases: [string, object[]][] = [
    ['organization.team.created', [{ action: 'team.created' }]],
    ['organization.team.member-updated', [{ action: 'team.member.changed' }]],
    ['site.redirect.created', [{ action: 'site.redirect.created' }]],
    ['site.created', [{ action: 'site.created' }]],
    ['organization.link-invite.created', [{ action: 'invite.created', kind: 'link' }]],
    ['invite.created', [{ action: 'invite.created', notKind: 'link' }]],
    ['team.created', []],
    ['organization.custom-font.created', [{ action: 'custom-font.created' }]],
    ['organization.site.created', []],
  ];
  for (const [name, matches] of cases) assert.deepEqual(liveryActionsOf(name), matches, name);
  // Every entry's name leads back to it, whatever its kind.
  for (const action of Object.keys(AUDIT_ACTIONS)) {
    for (const kind of [undefined, 'link', 'email']) {
      const details = kind === undefined ? {} : { kind };
      const found = liveryActionsOf(gitbookActionOf(action, details)).filter(
        (m) =>
          m.action === action &&
          (m.kind === undefined || m.kind === kind) &&
          (m.notKind === undefined || m.notKind !== kind),
      );
      assert.equal(found.length, 1, `${action} ${kind}`);
    }
  }
  assert.equal(
    gitbookActionOf('invite.created', { kind: 'link' }),
    'organization.link-invite.created',
  );
  assert.equal(gitbookActionOf('invite.created', { kind: 'email' }), 'invite.created');
  assert.equal(gitbookActionOf('an.unknown.action'), 'an.unknown.action');
  const listed = gitbookActionList().map((a) => a.id);
  const names = Object.keys(AUDIT_ACTIONS).flatMap((action) => [
    gitbookActionOf(action),
    gitbookActionOf(action, { kind: 'link' }),
  ]);
  assert.deepEqual(listed, [...new Set(names)].sort());
  // A kind is matched in the details' JSON text (repository.ts): it must not hold LIKE's wildcards.
  for (const mapping of Object.values(GITBOOK_AUDIT_ACTIONS)) {
    if (mapping.byKind) assert.match(mapping.byKind.kind, /^[a-z-]+$/);
  }
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
