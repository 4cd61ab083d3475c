/**
 * The GitBook conformance harness (test/helpers/gitbook-spec.ts) itself: that it compiles every
 * judged operation of each spec, and that it rejects what each spec rejects, so that "0
 * violations" from the conformance tests means something.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { versionsOf } from '../helpers/gitbook-conformance.js';
import { AREAS } from '../helpers/gitbook-conformance-plan.js';
import { PUT_BODY_0130, PUT_BODY_0202_ONLY } from '../helpers/gitbook-customization-bodies.js';
import { judge, operation, requestViolations, violationsAt } from '../helpers/gitbook-spec.js';
import { matchesPath } from '../helpers/gitbook-spec-quirks.js';

const json = (status: number, body: unknown) => ({
  statusCode: status,
  body: body === undefined ? '' : JSON.stringify(body),
  headers: { 'content-type': 'application/json; charset=utf-8' },
});

const site = {
  object: 'site',
  id: 'site_1',
  type: 'basic',
  title: 'Docs',
  visibility: 'public',
  published: false,
  siteSpaces: 1,
  createdAt: '2025-01-01T00:00:00.000Z',
  features: [],
  agentsContext: 'included',
  urls: { location: 'http://livery.test/v1/orgs/o/sites/site_1', app: 'http://livery.test/x' },
};

describe('the GitBook spec harness', () => {
  test('compiles the declared responses of every judged operation in each of its versions', () => {
    for (const operationId of Object.values(AREAS).flat()) {
      for (const version of versionsOf(operationId)) {
        const op = operation(version, operationId);
        assert.ok(op, `${version} ${operationId}`);
        for (const status of Object.keys(op.responses).filter((s) => /^\d/.test(s))) {
          assert.ok(Array.isArray(judge(version, operationId, json(Number(status), {}))));
        }
      }
    }
  });

  test('names a missing required field, an undeclared status and a body where none is declared', () => {
    const missing = judge('0.202', 'getSiteById', json(200, site)).map(
      (v) => `${v.path} ${v.keyword}`,
    );
    assert.ok(missing.includes('/permissions required'), missing.join(', '));
    // 0.130 requires `defaultSpace` without defining it: patched out (UNSATISFIABLE).
    assert.deepEqual(judge('0.130', 'getSiteById', json(200, site)), []);
    assert.equal(judge('0.202', 'getSiteById', json(418, { error: {} }))[0]?.keyword, 'status');
    assert.equal(judge('0.130', 'deleteSiteById', json(205, { ok: true }))[0]?.keyword, 'content');
    assert.deepEqual(judge('0.130', 'deleteSiteById', json(205, undefined)), []);
    const wrongType = { ...json(200, site), headers: { 'content-type': 'text/html' } };
    assert.equal(judge('0.130', 'getSiteById', wrongType)[0]?.keyword, 'content');
  });

  test("reads OpenAPI 3.0's nullable alternatives as JSON null", () => {
    assert.deepEqual(
      requestViolations('0.130', 'overrideSiteSpaceCustomizationById', { title: null }),
      [],
    );
    const bad = requestViolations('0.130', 'overrideSiteSpaceCustomizationById', { title: 5 });
    assert.deepEqual(
      bad.map((v) => [v.path, v.keyword]),
      [['/title', 'type']],
    );
  });

  test('explains a failing union by the branch its tag names, not by every branch', () => {
    const group = {
      object: 'revision-page',
      id: 'p',
      title: 'Guides',
      kind: 'group',
      type: 'group',
      slug: 'g',
      path: 'g',
    };
    const found = violationsAt('0.130', '/components/schemas/RevisionPage', group);
    assert.deepEqual(
      found.map((v) => `${v.path} ${v.keyword} ${v.expected}`),
      ['/pages required pages'],
    );
    const kind = violationsAt('0.130', '/components/schemas/ContentRef', { kind: 'tag', tag: 'x' });
    assert.deepEqual(
      kind.map((v) => [v.path, v.keyword, v.actual]),
      [['/kind', 'enum', '"tag"']],
    );
  });

  test('settings only 0.202 can express are the listed contradictions under 0.130', () => {
    const settings = {
      ...PUT_BODY_0130,
      ...PUT_BODY_0202_ONLY,
      pageActions: { ...PUT_BODY_0130.pageActions, ...PUT_BODY_0202_ONLY.pageActions },
    };
    assert.deepEqual(
      violationsAt('0.202', '/components/schemas/SiteCustomizationSettings', settings),
      [],
    );
    const under130 = violationsAt(
      '0.130',
      '/components/schemas/SiteCustomizationSettings',
      settings,
    );
    assert.deepEqual(under130.map((v) => `${v.path} ${v.actual}`).sort(), [
      '/header/links/0/to/kind "tag"',
      '/internationalization/locale "ru"',
      '/themes/default "system"',
    ]);
    assert.ok(matchesPath('**/to/kind', '/header/links/0/to/kind'));
    assert.ok(matchesPath('/items/*/id', '/items/3/id'));
    assert.ok(!matchesPath('/items/*/id', '/items/3/title'));
  });
});
