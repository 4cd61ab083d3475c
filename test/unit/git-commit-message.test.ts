import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  commitMessageOf,
  NO_CHANGE_REQUEST,
} from '../../src/modules/git-sync/sync/commit-message.js';

test('commit messages of a linked space: the template, filled', () => {
  const cases: [string, { number: number; subject: string }[], string][] = [
    [
      'GITBOOK-{number}: {subject}',
      [{ number: 12, subject: 'New pages' }],
      'GITBOOK-12: New pages',
    ],
    ['GITBOOK-{number}: {subject}', [{ number: 3, subject: '  ' }], 'GITBOOK-3: No subject'],
    ['docs: {subject} (#{number})', [{ number: 4, subject: 'Fix' }], 'docs: Fix (#4)'],
    [
      'GITBOOK-{number}: {subject}',
      [
        { number: 9, subject: 'Latest' },
        { number: 8, subject: 'Earlier' },
      ],
      'GITBOOK-9: Latest\n\nAlso:\n- GITBOOK-8: Earlier',
    ],
    ['GITBOOK-{number}: {subject}', [], NO_CHANGE_REQUEST],
    ['{subject} {subject}', [{ number: 1, subject: 'Twice' }], 'Twice Twice'],
  ];
  for (const [template, merged, expected] of cases) {
    assert.equal(commitMessageOf(template, merged), expected, template);
  }
});
