/**
 * GitBook conformance (issue 14): no operation forgotten. Every operation of Livery's own
 * `GET /openapi.json` that a GitBook spec (0.202, 0.130, 0.91) has belongs to the area of one
 * test/gitbook-conformance-<area>.test.ts file (each asserts it judged exactly its area), and so
 * does every in-scope operation of gitbook-ops.json (a copy of
 * ../shared/reference/gitbook-ops.json) that Livery implements. The operations no
 * spec has are skipped by name, here; the unsatisfiable schema parts and the accepted 0.130
 * contradictions are printed with their reasons.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { CLIENT_ROUND_TRIPS, IN_SCOPE, NOT_IN_0202_CLIENT } from '../helpers/gitbook-0202.js';
import { versionsOf } from '../helpers/gitbook-conformance.js';
import { AREAS, STATUSES_NOT_EXERCISED } from '../helpers/gitbook-conformance-plan.js';
import { operation } from '../helpers/gitbook-spec.js';
import {
  CONTRADICTIONS_0130,
  NOT_IMPLEMENTED_0202_INPUTS,
  UNSATISFIABLE,
} from '../helpers/gitbook-spec-quirks.js';

type Operations = Record<
  string,
  Record<string, { operationId: string; tags?: string[]; deprecated?: boolean }>
>;

let t: TestContext;
let livery: {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  deprecated: boolean;
}[];

before(async () => {
  t = await createTestApp();
  const doc = expectStatus(await t.app.inject({ method: 'GET', url: '/openapi.json' }), 200) as {
    paths: Operations;
  };
  livery = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path,
      tags: op.tags ?? [],
      deprecated: op.deprecated === true,
    })),
  );
});
after(async () => t.close());

const judged = new Set<string>(Object.values(AREAS).flat());

describe('GitBook conformance: coverage', () => {
  test("every operation of Livery's that a GitBook spec has is judged; the others are named", () => {
    const forgotten = livery
      .filter((op) => versionsOf(op.operationId).length > 0 && !judged.has(op.operationId))
      .map((op) => op.operationId);
    assert.deepEqual(forgotten, [], 'operations in a GitBook spec that no conformance test judges');

    const ids = new Set(livery.map((op) => op.operationId));
    assert.deepEqual(
      [...judged].filter((id) => !ids.has(id)),
      [],
      'judged but not implemented',
    );
    assert.deepEqual(
      [...judged].filter((id) => versionsOf(id).length === 0),
      [],
      'judged but in no spec',
    );

    const skipped = livery.filter((op) => versionsOf(op.operationId).length === 0);
    const why = (op: (typeof skipped)[number]) =>
      !op.path.startsWith('/v1/')
        ? 'operations endpoint, not part of the GitBook API'
        : op.tags.includes('livery')
          ? 'Livery extension (tag livery)'
          : op.deprecated
            ? 'deprecated space-keyed form, named after its site-keyed successor (docs/deprecations.md)'
            : 'in no GitBook spec';
    console.log(
      [
        `GitBook conformance: ${judged.size} operations judged; ${skipped.length} of Livery's skipped, in no GitBook spec:`,
        ...skipped.map((op) => `  skipped ${op.operationId} (${op.method} ${op.path}): ${why(op)}`),
      ].join('\n'),
    );
    for (const op of skipped) {
      assert.ok(
        !op.path.startsWith('/v1/') || op.tags.includes('livery') || op.deprecated,
        op.operationId,
      );
    }
  });

  test('every in-scope operation of gitbook-ops.json that Livery implements is judged', () => {
    const scope = JSON.parse(
      readFileSync(new URL('../helpers/gitbook-ops.json', import.meta.url), 'utf8'),
    ) as { operationId: string }[];
    assert.equal(scope.length, 65);
    const ids = new Set(livery.map((op) => op.operationId));
    const implemented = scope.filter((op) => ids.has(op.operationId));
    assert.deepEqual(
      implemented.filter((op) => !judged.has(op.operationId)).map((op) => op.operationId),
      [],
    );
    const missing = scope.filter((op) => !ids.has(op.operationId)).map((op) => op.operationId);
    console.log(
      `gitbook-ops.json: ${implemented.length} of ${scope.length} in-scope operations implemented and judged; not implemented: ${missing.join(', ')}`,
    );
    assert.deepEqual(missing, ['setUserAsSSOMemberForOrganization'], 'docs/members.md: no SSO');
  });

  test('every in-scope operation is driven by a 0.202 client test, or named with its reason', () => {
    const driven = new Set<string>([
      ...Object.values(CLIENT_ROUND_TRIPS).flat(),
      ...Object.keys(NOT_IN_0202_CLIENT),
    ]);
    assert.deepEqual(
      IN_SCOPE.map((op) => op.operationId).filter((id) => !driven.has(id)),
      [],
    );
    console.log(
      [
        'In-scope operations the 0.202 client does not drive:',
        ...Object.entries(NOT_IN_0202_CLIENT).map(([id, why]) => `  ${id}: ${why}`),
      ].join('\n'),
    );
  });

  test('the unsatisfiable GitBook schema parts, the accepted contradictions, the statuses not provoked', () => {
    const lines = [
      `Unsatisfiable GitBook schema parts, patched out before judging (${UNSATISFIABLE.length}):`,
      ...UNSATISFIABLE.map((p) =>
        p.kind === 'replace'
          ? `  ${p.version} ${p.at}: ${p.reason}`
          : `  ${p.version} ${p.schema} required "${p.name}": ${p.reason}`,
      ),
      `Accepted 0.130 contradictions with 0.202 (${CONTRADICTIONS_0130.length}):`,
      ...CONTRADICTIONS_0130.map((c) => `  ${c.path} [${c.keyword}] ${c.actual}: ${c.reason}`),
      `Inputs for features Livery does not have, refused with a 400 but for the values listed (${NOT_IMPLEMENTED_0202_INPUTS.length}):`,
      ...NOT_IMPLEMENTED_0202_INPUTS.map(
        (r) =>
          `  ${r.operationId} ${r.field} (accepted: ${r.accepted.map((v) => JSON.stringify(v)).join(', ') || 'none'}): ${r.reason}`,
      ),
      'Declared statuses not provoked:',
      ...Object.entries(STATUSES_NOT_EXERCISED).map(([key, reason]) => `  ${key}: ${reason}`),
    ];
    console.log(lines.join('\n'));
    for (const c of CONTRADICTIONS_0130)
      assert.ok(c.reason.length > 0 && /^(\*\*)?\//.test(c.path));
    for (const p of UNSATISFIABLE) assert.ok(p.reason.length > 0);
    for (const r of NOT_IMPLEMENTED_0202_INPUTS) {
      assert.match(r.reason, /^Livery has no /, `${r.operationId} ${r.field}`);
      assert.ok(operation('0.202', r.operationId), `${r.operationId} is a 0.202 operation`);
    }
    const keys = NOT_IMPLEMENTED_0202_INPUTS.map((r) => `${r.operationId} ${r.field}`);
    assert.equal(new Set(keys).size, keys.length, 'each operation and field once');
  });

  test('docs/api.md lists every refused 0.202 input (operation, field and accepted values on one line)', () => {
    const lines = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8').split('\n');
    const unlisted = NOT_IMPLEMENTED_0202_INPUTS.filter(
      (r) =>
        !lines.some(
          (line) =>
            line.includes(`\`${r.operationId}\``) &&
            line.includes(`\`${r.field}\``) &&
            (r.accepted.length === 0
              ? line.includes('none')
              : r.accepted.every((v) => line.includes(`\`${JSON.stringify(v)}\``))),
        ),
    );
    assert.deepEqual(
      unlisted.map((r) => `${r.operationId} ${r.field}`),
      [],
    );
  });

  test('docs/api.md lists every accepted 0.130 contradiction (its path and value on one line)', () => {
    const lines = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8').split('\n');
    const unlisted = CONTRADICTIONS_0130.filter(
      (c) =>
        !lines.some(
          (line) => line.includes(c.path.replace(/^\*\*/, '')) && line.includes(c.actual),
        ),
    );
    assert.deepEqual(
      unlisted.map((c) => `${c.path} ${c.actual}`),
      [],
    );
  });
});
