import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { AUDIT_ACTIONS } from '../../src/modules/audit/actions.js';

test('docs/history.md lists exactly the audit actions the code records', async () => {
  const doc = await readFile(new URL('../../docs/history.md', import.meta.url), 'utf8');
  const start = doc.indexOf('### Actions');
  // Up to the next section (GitBook's audit events has its own table of the same actions).
  const end = doc.indexOf('\n## ', start);
  const section = doc.slice(start, end === -1 ? undefined : end);
  const documented = [...section.matchAll(/^\| `([a-z.-]+)` \|/gm)].map((match) => match[1]);
  assert.deepEqual(documented.sort(), Object.keys(AUDIT_ACTIONS).sort());
});
