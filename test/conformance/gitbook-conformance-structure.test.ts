/**
 * GitBook conformance (issue 29): a site's structure — sections, section groups, external links,
 * getSiteStructure, sortSiteStructure, moveSiteSpace, duplicateSiteSpace — each response judged
 * against the response schemas of GitBook 0.202 (the structure operations are in no older spec).
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

const json = (body: string) => JSON.parse(body) as Record<string, unknown> & { id: string };

async function newSite(): Promise<{ site: string; siteSpaceId: string }> {
  const space = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/spaces`,
    payload: { title: 'Guides' },
  });
  const spaceId = expectStatus(space, 201).id as string;
  const created = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/sites`,
    payload: { title: 'Structured', spaces: [spaceId] },
  });
  const site = `/v1/orgs/${t.orgId}/sites/${expectStatus(created, 201).id}`;
  const list = expectStatus(await t.request({ method: 'GET', url: `${site}/site-spaces` }), 200);
  const first = (list.items as { id: string }[])[0];
  assert.ok(first);
  return { site, siteSpaceId: first.id };
}

describe('GitBook conformance: site structure', () => {
  test('structure, sections, groups, links: add, list, update, move, sort, delete', async () => {
    const { site, siteSpaceId } = await newSite();
    await c.call('getSiteStructure', { method: 'GET', url: `${site}/structure` }, { status: 200 });
    await c.call(
      'getSiteStructure',
      { method: 'GET', url: `/v1/orgs/${t.orgId}/sites/site_nope/structure` },
      { status: 404 },
    );
    // A site without sections has no place for a link.
    await c.call(
      'addExternalLinkToSite',
      {
        method: 'POST',
        url: `${site}/external-links`,
        payload: { title: 'Status', url: 'https://status.example.com' },
      },
      { status: 400 },
    );
    const api = json(
      (
        await c.call(
          'addSectionToSite',
          {
            method: 'POST',
            url: `${site}/sections`,
            payload: { spaceId: null, title: 'API reference', icon: 'code', draft: false },
          },
          { status: 201, versions: ['0.202'] },
        )
      ).body,
    );
    await c.call(
      'addSectionToSite',
      {
        method: 'POST',
        url: `${site}/sections`,
        payload: { spaceId: null, template: { id: 'x' } },
      },
      { status: 400, versions: ['0.202'] },
    );
    // 0.130's addSectionToSite takes an existing space only.
    const other = await t.request({
      method: 'POST',
      url: `/v1/orgs/${t.orgId}/spaces`,
      payload: { title: 'Changelog' },
    });
    await c.call(
      'addSectionToSite',
      {
        method: 'POST',
        url: `${site}/sections`,
        payload: { spaceId: expectStatus(other, 201).id, title: 'Changelog' },
      },
      { status: 201 },
    );
    await c.call('getSiteStructure', { method: 'GET', url: `${site}/structure` }, { status: 200 });
    const group = json(
      (
        await c.call(
          'addSectionGroupToSite',
          {
            method: 'POST',
            url: `${site}/section-groups`,
            payload: { title: 'Products', sections: [api.id], icon: 'box' },
          },
          { status: 201 },
        )
      ).body,
    );
    const link = json(
      (
        await c.call(
          'addExternalLinkToSite',
          {
            method: 'POST',
            url: `${site}/external-links`,
            payload: {
              title: 'Status',
              url: 'https://status.example.com',
              localizedTitle: { fr: 'État' },
              description: 'Is it up?',
              parent: group.id,
              condition: null,
            },
          },
          { status: 201 },
        )
      ).body,
    );
    await c.call('listSiteSections', { method: 'GET', url: `${site}/sections` }, { status: 200 });
    await c.call(
      'listSiteSections',
      { method: 'GET', url: `${site}/sections?limit=1` },
      { status: 200 },
    );
    await c.call(
      'listSiteSectionGroups',
      { method: 'GET', url: `${site}/section-groups` },
      { status: 200 },
    );
    await c.call(
      'updateSiteSectionById',
      {
        method: 'PATCH',
        url: `${site}/sections/${api.id}`,
        payload: { title: 'API', localizedTitle: { de: 'API' }, description: 'Endpoints' },
      },
      { status: 200 },
    );
    await c.call(
      'updateSiteSectionGroupById',
      {
        method: 'PATCH',
        url: `${site}/section-groups/${group.id}`,
        payload: { title: 'All products', draft: false, parentSectionGroupId: null },
      },
      { status: 200 },
    );
    await c.call(
      'updateSiteExternalLinkById',
      {
        method: 'PATCH',
        url: `${site}/external-links/${link.id}`,
        payload: { url: 'https://uptime.example.com', parent: null },
      },
      { status: 200 },
    );
    await c.call(
      'updateSiteExternalLinkById',
      { method: 'PATCH', url: `${site}/external-links/${link.id}`, payload: { url: 'ftp://x' } },
      { status: 400 },
    );
    await c.call(
      'updateSiteExternalLinkById',
      { method: 'PATCH', url: `${site}/external-links/siteel_nope`, payload: { title: 'Gone' } },
      { status: 404 },
    );
    // External links are 0.202's: a 0.130 structure has none (a 0.130 client cannot add one).
    const structure = json(
      (
        await c.call(
          'getSiteStructure',
          { method: 'GET', url: `${site}/structure` },
          { status: 200, versions: ['0.202'] },
        )
      ).body,
    ).structure as { id: string }[];
    const first = structure[0]?.id as string;
    await c.call(
      'moveSiteSection',
      {
        method: 'POST',
        url: `${site}/sections/${api.id}/move`,
        payload: { position: { before: { type: 'site-section', siteSection: first } } },
      },
      { status: 200 },
    );
    await c.call(
      'moveSiteSection',
      {
        method: 'POST',
        url: `${site}/sections/${api.id}/move`,
        payload: { position: { after: { type: 'site-section', siteSection: 'sitesc_nope' } } },
      },
      { status: 400 },
    );
    await c.call(
      'moveSiteSection',
      { method: 'POST', url: `${site}/sections/sitesc_nope/move`, payload: {} },
      { status: 404 },
    );
    await c.call(
      'moveSiteSectionGroup',
      {
        method: 'POST',
        url: `${site}/section-groups/${group.id}/move`,
        payload: { position: { before: { type: 'site-section', id: api.id } } },
      },
      { status: 200 },
    );
    await c.call(
      'moveSiteSectionGroup',
      {
        method: 'POST',
        url: `${site}/section-groups/${group.id}/move`,
        payload: { position: { before: { type: 'site-section-group', id: group.id } } },
      },
      { status: 400 },
    );
    await c.call(
      'moveSiteSectionGroup',
      { method: 'POST', url: `${site}/section-groups/sitesg_nope/move` },
      { status: 404 },
    );
    await c.call(
      'sortSiteStructure',
      {
        method: 'PATCH',
        url: `${site}/structure/sort`,
        payload: {
          item: { type: 'site-external-link', id: link.id },
          position: { after: { type: 'site-section', id: api.id } },
        },
      },
      { status: 200, versions: ['0.202'] },
    );
    await c.call(
      'sortSiteStructure',
      {
        method: 'PATCH',
        url: `${site}/structure/sort`,
        payload: {
          item: { type: 'site-section', id: api.id },
          position: { before: { type: 'site-space', id: siteSpaceId } },
        },
      },
      { status: 400 },
    );
    await c.call(
      'sortSiteStructure',
      {
        method: 'PATCH',
        url: `${site}/structure/sort`,
        payload: { item: { type: 'site-section', id: 'sitesc_nope' }, position: {} },
      },
      { status: 404 },
    );
    await c.call(
      'deleteSiteExternalLinkById',
      { method: 'DELETE', url: `${site}/external-links/${link.id}` },
      { status: 205 },
    );
    await c.call(
      'deleteSiteExternalLinkById',
      { method: 'DELETE', url: `${site}/external-links/${link.id}` },
      { status: 204 },
    );
    await c.call(
      'deleteSiteExternalLinkById',
      { method: 'DELETE', url: `/v1/orgs/${t.orgId}/sites/site_nope/external-links/${link.id}` },
      { status: 404 },
    );
    await c.call(
      'deleteSiteSectionGroupById',
      { method: 'DELETE', url: `${site}/section-groups/${group.id}` },
      { status: 205 },
    );
    await c.call(
      'deleteSiteSectionGroupById',
      { method: 'DELETE', url: `${site}/section-groups/${group.id}` },
      { status: 204 },
    );
    await c.call(
      'deleteSiteSectionById',
      { method: 'DELETE', url: `${site}/sections/${api.id}` },
      { status: 205 },
    );
    await c.call(
      'deleteSiteSectionById',
      { method: 'DELETE', url: `${site}/sections/${api.id}` },
      { status: 204 },
    );
    c.assertConforms();
  });

  test('site-spaces: move and duplicate', async () => {
    const { site, siteSpaceId } = await newSite();
    const added = await t.request({
      method: 'POST',
      url: `${site}/site-spaces`,
      payload: { spaceId: null, title: 'Second' },
    });
    const second = expectStatus(added, 201).id as string;
    await c.call(
      'moveSiteSpace',
      {
        method: 'POST',
        url: `${site}/site-spaces/${second}/move`,
        payload: { position: { before: { type: 'site-space', siteSpace: siteSpaceId } } },
      },
      { status: 200 },
    );
    await c.call(
      'moveSiteSpace',
      {
        method: 'POST',
        url: `${site}/site-spaces/${second}/move`,
        payload: { position: { before: { type: 'site-space', siteSpace: 'sitesp_nope' } } },
      },
      { status: 400 },
    );
    await c.call(
      'moveSiteSpace',
      { method: 'POST', url: `${site}/site-spaces/sitesp_nope/move` },
      { status: 404 },
    );
    await c.call(
      'sortSiteStructure',
      {
        method: 'PATCH',
        url: `${site}/structure/sort`,
        payload: { item: { type: 'site-space', id: second }, position: {} },
      },
      { status: 200 },
    );
    const copy = await c.call(
      'duplicateSiteSpace',
      { method: 'POST', url: `${site}/site-spaces/${siteSpaceId}/duplicate`, payload: {} },
      { status: 201 },
    );
    c.check(() => assert.equal(json(copy.body).default, false));
    await c.call(
      'duplicateSiteSpace',
      {
        method: 'POST',
        url: `${site}/site-spaces/${siteSpaceId}/duplicate`,
        payload: { draft: true },
      },
      { status: 201 },
    );
    c.assertConforms();
  });

  test('summary: every operation of the area judged, with its statuses', () => {
    console.log(c.report('site structure'));
    assertCoverage(c, 'structure');
  });
});
