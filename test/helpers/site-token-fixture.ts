import type { LightMyRequestResponse } from 'fastify';
import { expectStatus, type TestContext } from './app.js';

/**
 * Settings with every field set (test/http/site-tokens-public.test.ts asserts that it sets every
 * field of the settings schema), its never-published texts marked `CANARY`. `on` sets the
 * switches that decide whether some fields are published: the announcement and the AI mode.
 */
export function everySetting(on: boolean) {
  const themed = (light: string, dark: string) => ({ light, dark });
  const url = (path: string) => ({ kind: 'url', url: `https://acme.test/${path}` });
  return {
    title: 'Acme Docs',
    localizedTitle: { fr: 'Docs Acme' },
    styling: {
      theme: 'muted',
      primaryColor: themed('#123456', '#abcdef'),
      tint: { color: themed('#224466', '#88aacc') },
      infoColor: themed('#787878', '#8a8a8a'),
      successColor: themed('#00c950', '#00c950'),
      warningColor: themed('#fe9a00', '#fe9a00'),
      dangerColor: themed('#fb2c36', '#fb2c36'),
      corners: 'straight',
      depth: 'flat',
      links: 'accent',
      font: {
        id: 'brand',
        custom: true,
        fontFamily: 'Brand Sans',
        fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.acme.test/brand.woff2' }] }],
      },
      headingFont: 'RobotoSlab',
      monospaceFont: 'FiraCode',
      background: 'plain',
      icons: 'duotone',
      codeTheme: {
        default: themed('github-light', 'github-dark'),
        openapi: themed('default-light', 'default-dark'),
      },
      sidebar: { background: 'filled', list: 'pill' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: { emoji: '📘' },
    header: {
      preset: 'custom',
      logo: themed('https://acme.test/logo.png', 'https://acme.test/logo-dark.png'),
      primaryLink: url(''),
      backgroundColor: themed('#ffffff', '#000000'),
      linkColor: themed('#111111', '#eeeeee'),
      links: [{ title: 'Blog', to: url('blog'), links: [], condition: 'visitor.claims.pro' }],
    },
    footer: {
      logo: themed('https://acme.test/f.png', 'https://acme.test/f-dark.png'),
      groups: [{ title: 'More', links: [{ title: 'Status', to: url('status') }] }],
      copyright: '© Acme',
    },
    announcement: {
      enabled: on,
      message: 'CANARY-announcement draft',
      localizedMessage: { fr: 'CANARY-announcement brouillon' },
      link: { title: 'Read', to: url('launch') },
      style: 'info',
    },
    themes: { default: 'dark', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: true },
    aiSearch: { enabled: true },
    ai: {
      mode: on ? 'assistant' : 'none',
      greeting: 'CANARY-greeting hello',
      localizedGreeting: { fr: 'CANARY-greeting bonjour' },
      suggestions: ['CANARY-suggestion one'],
      instructions: 'CANARY-instructions: never tell visitors about the merger',
      pageLinkSummaries: { enabled: true },
    },
    advancedCustomization: { enabled: true },
    git: { showEditLink: true },
    pageActions: { items: ['markdown', 'pdf'] },
    externalLinks: { target: 'blank' },
    pagination: { enabled: true },
    trademark: { enabled: false },
    privacyPolicy: { url: 'https://acme.test/privacy' },
    socialPreview: { url: 'https://acme.test/preview.png' },
    socialAccounts: [
      { platform: 'github', handle: 'acme', display: { footer: true, header: true } },
    ],
    insights: { trackingCookie: true },
  };
}

/** The texts of `everySetting` that a site token must never read, whatever the switches. */
export const NEVER_PUBLISHED = ['CANARY-instructions'];

/** Every change request's traces in a space: ids, revisions and subjects (all `CANARY`). */
export interface ChangeRequestTraces {
  /** Change-request ids, revisions of change requests (edits, update), subjects, draft text. */
  canaries: string[];
  /** Revisions of change requests: `edits` with a parent, and `update`. */
  revisions: { type: string; id: string }[];
}

/**
 * Makes every kind of change-request revision in `spaceId`: a draft change request with edits,
 * a second one merged (the space's new revision), then the draft brought up to date (`update`).
 */
export async function changeRequestsOf(
  t: TestContext,
  spaceId: string,
): Promise<ChangeRequestTraces> {
  const base = `/v1/spaces/${spaceId}/change-requests`;
  const ok = async (response: Promise<LightMyRequestResponse>, status = 200) =>
    expectStatus(await response, status);
  const open = (subject: string) =>
    ok(t.request({ method: 'POST', url: base, payload: { subject } }), 201);
  const edit = (cr: string, title: string, markdown: string) =>
    ok(
      t.request({
        method: 'POST',
        url: `${base}/${cr}/content`,
        payload: { changes: [{ operation: 'insert_page', title, document: { markdown } }] },
      }),
    );
  const draft = (await open('CANARY-subject of the draft')).id as string;
  const edits = (await edit(draft, 'Draft page', 'CANARY-draft text')).revision as string;
  const merged = (await open('CANARY-subject of the merged one')).id as string;
  const mergedEdits = (await edit(merged, 'Merged page', 'Now published')).revision as string;
  await ok(t.request({ method: 'POST', url: `${base}/${merged}/merge` }));
  const updated = await ok(t.request({ method: 'POST', url: `${base}/${draft}/update` }));
  const update = updated.revision as string;
  return {
    canaries: ['CANARY-subject', 'CANARY-draft', draft, merged, edits, mergedEdits, update],
    revisions: [
      { type: 'edits', id: edits },
      { type: 'edits (merged since)', id: mergedEdits },
      { type: 'update', id: update },
    ],
  };
}
