/**
 * GitBook conformance: custom fonts (docs/customization.md, "Custom fonts"). Every answer of the
 * five custom-fonts operations judged against GitBook 0.202's response schemas (every status it
 * declares), every body sent valid under its request schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { LATO_700, uploadFont } from '../helpers/fonts.js';
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

describe('GitBook conformance: custom fonts', () => {
  test('create, list, get, update, delete; 404 and 412', async () => {
    const url = `/v1/orgs/${t.orgId}/fonts`;
    const regular = await uploadFont(t);
    const bold = await uploadFont(t, LATO_700, 'bold.woff2');
    const made = await c.call(
      'createCustomFont',
      {
        method: 'PUT',
        url,
        payload: {
          fontFamily: 'Brand',
          fontFaces: [
            { weight: 400, storageKey: regular },
            { weight: 700, storageKey: bold },
          ],
        },
      },
      { status: 201 },
    );
    const id = json(made.body).id as string;
    await c.call(
      'createCustomFont',
      {
        method: 'PUT',
        url,
        payload: { fontFamily: 'No regular', fontFaces: [{ weight: 700, storageKey: bold }] },
      },
      { status: 412 },
    );
    await c.call(
      'createCustomFont',
      {
        method: 'PUT',
        url: '/v1/orgs/org_doesnotexist/fonts',
        payload: { fontFamily: 'F', fontFaces: [{ weight: 400, storageKey: regular }] },
      },
      { status: 404 },
    );
    await c.call('listCustomFonts', { method: 'GET', url }, { status: 200 });
    await c.call(
      'listCustomFonts',
      { method: 'GET', url: '/v1/orgs/org_doesnotexist/fonts' },
      { status: 404 },
    );
    await c.call('getCustomFont', { method: 'GET', url: `${url}/${id}` }, { status: 200 });
    await c.call('getCustomFont', { method: 'GET', url: `${url}/font_nope` }, { status: 404 });
    const updated = await c.call(
      'updateCustomFont',
      {
        method: 'POST',
        url: `${url}/${id}`,
        payload: { fontFamily: 'Brand 2', fontFaces: [{ weight: 700, storageKey: null }] },
      },
      { status: 201 },
    );
    c.check(() => assert.equal(json(updated.body).fontFamily, 'Brand 2'));
    await c.call(
      'updateCustomFont',
      {
        method: 'POST',
        url: `${url}/${id}`,
        payload: { fontFaces: [{ weight: 400, storageKey: null }] },
      },
      { status: 412 },
    );
    await c.call(
      'updateCustomFont',
      { method: 'POST', url: `${url}/font_nope`, payload: { fontFamily: 'X' } },
      { status: 404 },
    );
    await c.call('deleteCustomFont', { method: 'DELETE', url: `${url}/${id}` }, { status: 205 });
    await c.call('deleteCustomFont', { method: 'DELETE', url: `${url}/${id}` }, { status: 204 });
    c.assertConforms();
    assertCoverage(c, 'fonts');
  });
});
