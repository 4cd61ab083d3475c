/**
 * GitBook conformance (issue 14): spaces and change requests, each response judged against the
 * response schemas of GitBook 0.202 and 0.130 (updateChangeRequestContent: 0.202 only, the one
 * version that has it). Pages and revisions: test/conformance/gitbook-conformance-pages.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, expectStatus, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';

let t: TestContext;
let c: Conformance;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
});
after(async () => t.close());

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;
const spaces = () => `/v1/orgs/${t.orgId}/spaces`;

/** A space made through the API without judging it (createSpace is judged in its own test). */
async function newSpace(title: string): Promise<string> {
  const response = await t.request({ method: 'POST', url: spaces(), payload: { title } });
  return expectStatus(response, 201).id as string;
}

describe('GitBook conformance: spaces and change requests', () => {
  test('spaces: create, list, get, update, delete (205, then 204 for one that does not exist)', async () => {
    const created = await c.call(
      'createSpace',
      { method: 'POST', url: spaces(), payload: { title: 'Handbook', emoji: '📘' } },
      { status: 201 },
    );
    const space = `/v1/spaces/${json(created.body).id}`;
    await c.call('createSpace', { method: 'POST', url: spaces() }, { status: 201 });
    const blank = await c.call(
      'createSpace',
      {
        method: 'POST',
        url: spaces(),
        payload: { title: 'Blank', empty: true, language: 'de', editMode: 'live' },
      },
      { status: 201, versions: ['0.202'] },
    );
    c.check(() => assert.equal(json(blank.body).language, 'de'));
    // GitBook's answer; NOT_IMPLEMENTED_0202_INPUTS makes this and `defaultLevel: "admin"` below
    // Livery's 400.
    await c.call(
      'createSpace',
      { method: 'POST', url: spaces(), payload: { title: 'Locked', editMode: 'locked' } },
      { status: 201 },
    );
    await c.call(
      'listSpacesInOrganizationById',
      { method: 'GET', url: `${spaces()}?limit=1` },
      { status: 200 },
    );
    await c.call('getSpaceById', { method: 'GET', url: space }, { status: 200 });
    const renamed = await c.call(
      'updateSpaceById',
      { method: 'PATCH', url: space, payload: { title: 'Staff handbook', emoji: '📗' } },
      { status: 200 },
    );
    await c.call(
      'updateSpaceById',
      { method: 'PATCH', url: space, payload: { emoji: null, icon: null } },
      { status: 200 },
    );
    const french = await c.call(
      'updateSpaceById',
      { method: 'PATCH', url: space, payload: { defaultLevel: 'inherit', language: 'fr' } },
      { status: 200, versions: ['0.202'] },
    );
    c.check(() => assert.equal(json(french.body).language, 'fr'));
    const iconed = await c.call(
      'updateSpaceById',
      { method: 'PATCH', url: space, payload: { icon: 'https://example.com/icon.png' } },
      { status: 200 },
    );
    c.check(() => assert.equal(json(iconed.body).icon, 'https://example.com/icon.png'));
    await c.call(
      'updateSpaceById',
      {
        method: 'PATCH',
        url: space,
        payload: { mergeRules: { type: 'inherit' }, editMode: 'live' },
      },
      { status: 200, versions: ['0.202'] },
    );
    await c.call(
      'updateSpaceById',
      { method: 'PATCH', url: space, payload: { defaultLevel: 'admin' } },
      { status: 200 },
    );
    await c.call('deleteSpaceById', { method: 'DELETE', url: space }, { status: 205 });
    // GitBook: "204 Space did not exist".
    await c.call('deleteSpaceById', { method: 'DELETE', url: space }, { status: 204 });
    c.check(() => assert.equal(json(created.body).emoji, '📘'));
    c.check(() => assert.equal(json(renamed.body).title, 'Staff handbook'));
    c.assertConforms();
  });

  test('change requests: create, list, get (404), update, edit content (404), update from the space, merge', async () => {
    const spaceId = await newSpace('Guides');
    const crs = `/v1/spaces/${spaceId}/change-requests`;
    const first = await c.call(
      'createChangeRequest',
      { method: 'POST', url: crs, payload: { subject: 'Install guide' } },
      { status: 201 },
    );
    const second = await c.call(
      'createChangeRequest',
      { method: 'POST', url: crs, payload: {} },
      { status: 201 },
    );
    const one = `${crs}/${json(first.body).id}`;
    const two = `${crs}/${json(second.body).id}`;
    await c.call('listChangeRequestsForSpace', { method: 'GET', url: crs }, { status: 200 });
    await c.call(
      'listChangeRequestsForSpace',
      { method: 'GET', url: `${crs}?status=draft&limit=5` },
      { status: 200 },
    );
    await c.call('getChangeRequestById', { method: 'GET', url: one }, { status: 200 });
    await c.call('getChangeRequestById', { method: 'GET', url: `${crs}/nope` }, { status: 404 });
    const edited = await c.call(
      'updateChangeRequestContent',
      {
        method: 'POST',
        url: `${one}/content`,
        payload: {
          changes: [
            {
              operation: 'insert_page',
              title: 'Install',
              document: { markdown: '# Install\n\nRun it.\n' },
            },
            { operation: 'insert_page', title: 'Scratch', document: {} },
          ],
        },
      },
      { status: 200 },
    );
    const pages = expectStatus(
      await t.request({ method: 'GET', url: `${one}/content/pages` }),
      200,
    );
    const [install, scratch] = pages.pages as { id: string }[];
    await c.call(
      'updateChangeRequestContent',
      {
        method: 'POST',
        url: `${one}/content?compat=true`,
        payload: {
          changes: [
            {
              operation: 'update_page',
              page: install?.id ?? '',
              title: 'Installing',
              hidden: false,
            },
            { operation: 'delete_page', page: scratch?.id ?? '' },
          ],
        },
      },
      { status: 200 },
    );
    await c.call(
      'updateChangeRequestContent',
      {
        method: 'POST',
        url: `${crs}/nope/content`,
        payload: { changes: [{ operation: 'insert_page', document: {} }] },
      },
      { status: 404 },
    );
    const updated = await c.call(
      'updateChangeRequestById',
      {
        method: 'PATCH',
        url: one,
        payload: { subject: 'Install guide, reviewed', status: 'open' },
      },
      { status: 200 },
    );
    await c.call(
      'updateChangeRequestById',
      { method: 'PATCH', url: two, payload: { status: 'draft' } },
      { status: 200 },
    );
    const merged = await c.call(
      'mergeChangeRequest',
      { method: 'POST', url: `${one}/merge` },
      { status: 200 },
    );
    await c.call(
      'updateChangeRequestById',
      { method: 'PATCH', url: two, payload: { status: 'open' } },
      { status: 200 },
    );
    const brought = await c.call(
      'updateChangeRequest',
      { method: 'POST', url: `${two}/update` },
      { status: 200 },
    );
    await c.call('getChangeRequestById', { method: 'GET', url: one }, { status: 200 });
    await c.call('getChangeRequestById', { method: 'GET', url: two }, { status: 200 });
    c.check(() => assert.equal(json(first.body).subject, 'Install guide'));
    c.check(() => assert.equal(json(edited.body).id, json(first.body).id));
    c.check(() => assert.equal(json(updated.body).subject, 'Install guide, reviewed'));
    c.check(() => assert.equal(json(merged.body).result, 'merge'));
    c.check(() => assert.equal(json(brought.body).result, 'update'));
    c.assertConforms();
  });

  test('summary: every operation of the area judged, with its statuses', () => {
    console.log(c.report('spaces and change requests'));
    assertCoverage(c, 'content');
  });
});
