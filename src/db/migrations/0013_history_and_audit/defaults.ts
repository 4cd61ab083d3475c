import type { JsonObject } from './json-patch.js';

// Frozen copy (issue 26) of src/modules/customization/defaults.ts as it was when migration 0013
// shipped (commit a91c924): a migration imports nothing live, so that a later change to the
// defaults (or a move of the settings module) cannot change what this migration wrote, nor
// close an import cycle between db/ and the modules. Never edit it.

/**
 * The settings of a site that was never customized, and what PUT fills in for every field it is
 * not given. GitBook's published defaults where known (docs/customization.md lists each source).
 */
export const DEFAULT_SETTINGS: JsonObject = deepFreeze({
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#00C950', dark: '#00C950' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    sidebar: { background: 'default', list: 'default' },
    search: 'prominent',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: false },
  pdf: { enabled: true },
  feedback: { enabled: false },
  aiSearch: { enabled: true },
  ai: { mode: 'search', pageLinkSummaries: { enabled: false } },
  advancedCustomization: { enabled: true },
  git: { showEditLink: false },
  pageActions: { items: ['markdown', 'external-ai'], externalAI: true, markdown: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
});

/**
 * Bump when DEFAULT_SETTINGS changes: it is part of every customization ETag, so a client's cached
 * copy of a never-customized site is not taken as current after an upgrade.
 */
export const DEFAULTS_REVISION = 2;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
