/**
 * The official client of GitBook 0.202 (`gitbook-api-0202`) drives every operation of a site's
 * structure against a listening Livery (issue 29 §1), with code typed against 0.202: sections,
 * section groups, external links, getSiteStructure, sortSiteStructure, moveSiteSpace,
 * duplicateSiteSpace, and the 400s of GitSyncSiteConfig's rules.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  failure0202,
  type GitBook0202,
  recordingClient,
} from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

type Node = GitBook0202.SiteSection | GitBook0202.SiteSectionGroup | GitBook0202.SiteExternalLink;

describe('the official 0.202 client against Livery: site structure', () => {
  test('a site grows sections, a group and a link; moves, sorts and deletes them', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Guides' });
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Products',
      spaces: [space.id],
    });
    const plain = (await api.orgs.getSiteStructure(t.orgId, site.id)).data;
    assert.equal(plain.type, 'siteSpaces');

    const { data: api1 } = await api.orgs.addSectionToSite(t.orgId, site.id, {
      spaceId: null,
      title: 'API',
      icon: 'code',
    });
    assert.equal(api1.object, 'site-section');
    assert.equal(api1.path, 'api');
    assert.equal(api1.siteSpaces.length, 1);
    const { data: structure } = await api.orgs.getSiteStructure(t.orgId, site.id);
    assert.equal(structure.type, 'sections');
    const nodes = structure.structure as Node[];
    const guides = nodes[0] as GitBook0202.SiteSection;
    assert.equal(guides.default, true, 'the variants of before sit in the default section');
    assert.equal(guides.siteSpaces[0]?.space.id, space.id);

    const { data: group } = await api.orgs.addSectionGroupToSite(t.orgId, site.id, {
      title: 'More',
      sections: [api1.id],
    });
    assert.deepEqual(
      group.children.map((c) => c.id),
      [api1.id],
    );
    const { data: link } = await api.orgs.addExternalLinkToSite(t.orgId, site.id, {
      title: 'Status',
      url: 'https://status.example.com',
      parent: group.id,
    });
    assert.equal(link.sectionGroup, group.id);

    const { data: sections } = await api.orgs.listSiteSections(t.orgId, site.id);
    assert.deepEqual(
      sections.items.map((s) => s.id),
      [guides.id, api1.id],
    );
    const { data: groups } = await api.orgs.listSiteSectionGroups(t.orgId, site.id);
    assert.deepEqual(
      groups.items.map((g) => g.id),
      [group.id],
    );

    const { data: renamed } = await api.orgs.updateSiteSectionById(t.orgId, site.id, api1.id, {
      title: 'API reference',
      // 0.202's type lists every language; GitBook's schema needs only the overridden ones.
      localizedTitle: { fr: 'Référence' } as GitBook0202.LocalizedString128,
      siteSectionGroupId: null,
    });
    assert.equal(renamed.title, 'API reference');
    assert.equal(renamed.sectionGroup, undefined);
    const { data: regrouped } = await api.orgs.updateSiteSectionGroupById(
      t.orgId,
      site.id,
      group.id,
      { title: 'Elsewhere', icon: 'compass' },
    );
    assert.equal(regrouped.title, 'Elsewhere');
    const { data: relinked } = await api.orgs.updateSiteExternalLinkById(
      t.orgId,
      site.id,
      link.id,
      { url: 'https://uptime.example.com', parent: null },
    );
    assert.equal(relinked.url, 'https://uptime.example.com');

    const { data: moved } = await api.orgs.moveSiteSection(t.orgId, site.id, api1.id, {
      position: { before: { type: 'site-section', siteSection: guides.id } },
    });
    assert.equal(moved.id, api1.id);
    const { data: movedGroup } = await api.orgs.moveSiteSectionGroup(t.orgId, site.id, group.id, {
      position: { before: { type: 'site-section', id: api1.id } },
    });
    assert.equal(movedGroup.id, group.id);
    const { data: sorted } = await api.orgs.sortSiteStructure(t.orgId, site.id, {
      item: { type: 'site-external-link', id: link.id },
      position: { before: { type: 'site-section-group', id: group.id } },
    });
    assert.equal(sorted.id, link.id);
    const order = (await api.orgs.getSiteStructure(t.orgId, site.id)).data.structure as Node[];
    assert.deepEqual(
      order.map((n) => n.id),
      [link.id, group.id, api1.id, guides.id],
    );

    // The rules, through the client: a 400 naming the field, nothing changed.
    const topLevel = await failure0202(
      api.orgs.addSpaceToSite(t.orgId, site.id, { spaceId: space.id }),
    );
    assert.equal(topLevel.code, 400);
    assert.match(topLevel.message, /body\.sectionId/);
    const cycle = await failure0202(
      api.orgs.addSectionGroupToSite(t.orgId, site.id, { title: 'Deep', parent: 'sitesg_nope' }),
    );
    assert.match(cycle.message, /body\.parent/);
    const badUrl = await failure0202(
      api.orgs.addExternalLinkToSite(t.orgId, site.id, { title: 'Bad', url: 'javascript:x' }),
    );
    assert.match(badUrl.message, /body\.url/);

    assert.equal(
      (await api.orgs.deleteSiteExternalLinkById(t.orgId, site.id, link.id)).status,
      205,
    );
    assert.equal(
      (await api.orgs.deleteSiteSectionGroupById(t.orgId, site.id, group.id)).status,
      205,
    );
    assert.equal((await api.orgs.deleteSiteSectionById(t.orgId, site.id, api1.id)).status, 205);
    assert.equal((await api.orgs.deleteSiteSectionById(t.orgId, site.id, api1.id)).status, 204);
    const left = (await api.orgs.getSiteStructure(t.orgId, site.id)).data.structure as Node[];
    assert.deepEqual(
      left.map((n) => n.id),
      [guides.id],
    );
  });

  test('site-spaces of a section: add, move, duplicate', async () => {
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Docs' });
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Versions',
      spaces: [space.id],
    });
    const { data: section } = await api.orgs.addSectionToSite(t.orgId, site.id, {
      spaceId: null,
      title: 'SDK',
    });
    const first = section.siteSpaces[0] as GitBook0202.SiteSpace;
    const { data: second } = await api.orgs.addSpaceToSite(t.orgId, site.id, {
      spaceId: null,
      title: 'SDK v2',
      sectionId: section.id,
    });
    assert.equal(second.section, section.id);
    const { data: moved } = await api.orgs.moveSiteSpace(t.orgId, site.id, second.id, {
      position: { before: { type: 'site-space', siteSpace: first.id } },
    });
    assert.equal(moved.id, second.id);
    const copy = await api.orgs.duplicateSiteSpace(t.orgId, site.id, first.id, { draft: true });
    assert.equal(copy.status, 201);
    assert.equal(copy.data.draft, true);
    assert.equal(copy.data.section, section.id);
    const { data: sections } = await api.orgs.listSiteSections(t.orgId, site.id);
    const sdk = sections.items.find((s) => s.id === section.id);
    assert.deepEqual(
      sdk?.siteSpaces.map((v) => v.id),
      [second.id, first.id, copy.data.id],
    );
  });
});
