import type { Json } from './paths.js';

/**
 * Presentation only: how the generated form groups, names and lays out the settings. Nothing
 * here decides whether a field exists; a field the server's schema gains appears without an entry
 * (in its own section, labelled from its key). Keys are path patterns: list indexes are `*`.
 */

export interface SectionHint {
  id: string;
  title: string;
  /** Settings paths, in display order; each takes every field at or below it. */
  paths: string[];
}

export const SECTIONS: SectionHint[] = [
  {
    id: 'site',
    title: 'Site',
    paths: ['title', 'localizedTitle', 'favicon', 'internationalization', 'themes'],
  },
  {
    id: 'colors',
    title: 'Colors',
    paths: [
      'styling.primaryColor',
      'styling.tint',
      'styling.infoColor',
      'styling.successColor',
      'styling.warningColor',
      'styling.dangerColor',
    ],
  },
  {
    id: 'fonts',
    title: 'Fonts',
    paths: ['styling.font', 'styling.headingFont', 'styling.monospaceFont'],
  },
  { id: 'look', title: 'Look and layout', paths: ['styling'] },
  { id: 'header', title: 'Header', paths: ['header'] },
  { id: 'footer', title: 'Footer', paths: ['footer', 'socialAccounts'] },
  { id: 'announcement', title: 'Announcement', paths: ['announcement'] },
  {
    id: 'features',
    title: 'Features',
    paths: [
      'pageActions',
      'pdf',
      'feedback',
      'aiSearch',
      'pagination',
      'trademark',
      'git',
      'externalLinks',
      'privacyPolicy',
      'socialPreview',
    ],
  },
  { id: 'ai', title: 'AI', paths: ['ai'] },
  { id: 'advanced', title: 'Advanced', paths: ['advancedCustomization', 'insights'] },
];

/** Sections open when the form appears (the others are a click away). */
export const OPEN_AT_START = ['site', 'colors'];

/** Labels where the key alone is unclear. */
export const LABELS: Record<string, string> = {
  title: 'Site title',
  localizedTitle: 'Title in other languages',
  'internationalization.locale': 'Interface language',
  'themes.default': 'Default theme',
  'themes.toggeable': 'Visitors can switch light/dark',
  'styling.tint': 'Tint',
  'styling.tint.color': 'Tint color',
  'styling.theme': 'Theme',
  'styling.links': 'Link style',
  'styling.background': 'Background (deprecated)',
  'styling.codeTheme.default': 'Code theme',
  'styling.codeTheme.openapi': 'OpenAPI code theme',
  'styling.sidebar.background': 'Sidebar background',
  'styling.sidebar.list': 'Sidebar list style',
  'styling.search': 'Search box',
  'header.preset': 'Header preset (deprecated)',
  'header.links': 'Header links',
  'header.links.*.links': 'Sub-links',
  'header.primaryLink': 'Primary link',
  'header.backgroundColor': 'Header background color',
  'header.linkColor': 'Header link color',
  'footer.groups': 'Footer groups',
  'footer.groups.*.links': 'Links',
  'announcement.enabled': 'Show the announcement',
  'announcement.localizedMessage': 'Message in other languages',
  'git.showEditLink': 'Show "Edit on git" link',
  'externalLinks.target': 'Open external links in',
  'privacyPolicy.url': 'Privacy policy URL',
  'socialPreview.url': 'Social preview image URL',
  'pageActions.items': 'Page actions',
  'ai.mode': 'AI mode',
  'ai.localizedGreeting': 'Greeting in other languages',
  'insights.trackingCookie': 'Insights tracking cookie',
  'socialAccounts.*.display.footer': 'Show in footer',
  'socialAccounts.*.display.header': 'Show in header',
};

/** Labels of a key wherever it appears (link targets, URLs in lists). */
export const KEY_LABELS: Record<string, string> = {
  to: 'Link target',
  url: 'URL',
  id: 'ID',
};

/** Widget overrides, where the inferred one is not the best. */
export const WIDGETS: Record<string, 'textarea'> = {
  'ai.instructions': 'textarea',
  'footer.copyright': 'textarea',
};

/** Never shown: derived by the server from a sibling (pageActions' 0.130 booleans follow `items`). */
export const HIDDEN: string[] = ['pageActions.externalAI', 'pageActions.markdown'];

const FONT_DEFINITION: Json = {
  id: 'custom',
  custom: true,
  fontFamily: 'Custom',
  fontFaces: [{ weight: 400, sources: [{ url: 'https://', format: 'woff2' }] }],
};

/** Starting values of things the user adds (better than the schema's bare minimum). */
export const INITIAL: Record<string, Json> = {
  'styling.tint': { color: { light: '#8b8d98', dark: '#8b8d98' } },
  'header.backgroundColor': { light: '#ffffff', dark: '#111113' },
  'header.linkColor': { light: '#1c1d21', dark: '#edeef0' },
  announcement: { enabled: true, message: 'New: ', style: 'info' },
  '*.to': { kind: 'url', url: 'https://' },
  'header.primaryLink': { kind: 'url', url: 'https://' },
  'header.links.*': { title: 'Link', to: { kind: 'url', url: 'https://' }, links: [] },
  'footer.groups.*': { title: 'Group', links: [] },
  '*.fontFaces.*': { weight: 400, sources: [{ url: 'https://', format: 'woff2' }] },
  '*.sources.*': { url: 'https://', format: 'woff2' },
  'styling.font': FONT_DEFINITION,
  'styling.headingFont': FONT_DEFINITION,
  'styling.monospaceFont': FONT_DEFINITION,
};

/** What an Upload button beside a URL setting uploads (docs/uploads.md): its kind and files. */
export interface UploadHint {
  kind: 'organization_file' | 'customization_font' | 'import_file';
  /** The file picker's `accept`. */
  accept: string;
}

const IMAGE: UploadHint = {
  kind: 'organization_file',
  accept: 'image/png,image/jpeg,image/gif,image/webp,image/avif,image/x-icon,image/svg+xml',
};

/** URL settings that offer "Upload" (an image stored by Livery, its URL filled in). */
export const UPLOADS: Record<string, UploadHint> = {
  'header.logo.light': IMAGE,
  'header.logo.dark': IMAGE,
  'footer.logo.light': IMAGE,
  'footer.logo.dark': IMAGE,
  'favicon.icon.light': IMAGE,
  'favicon.icon.dark': IMAGE,
  'socialPreview.url': IMAGE,
};
