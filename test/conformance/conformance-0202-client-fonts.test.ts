/**
 * The official client of GitBook 0.202 drives the custom-fonts operations against a listening
 * Livery (docs/customization.md, "Custom fonts"), with code typed against 0.202: a font made from
 * uploaded files, listed, read, updated (a weight added, one removed), chosen as a site's font
 * with updateSiteCustomizationById, refused deletion while in use, then deleted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import { LATO_700, uploadFont } from '../helpers/fonts.js';
import { type Api0202, failure0202, recordingClient } from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;

before(async () => {
  t = await createTestApp();
  ({ api } = await recordingClient(t));
});
after(async () => t.close());

describe('the official 0.202 client against Livery: custom fonts', () => {
  test('create, list, get, update, use in a site, delete', async () => {
    const regular = await uploadFont(t);
    const bold = await uploadFont(t, LATO_700, 'bold.woff2');
    const { data: font, status } = await api.orgs.createCustomFont(t.orgId, {
      fontFamily: 'Client Sans',
      fontFaces: [{ weight: 400, storageKey: regular }],
    });
    assert.equal(status, 201);
    assert.equal(font.custom, true);
    assert.equal(font.fontFamily, 'Client Sans');
    assert.equal(font.permissions.edit, true);
    assert.equal(font.fontFaces[0]?.sources[0]?.format, 'woff2');

    const { data: listed } = await api.orgs.listCustomFonts(t.orgId);
    assert.deepEqual(
      listed.items.map((f) => f.id),
      [font.id],
    );
    assert.deepEqual((await api.orgs.getCustomFont(t.orgId, font.id)).data, font);

    const { data: withBold } = await api.orgs.updateCustomFont(t.orgId, font.id, {
      fontFaces: [{ weight: 700, storageKey: bold }],
    });
    assert.deepEqual(
      withBold.fontFaces.map((f) => f.weight),
      [400, 700],
    );
    const { data: renamed } = await api.orgs.updateCustomFont(t.orgId, font.id, {
      fontFamily: 'Client Serif',
      fontFaces: [{ weight: 700, storageKey: null }],
    });
    assert.equal(renamed.fontFamily, 'Client Serif');
    assert.deepEqual(
      renamed.fontFaces.map((f) => f.weight),
      [400],
    );

    const noRegular = await failure0202(
      api.orgs.updateCustomFont(t.orgId, font.id, {
        fontFaces: [{ weight: 400, storageKey: null }],
      }),
    );
    assert.equal(noRegular.code, 412);
    assert.match(noRegular.message, /body\.fontFaces/);

    // The font, as 0.202 types it, is what a site's styling.font takes.
    const { data: space } = await api.orgs.createSpace(t.orgId, { title: 'Fonts' });
    const { data: site } = await api.orgs.createSite(t.orgId, {
      title: 'Typeset',
      spaces: [space.id],
    });
    const { permissions: _, ...definition } = renamed;
    const { data: customization } = await api.orgs.getSiteCustomizationById(t.orgId, site.id);
    await api.orgs.updateSiteCustomizationById(t.orgId, site.id, {
      ...customization,
      styling: { ...customization.styling, font: definition },
    });
    const inUse = await failure0202(api.orgs.deleteCustomFont(t.orgId, font.id));
    assert.equal(inUse.code, 409);
    assert.match(inUse.message, /"Typeset"/);
    await api.orgs.updateSiteCustomizationById(t.orgId, site.id, customization);

    assert.equal((await api.orgs.deleteCustomFont(t.orgId, font.id)).status, 205);
    assert.equal((await api.orgs.deleteCustomFont(t.orgId, font.id)).status, 204);
    assert.equal((await failure0202(api.orgs.getCustomFont(t.orgId, font.id))).code, 404);
  });
});
