import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  END,
  operationIdsOf,
  renderCoverage,
  START,
  withCoverage,
} from '../../scripts/api-coverage.js';
import { createTestApp } from '../helpers/app.js';

test("docs/api.md's coverage of GitBook 0.202 is the rendering of the app's operations", async () => {
  const t = await createTestApp();
  try {
    const openapi = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = renderCoverage(operationIdsOf(openapi));
    assert.equal(
      doc.slice(doc.indexOf(START), doc.indexOf(END) + END.length),
      section,
      'run `npm run docs:api-coverage -- --write`',
    );
  } finally {
    await t.close();
  }
});

test('the rendering counts per tag and replaces only its own section', () => {
  const section = renderCoverage(['getOrganizationById', 'listOrganizationAuditLog']);
  assert.match(section, /\*\*1 of the \d+ operations\*\*/);
  assert.match(section, /\| `organizations` \| 1 \/ \d+ \| `getOrganizationById` \|/);
  assert.match(section, /\(1: Livery extensions[^)]*\):\n`listOrganizationAuditLog`\./);
  const doc = `# Title\n\nBefore.\n\n${START}\nold\n${END}\n\nAfter.\n`;
  assert.equal(withCoverage(doc, section), `# Title\n\nBefore.\n\n${section}\n\nAfter.\n`);
  assert.equal(withCoverage(withCoverage(doc, section), section), withCoverage(doc, section));
});
