/**
 * The official client of GitBook 0.202 drives a round trip of the five in-scope customization
 * operations against a listening Livery, asserting the values that come back, with code typed
 * against 0.202 (issue 14, part 5): the settings 0.202 adds (`socialAccounts`,
 * `styling.codeTheme`, `pageActions.items`) read and written through its types.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestContext } from '../helpers/app.js';
import {
  type Api0202,
  CLIENT_ROUND_TRIPS,
  CustomizationCodeTheme,
  CustomizationLocale,
  CustomizationPageActionType,
  type GitBook0202,
  recordingClient,
  SiteSocialAccountPlatform,
} from '../helpers/gitbook-0202.js';

let t: TestContext;
let api: Api0202;
let called: Set<string>;

before(async () => {
  t = await createTestApp();
  ({ api, called } = await recordingClient(t));
});
after(async () => t.close());

async function newSite(title: string): Promise<{ site: GitBook0202.Site }> {
  const { data: space } = await api.orgs.createSpace(t.orgId, { title });
  const { data: site } = await api.orgs.createSite(t.orgId, { title, spaces: [space.id] });
  return { site };
}

describe('the official 0.202 client against Livery: site customization', () => {
  test('the five customization operations, with the settings 0.202 adds', async () => {
    const { site } = await newSite('Styled');
    const { data: variant } = await api.orgs.addSpaceToSite(t.orgId, site.id, {
      spaceId: (await api.orgs.createSpace(t.orgId, { title: 'Français' })).data.id,
    });
    const variantId = variant.id;

    const { data: current } = await api.orgs.getSiteCustomizationById(t.orgId, site.id);
    assert.deepEqual(current.socialAccounts, []);
    assert.ok(current.styling.codeTheme.default.light, 'a default code theme');
    assert.ok(Array.isArray(current.pageActions.items));

    const github: GitBook0202.SiteSocialAccount = {
      platform: SiteSocialAccountPlatform.Github,
      handle: 'livery',
      display: { footer: true, header: false },
    };
    const { data: stored } = await api.orgs.updateSiteCustomizationById(t.orgId, site.id, {
      ...current,
      title: 'Livery docs',
      styling: {
        ...current.styling,
        codeTheme: {
          default: {
            light: CustomizationCodeTheme.GithubLight,
            dark: CustomizationCodeTheme.GithubDark,
          },
          openapi: {
            light: CustomizationCodeTheme.DefaultLight,
            dark: CustomizationCodeTheme.DefaultDark,
          },
        },
      },
      pageActions: {
        items: [CustomizationPageActionType.Markdown, CustomizationPageActionType.Pdf],
      },
      socialAccounts: [
        github,
        {
          platform: SiteSocialAccountPlatform.Discord,
          handle: 'livery-chat',
          display: { footer: false, header: true },
        },
      ],
    });
    assert.equal(stored.title, 'Livery docs');
    assert.deepEqual(
      stored.socialAccounts.filter((a) => a.display.footer).map((a) => a.handle),
      ['livery'],
    );
    assert.equal(stored.styling.codeTheme.default.dark, 'github-dark');
    assert.deepEqual(stored.pageActions.items, ['markdown', 'pdf']);
    assert.deepEqual((await api.orgs.getSiteCustomizationById(t.orgId, site.id)).data, stored);

    const { data: effective } = await api.orgs.overrideSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      variantId,
      { title: 'Docs en français', internationalization: { locale: CustomizationLocale.Fr } },
    );
    assert.equal(effective.title, 'Docs en français');
    assert.equal(effective.internationalization.locale, 'fr');
    assert.deepEqual(effective.socialAccounts, stored.socialAccounts, 'the site value is kept');
    const { data: read } = await api.orgs.getSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      variantId,
    );
    assert.deepEqual(read, effective);

    const removed = await api.orgs.deleteSiteSpaceCustomizationById(t.orgId, site.id, variantId);
    assert.equal(removed.status, 205);
    const again = await api.orgs.deleteSiteSpaceCustomizationById(t.orgId, site.id, variantId);
    assert.equal(again.status, 204);
    const { data: back } = await api.orgs.getSiteSpaceCustomizationById(
      t.orgId,
      site.id,
      variantId,
    );
    assert.equal(back.title, 'Livery docs');
  });

  test('every in-scope customization operation went through the 0.202 client', () => {
    assert.deepEqual(
      CLIENT_ROUND_TRIPS.customization.filter((id) => !called.has(id)),
      [],
    );
  });
});
