/**
 * Public means published (docs/renderer.md, "What a site token reads"): a site token is public
 * (GitBook's renderer embeds it in page HTML), so it reads only what the allow-list of
 * src/modules/site-tokens/public-view.ts lets through. The list is walked here against the
 * permission table (every operation a site token may call) and against the settings schema
 * (every field), on real answers over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { TSchema } from 'typebox';
import { PERMISSIONS } from '../../src/modules/access/permissions.js';
import {
  Publication,
  SETTINGS_PUBLICATION,
  type SettingsPublication,
  SITE_TOKEN_READS,
} from '../../src/modules/site-tokens/public-view.js';
import type { Shape } from '../../src/settings/override-rules.js';
import { SETTINGS_SHAPE, SettingsSchema } from '../../src/settings/settings-schema.js';
import { createTestApp, expectError, expectStatus, type TestContext } from '../helpers/app.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';
import { describeViolation, versionsOf } from '../helpers/gitbook-conformance.js';
import { judge } from '../helpers/gitbook-spec.js';
import { apiOperations } from '../helpers/openapi-operations.js';
import { type PublishedSite, publishedSite } from '../helpers/published.js';
import {
  type ChangeRequestTraces,
  changeRequestsOf,
  everySetting,
  NEVER_PUBLISHED,
} from '../helpers/site-token-fixture.js';

const PUBLIC = 'http://docs.acme.test/s/';
let t: TestContext;
let site: PublishedSite;
let token: string;
let traces: ChangeRequestTraces;

/** The second space's content comes from Git: its revision has a file and a reusable content. */
const repo = new TestRepo();

before(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC, GIT_LOCAL_DIRS: repo.root });
  site = await publishedSite(t, 'acme', { second: true });
  repo.commit({
    'README.md':
      '# Zweite\n\n![x](.gitbook/assets/x.png)\n\n{% include ".gitbook/includes/n.md" %}\n',
    '.gitbook/assets/x.png': pngOf(3, 3),
    '.gitbook/includes/n.md': '---\ntitle: Hinweis\n---\nEin Hinweis.\n',
  });
  const second = site.second?.spaceId as string;
  expectStatus(
    await t.request({
      method: 'POST',
      url: `/v1/spaces/${second}/git/import`,
      payload: { url: `file://${repo.dir}`, ref: 'main' },
    }),
    204,
  );
  for (let i = 0; ; i++) {
    const info = expectStatus(await t.request({ url: `/v1/spaces/${second}/git/info` }), 200);
    if ((info.operation as { state: string }).state === 'success') break;
    assert.ok(
      i < 400 && (info.operation as { state: string }).state === 'running',
      JSON.stringify(info),
    );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  traces = await changeRequestsOf(t, site.tree.spaceId);
  const lookup = { url: `${PUBLIC}acme/de` };
  token = expectStatus(
    await t.request({ method: 'POST', url: '/v1/urls/published', payload: lookup }),
    200,
  ).apiToken as string;
});
after(async () => {
  await t.close();
  repo.dispose();
});

const asToken = (method: string, url: string, payload?: object): Promise<LightMyRequestResponse> =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload }),
  });

const putSettings = async (settings: object) =>
  expectStatus(
    await t.request({
      method: 'PUT',
      url: `${site.base}/customization`,
      payload: settings,
    }),
    200,
  );

// ---------------------------------------------------------------------------------------------
// The settings schema, walked.

type Field = { path: string[]; group: boolean };

/** Every field of a settings group, depth first; groups (settings-schema's shape) recurse. */
function fieldsOf(schema: TSchema, shape: Shape, path: string[] = []): Field[] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, property]) => {
    const inner = shape[name];
    const here = [...path, name];
    return inner === undefined
      ? [{ path: here, group: false }]
      : [{ path: here, group: true }, ...fieldsOf(property, inner, here)];
  });
}

const SETTINGS_FIELDS = fieldsOf(SettingsSchema, SETTINGS_SHAPE);
const LEAVES = SETTINGS_FIELDS.filter((field) => !field.group);

function ruleAt(path: string[]): Publication | SettingsPublication | undefined {
  let node: Publication | SettingsPublication | undefined = SETTINGS_PUBLICATION;
  for (const name of path) {
    if (node === undefined || node instanceof Publication) return undefined;
    node = Object.hasOwn(node, name) ? node[name] : undefined;
  }
  return node;
}

function valueAt(value: unknown, path: string[]): { found: boolean; value?: unknown } {
  let node = value;
  for (const name of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, name)) {
      return { found: false };
    }
    node = (node as Record<string, unknown>)[name];
  }
  return { found: true, value: node };
}

/** Every field path of a JSON value's objects (arrays and their items are values). */
function pathsIn(value: unknown, path: string[] = []): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [path.join('.')];
  return Object.entries(value).flatMap(([name, inner]) => pathsIn(inner, [...path, name]));
}

describe('settings: every field is on the list, and a site token reads exactly what it allows', () => {
  test('the list classifies every field of the schema, and nothing else', () => {
    for (const { path, group } of SETTINGS_FIELDS) {
      const rule = ruleAt(path);
      assert.ok(rule !== undefined, `${path.join('.')} is not on the list`);
      assert.equal(!(rule instanceof Publication), group, `${path.join('.')}: group or field`);
    }
    const listed = (node: SettingsPublication, path: string[] = []): string[] =>
      Object.entries(node).flatMap(([name, inner]) =>
        inner instanceof Publication ? [[...path, name].join('.')] : listed(inner, [...path, name]),
      );
    assert.deepEqual(
      listed(SETTINGS_PUBLICATION).sort(),
      LEAVES.map((f) => f.path.join('.')).sort(),
    );
    assert.equal((ruleAt(['ai', 'instructions']) as Publication).kind, 'never');
  });

  test('the fixture sets every field of the schema', () => {
    const body = everySetting(true);
    for (const { path } of LEAVES) {
      assert.ok(valueAt(body, path).found, `everySetting() does not set ${path.join('.')}`);
    }
  });

  for (const on of [true, false]) {
    test(`published view, switches ${on ? 'on' : 'off'}: each field as the list says; members see all`, async () => {
      await putSettings(everySetting(on));
      const view = (bearer?: string) =>
        bearer === undefined
          ? t.request({ method: 'GET', url: `${site.base}/published` })
          : asToken('GET', `${site.base}/published`);
      const member = expectStatus(await view(), 200) as unknown as PublishedView;
      const visitor = expectStatus(await view(token), 200) as unknown as PublishedView;
      const settings = [
        ['site', member.customizations.site, visitor.customizations.site],
        ...site.siteSpaceIds.map((id) => [
          id,
          member.customizations.siteSpaces[id],
          visitor.customizations.siteSpaces[id],
        ]),
      ] as [string, Record<string, unknown>, Record<string, unknown>][];
      for (const [whose, full, shown] of settings) {
        const expected: string[] = [];
        for (const { path } of LEAVES) {
          const rule = ruleAt(path) as Publication;
          const all = valueAt(full, path);
          const seen = valueAt(shown, path);
          assert.ok(all.found, `${whose}: a member misses ${path.join('.')}`);
          if (all.found && rule.when(full as never)) {
            expected.push(...pathsIn(all.value, path));
            assert.deepEqual(seen, all, `${whose}: ${path.join('.')} is published`);
          } else {
            assert.equal(
              seen.found,
              false,
              `${whose}: ${path.join('.')} is not published (${rule.why})`,
            );
          }
        }
        assert.deepEqual(
          pathsIn(shown).sort(),
          expected.sort(),
          `${whose}: nothing beside the list`,
        );
      }
      const text = JSON.stringify(visitor);
      for (const canary of NEVER_PUBLISHED) assert.ok(!text.includes(canary), canary);
      assert.equal(text.includes('CANARY'), on, 'drafts appear only while switched on');
      assert.match(JSON.stringify(member), /CANARY-instructions/, 'a member reads them all');
    });
  }
});

interface PublishedView {
  customizations: {
    site: Record<string, unknown>;
    siteSpaces: Record<string, Record<string, unknown>>;
  };
}

// ---------------------------------------------------------------------------------------------
// Every operation a site token may call, walked.

/** Bodies for the operations that take one (an operation added without one fails the walk). */
const BODIES: Record<string, object> = {
  searchSiteContent: { query: 'page' },
  // The renderer reports a reader's page view (docs/insights.md, "Site events").
  trackEventsInSiteById: {
    events: [
      {
        type: 'page_view',
        session: {
          visitorId: 'v',
          sessionId: 's',
          cookies: {},
          userAgent: 'test',
          language: 'en',
          referrer: null,
        },
        location: {
          url: 'https://docs.example.com/',
          siteSection: null,
          siteSpace: null,
          siteShareKey: null,
          space: null,
          revision: null,
          page: null,
        },
      },
    ],
  },
};
/** What each operation answers a site token when it succeeds, where that is not 200. */
const ANSWERS: Record<string, number> = {
  getSiteRedirectBySource: 404,
  trackEventsInSiteById: 204,
};

const SITE_TOKEN_OPERATIONS = Object.entries(PERMISSIONS)
  .filter(([, permission]) => permission.siteToken === true)
  .map(([operationId]) => operationId);

describe('every operation a site token may call: on the list, and only published data', () => {
  test('the list has exactly the operations the permission table opens to site tokens', () => {
    assert.deepEqual(Object.keys(SITE_TOKEN_READS).sort(), [...SITE_TOKEN_OPERATIONS].sort());
  });

  for (const [state, settings] of [
    ['every setting, switches off', everySetting(false)],
    ['the defaults', {}],
  ] as const) {
    test(`${state}: each answers the token only published data, as GitBook's schema says`, async () => {
      await putSettings(settings);
      const operations = await apiOperations(t);
      const spec = expectStatus(await t.app.inject({ method: 'GET', url: '/openapi.json' }), 200);
      const idOf = (path: string, method: string) =>
        (spec.paths as Record<string, Record<string, { operationId: string }>>)[path]?.[method]
          ?.operationId;
      const forbidden = [...traces.canaries, ...NEVER_PUBLISHED, 'CANARY', 'change-request'];
      const calls: string[] = [];
      for (const operation of operations) {
        const operationId = idOf(operation.path, operation.method);
        if (operationId === undefined || !SITE_TOKEN_OPERATIONS.includes(operationId)) continue;
        for (const url of await urlsFor(operation.path, operation.parameters)) {
          const body = operation.bodySchema === undefined ? undefined : BODIES[operationId];
          assert.ok(operation.bodySchema === undefined || body, `BODIES needs ${operationId}`);
          const response = await asToken(operation.method.toUpperCase(), url, body);
          calls.push(operationId);
          const expected: number = ANSWERS[operationId] ?? 200;
          assert.equal(response.statusCode, expected, `${url}: ${response.body.slice(0, 300)}`);
          for (const canary of forbidden) {
            assert.ok(!response.body.includes(canary), `${operationId} ${url} shows ${canary}`);
          }
          if (expected !== 200) continue;
          for (const version of versionsOf(operationId).filter((v) => v === '0.202')) {
            const violations: string[] = judge(version, operationId, response).map(
              describeViolation,
            );
            assert.deepEqual(violations, [], `${version} ${operationId} ${url}`);
          }
        }
      }
      assert.deepEqual([...new Set(calls)].sort(), [...SITE_TOKEN_OPERATIONS].sort());
    });
  }

  test("a change request's revision of any type is a 404 wherever a revision is named", async () => {
    const operations = await apiOperations(t);
    const spec = expectStatus(await t.app.inject({ method: 'GET', url: '/openapi.json' }), 200);
    const paths = spec.paths as Record<string, Record<string, { operationId: string }>>;
    const named = operations.filter((op) => op.path.includes('{revisionId}'));
    assert.ok(named.length >= 5);
    for (const { type, id } of traces.revisions) {
      for (const operation of named) {
        const operationId = paths[operation.path]?.[operation.method]?.operationId ?? '';
        for (const url of await urlsFor(operation.path, operation.parameters, id)) {
          const response = await asToken('GET', url);
          // An operation closed to site tokens (getRevisionSemanticChanges) reads nothing: 403.
          if (!SITE_TOKEN_OPERATIONS.includes(operationId)) expectError(response, 403);
          else assert.match(expectError(response, 404), /revision/i, `${type}: ${url}`);
        }
      }
    }
  });

  test('a member still reads the change requests: the walk has something to find', async () => {
    const space = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${site.tree.spaceId}` }),
      200,
    );
    assert.ok((space.changeRequests as number) >= 2);
    const revision = await t.request({
      method: 'GET',
      url: `/v1/spaces/${site.tree.spaceId}/revisions/${space.revision}`,
    });
    assert.match(revision.body, /CANARY-subject of the merged one/);
    const seen = expectStatus(
      await asToken('GET', `/v1/spaces/${site.tree.spaceId}/revisions/${space.revision}`),
      200,
    );
    assert.equal(seen.type, 'edits', 'a merge, as it reads on the published line');
    const parents = JSON.parse(revision.body).parents as string[];
    assert.deepEqual(seen.parents, parents.slice(0, 1), 'its published parent only');
    const counted = expectStatus(await asToken('GET', `/v1/spaces/${site.tree.spaceId}`), 200);
    assert.deepEqual(
      [counted.changeRequests, counted.changeRequestsOpen, counted.changeRequestsDraft],
      [0, 0, 0],
    );
  });
});

/**
 * The URLs of one operation for the site: each of its spaces, in its current (published)
 * revision or in `revisionId`, with a document page of it; with and without a `format`.
 */
async function urlsFor(
  path: string,
  parameters: { name: string; in: string }[],
  revisionId?: string,
): Promise<string[]> {
  const urls: string[] = [];
  const spaces = [site.tree.spaceId, site.second?.spaceId as string];
  for (const spaceId of path.includes('{spaceId}') ? spaces : [site.tree.spaceId]) {
    const space = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}` }),
      200,
    );
    const revision = revisionId ?? (space.revision as string);
    const pages = expectStatus(
      await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/content/pages` }),
      200,
    ).pages as { id: string; type: string; path: string }[];
    const page = pages.find((p) => p.type === 'document') as { id: string; path: string };
    // Files and reusable contents: those of the revision (the imported space's), else none.
    const read = await t.request({
      method: 'GET',
      url: `/v1/spaces/${spaceId}/revisions/${revision}`,
    });
    const record = read.statusCode === 200 ? read.json() : { files: [], reusableContents: [] };
    const fileId: string | undefined = record.files[0]?.id;
    const reusableId: string | undefined = record.reusableContents[0]?.id;
    const needs = (name: string, id: string | undefined) =>
      path.includes(`{${name}}`) && id === undefined;
    if (
      revisionId === undefined &&
      (needs('fileId', fileId) || needs('reusableContentId', reusableId))
    ) {
      continue; // this space's revision has none to read
    }
    const filled = path
      .replace('{fileId}', fileId ?? 'none')
      .replace('{reusableContentId}', reusableId ?? 'none')
      .replace('{organizationId}', t.orgId)
      .replace('{siteId}', site.siteId)
      .replace('{spaceId}', spaceId)
      .replace('{revisionId}', revision)
      .replace('{pageId}', page.id)
      .replace('{pagePath}', encodeURIComponent(page.path));
    assert.doesNotMatch(filled, /\{/, `a parameter of ${path} is not filled`);
    const query = parameters.some((p) => p.in === 'query' && p.name === 'source')
      ? '?source=/old'
      : '';
    urls.push(filled + query);
    if (parameters.some((p) => p.in === 'query' && p.name === 'format')) {
      urls.push(`${filled}?format=markdown`, `${filled}?format=document`);
    }
  }
  return urls;
}
