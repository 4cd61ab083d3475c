/**
 * GitBook conformance (issue 14): the five site-customization operations, each response judged
 * against the response schemas of GitBook 0.202 and 0.130 (test/helpers/gitbook-spec.ts). A PUT
 * is a full replacement whose required fields differ between the versions, so each version gets
 * its own body (test/helpers/gitbook-customization-bodies.ts) and judges the answer to it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSite, createTestApp, type SiteFixture, type TestContext } from '../helpers/app.js';
import { Conformance } from '../helpers/gitbook-conformance.js';
import { assertCoverage } from '../helpers/gitbook-conformance-plan.js';
import {
  PUT_BODY_0130,
  PUT_BODY_0202,
  PUT_BODY_0202_ONLY,
} from '../helpers/gitbook-customization-bodies.js';

let t: TestContext;
let c: Conformance;
let site: SiteFixture;

before(async () => {
  t = await createTestApp();
  c = new Conformance(t);
  site = await createSite(t, 2);
});
after(async () => t.close());

const json = (body: string) => JSON.parse(body) as Record<string, unknown>;
const settings = () => `${site.base}/customization`;
const variant = () => `${site.base}/site-spaces/${site.siteSpaceIds[1]}/customization`;

describe('GitBook conformance: site customization', () => {
  test('the defaults, read at the site and at a site-space', async () => {
    await c.call('getSiteCustomizationById', { method: 'GET', url: settings() }, { status: 200 });
    await c.call(
      'getSiteCustomizationById',
      { method: 'GET', url: `${settings()}?unmasked=true` },
      { status: 200 },
    );
    // A query value that is not a boolean: the 400 both versions declare.
    await c.call(
      'getSiteCustomizationById',
      { method: 'GET', url: `${settings()}?unmasked=perhaps` },
      { status: 400 },
    );
    await c.call(
      'getSiteSpaceCustomizationById',
      { method: 'GET', url: variant() },
      { status: 200 },
    );
    await c.call(
      'getSiteSpaceCustomizationById',
      { method: 'GET', url: `${variant()}?unmasked=perhaps` },
      { status: 400 },
    );
    c.assertConforms();
  });

  test('PUT with a full 0.202 body, then with a full 0.130 body; 400 for a bad colour', async () => {
    const current = await c.call(
      'updateSiteCustomizationById',
      { method: 'PUT', url: settings(), payload: PUT_BODY_0202 },
      { status: 200, versions: ['0.202'] },
    );
    await c.call('getSiteCustomizationById', { method: 'GET', url: settings() }, { status: 200 });
    const older = await c.call(
      'updateSiteCustomizationById',
      { method: 'PUT', url: settings(), payload: PUT_BODY_0130 },
      { status: 200, versions: ['0.130'] },
    );
    await c.call('getSiteCustomizationById', { method: 'GET', url: settings() }, { status: 200 });
    await c.call(
      'updateSiteCustomizationById',
      {
        method: 'PUT',
        url: settings(),
        payload: {
          ...PUT_BODY_0130,
          styling: { ...PUT_BODY_0130.styling, primaryColor: { light: 'blue', dark: '#000000' } },
        },
      },
      { status: 400, invalidBody: true },
    );
    const stored = json(current.body) as Partial<typeof PUT_BODY_0202>;
    c.check(() => assert.deepEqual(stored.socialAccounts, PUT_BODY_0202.socialAccounts));
    c.check(() => assert.deepEqual(stored.styling?.codeTheme, PUT_BODY_0202.styling.codeTheme));
    c.check(() => assert.deepEqual(stored.pageActions?.items, PUT_BODY_0202.pageActions.items));
    c.check(() => assert.equal(json(older.body).title, 'Livery docs'));
    c.check(() => assert.deepEqual(json(older.body).pdf, { enabled: true }));
    c.assertConforms();
  });

  test('PATCH a site-space override, 400 for a bad colour, DELETE it (205 then 204)', async () => {
    const patched = await c.call(
      'overrideSiteSpaceCustomizationById',
      {
        method: 'PATCH',
        url: variant(),
        payload: {
          title: 'Deutsche Doku',
          internationalization: { locale: 'de' },
          favicon: { emoji: '🇩🇪' },
          styling: { corners: 'circular', primaryColor: { light: '#00aa00', dark: '#00cc00' } },
          themes: { default: null },
        },
      },
      { status: 200 },
    );
    assert.equal(json(patched.body).title, 'Deutsche Doku');
    await c.call(
      'getSiteSpaceCustomizationById',
      { method: 'GET', url: variant() },
      { status: 200 },
    );
    await c.call(
      'overrideSiteSpaceCustomizationById',
      {
        method: 'PATCH',
        url: variant(),
        payload: { styling: { primaryColor: { light: 'blue', dark: '#000' } } },
      },
      { status: 400, invalidBody: true },
    );
    await c.call(
      'deleteSiteSpaceCustomizationById',
      { method: 'DELETE', url: variant() },
      { status: 205 },
    );
    await c.call(
      'deleteSiteSpaceCustomizationById',
      { method: 'DELETE', url: variant() },
      { status: 204 },
    );
    c.check(() => assert.equal(json(patched.body).title, 'Deutsche Doku'));
    c.assertConforms();
  });

  test('settings only 0.202 can express, read by both versions (the listed contradictions)', async () => {
    const stored = await c.call(
      'updateSiteCustomizationById',
      { method: 'PUT', url: settings(), payload: PUT_BODY_0202_ONLY },
      { status: 200, versions: ['0.202'] },
    );
    await c.call('getSiteCustomizationById', { method: 'GET', url: settings() }, { status: 200 });
    await c.call(
      'getSiteSpaceCustomizationById',
      { method: 'GET', url: variant() },
      { status: 200 },
    );
    c.check(() => assert.deepEqual(json(stored.body).internationalization, { locale: 'ru' }));
    c.assertConforms();
  });

  test('summary: every operation of the area judged, with its statuses', () => {
    console.log(c.report('site customization'));
    assertCoverage(c, 'customization');
  });
});
