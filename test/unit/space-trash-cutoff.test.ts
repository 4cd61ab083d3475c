import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TRASH_DAYS, trashCutoff } from '../../src/modules/spaces/lifecycle.js';

test('a space deleted before the cutoff is past its 7 days', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z');
  assert.equal(TRASH_DAYS, 7);
  const cases: [deletedAt: string, past: boolean][] = [
    ['2026-11-21T11:59:59.999Z', true],
    ['2026-11-21T12:00:00.000Z', false], // exactly 7 days: still restorable
    ['2026-11-28T12:00:00.000Z', false],
    ['2026-10-01T00:00:00.000Z', true],
  ];
  for (const [deletedAt, past] of cases) {
    // The comparison the repository makes (ISO-8601 UTC strings sort as times).
    assert.equal(deletedAt < trashCutoff(now), past, deletedAt);
  }
});
