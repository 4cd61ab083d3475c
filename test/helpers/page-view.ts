import { html } from '../../src/html/safe-html.js';
import { type ContentRef, resolveLink } from '../../src/modules/published/rendering/navigation.js';
import type { PageView } from '../../src/modules/published/rendering/page-html.js';
import { stringsFor } from '../../src/modules/published/rendering/strings.js';
import { DEFAULT_SETTINGS } from '../../src/settings/defaults.js';
import type { Settings } from '../../src/settings/settings-schema.js';

/** The defaults, changed by `change`: the settings a rendered page is given in a test. */
export const settings = (change: (s: Settings) => void = () => {}): Settings => {
  const s = structuredClone(DEFAULT_SETTINGS) as Settings;
  change(s);
  return s;
};

export const url = (u: string) => ({ kind: 'url' as const, url: u });

/** A page of the site `acme` (one page, `Install`, no navigation), with `fields` replaced. */
export const pageView = (fields: Partial<PageView> = {}): PageView => ({
  settings: settings(),
  strings: stringsFor('en'),
  siteTitle: 'Acme Docs',
  homeHref: '/s/acme/',
  page: { id: 'p1', title: 'Install', bodyHtml: html`<p>Body</p>` },
  sidebar: [],
  breadcrumbs: [],
  neighbours: {},
  variants: [],
  link: (ref: ContentRef) =>
    resolveLink(ref, { tree: [], base: '/s/acme/', spaceId: 's', spaceBases: new Map() }),
  themeCssHref: '/s/acme/theme.css',
  assetsHref: '/s/_assets/',
  noindex: false,
  ...fields,
});
