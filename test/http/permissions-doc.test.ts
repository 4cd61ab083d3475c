import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PERMISSIONS } from '../../src/modules/access/permissions.js';
import { renderPermissionsDoc } from '../../src/modules/access/permissions-doc.js';
import { createTestApp } from '../helpers/app.js';

test('docs/permissions.md is the rendering of the table the code enforces', () => {
  const doc = readFileSync(new URL('../../docs/permissions.md', import.meta.url), 'utf8');
  assert.equal(doc, renderPermissionsDoc(), 'run `npm run docs:permissions`');
  for (const operationId of Object.keys(PERMISSIONS)) {
    assert.ok(doc.includes(`| \`${operationId}\` |`), operationId);
  }
});

test('the table has a row for every /v1 operation and none for an operation that does not exist', async () => {
  const t = await createTestApp();
  try {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([, methods]) => Object.values(methods).map((op) => op.operationId));
    assert.deepEqual([...new Set(operations)].sort(), Object.keys(PERMISSIONS).sort());
  } finally {
    await t.close();
  }
});
