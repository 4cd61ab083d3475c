/**
 * Full `PUT …/customization` bodies, one valid under each GitBook version's request schema (the
 * conformance tests assert that before sending them): the settings both versions share, plus what
 * each requires of its own — 0.202: `styling.codeTheme`, `pageActions.items`, `socialAccounts`;
 * 0.130: `pageActions.{externalAI, markdown}`, `pdf`, `git`.
 */

const themed = (light: string, dark: string) => ({ light, dark });

const styling = {
  theme: 'muted',
  primaryColor: themed('#123456', '#abcdef'),
  infoColor: themed('#787878', '#8a8a8a'),
  successColor: themed('#00c950', '#00c950'),
  warningColor: themed('#fe9a00', '#fe9a00'),
  dangerColor: themed('#fb2c36', '#fb2c36'),
  corners: 'straight',
  depth: 'flat',
  links: 'accent',
  font: 'Inter',
  monospaceFont: 'IBMPlexMono',
  background: 'plain',
  icons: 'duotone',
  sidebar: { background: 'filled', list: 'pill' },
  search: 'prominent',
};

const shared = {
  title: 'Livery docs',
  internationalization: { locale: 'fr' },
  favicon: { emoji: '📘' },
  header: {
    preset: 'default',
    logo: themed('https://example.com/logo.png', 'https://example.com/logo-dark.png'),
    links: [
      {
        title: 'Home',
        style: 'button-primary',
        to: { kind: 'url', url: 'https://example.com/' },
        links: [{ title: 'Blog', to: { kind: 'url', url: 'https://example.com/blog' } }],
      },
    ],
  },
  footer: {
    groups: [
      {
        title: 'More',
        links: [{ title: 'Status', to: { kind: 'url', url: 'https://example.com/status' } }],
      },
    ],
    copyright: '© Example',
  },
  announcement: { enabled: true, message: 'A new release is out', style: 'info' },
  themes: { default: 'dark', toggeable: false },
  feedback: { enabled: true },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: true },
  trademark: { enabled: false },
  externalLinks: { target: 'blank' },
  pagination: { enabled: false },
  privacyPolicy: { url: 'https://example.com/privacy' },
  socialPreview: { url: 'https://example.com/preview.png' },
  insights: { trackingCookie: false },
};

export const PUT_BODY_0202 = {
  ...shared,
  styling: {
    ...styling,
    codeTheme: {
      default: themed('github-light', 'github-dark'),
      openapi: themed('default-light', 'default-dark'),
    },
  },
  pageActions: { items: ['markdown', 'pdf'] },
  socialAccounts: [
    { platform: 'github', handle: 'livery', display: { footer: true, header: false } },
  ],
};

export const PUT_BODY_0130 = {
  ...shared,
  styling,
  pageActions: { externalAI: false, markdown: true },
  pdf: { enabled: true },
  git: { showEditLink: false },
};

/** Settings only 0.202 can express: a locale, a theme mode and a link kind 0.130 lacks. */
export const PUT_BODY_0202_ONLY = {
  ...PUT_BODY_0202,
  internationalization: { locale: 'ru' },
  themes: { default: 'system', toggeable: true },
  header: {
    ...shared.header,
    links: [{ title: 'Releases', to: { kind: 'tag', tag: 'release-notes' }, links: [] }],
  },
};
