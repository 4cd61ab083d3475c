import { findById, type StoredPage, type Tree } from '../content/tree.js';
import type { Settings } from '../customization/settings-schema.js';
import { escapeHtml as e, renderMarkdown } from './markdown.js';
import {
  breadcrumbs,
  type ContentRef,
  neighbours,
  pageHref,
  readingOrder,
  resolveLink,
  sidebar,
} from './navigation.js';
import type { PageView } from './page-html.js';
import type { PublishedVariant } from './repository.js';
import { stringsFor } from './strings.js';

/**
 * From a variant's settings and page tree to the PageView that page-html.ts renders: addresses,
 * navigation, link resolution. Pure; the service gathers the inputs.
 */

export interface SiteFrame {
  /** The site's root as the visitor sees it, ending with `/`: `/s/acme/`. */
  root: string;
  /** Livery's shared files: `/s/@livery/`. */
  assets: string;
  variants: readonly PublishedVariant[];
  variant: PublishedVariant;
  settings: Settings;
  tree: Tree;
  noindex: boolean;
  /** A preview's theme, inline: no stylesheet address serves unsaved settings. */
  inlineThemeCss?: string;
}

/** A variant's base address: the root for the default variant, `{root}{path}/` for the others. */
export function variantBase(root: string, variant: PublishedVariant): string {
  return variant.isDefault ? root : `${root}${encodeURIComponent(variant.path)}/`;
}

/** The first document page in reading order, if any. */
export function firstDocument(tree: Tree): StoredPage | undefined {
  const first = readingOrder(tree, '')[0];
  return first === undefined ? undefined : findById(tree, first.id)?.page;
}

function frameView(frame: SiteFrame, currentId: string | undefined) {
  const { settings, variant, root } = frame;
  const base = variantBase(root, variant);
  const spaceBases = new Map(frame.variants.map((v) => [v.spaceId, variantBase(root, v)]));
  const context = { tree: frame.tree, base, spaceId: variant.spaceId, spaceBases };
  return {
    settings,
    strings: stringsFor(settings.internationalization.locale),
    siteTitle: settings.title ?? variant.spaceTitle,
    homeHref: base,
    sidebar: sidebar(frame.tree, base, currentId),
    variants: frame.variants.map((v) => ({
      title: v.spaceTitle,
      href: variantBase(root, v),
      active: v.id === variant.id,
    })),
    link: (ref: ContentRef) => resolveLink(ref, context),
    themeCssHref: `${root}@livery/theme/${encodeURIComponent(variant.id)}.css`,
    assetsHref: frame.assets,
    noindex: frame.noindex,
    siteSpaceId: variant.id,
    siteKey: root,
    ...(frame.inlineThemeCss === undefined ? {} : { inlineThemeCss: frame.inlineThemeCss }),
    base,
  };
}

/** A document page (or the empty start of a variant without pages). */
export function documentView(
  frame: SiteFrame,
  page: StoredPage | undefined,
  links: { editHref?: string; interactive: boolean },
): PageView {
  const { base, ...shared } = frameView(frame, page?.id);
  if (page === undefined) {
    return {
      ...shared,
      page: { id: '', title: shared.siteTitle, bodyHtml: '' },
      breadcrumbs: [],
      neighbours: {},
    };
  }
  const view: PageView = {
    ...shared,
    page: {
      id: page.id,
      title: page.title,
      bodyHtml: renderMarkdown(page.markdown ?? ''),
      ...(page.emoji === undefined ? {} : { emoji: page.emoji }),
      ...(page.description === undefined ? {} : { description: page.description }),
    },
    breadcrumbs: breadcrumbs(frame.tree, base, page.id),
    neighbours: neighbours(frame.tree, base, page.id),
  };
  if (links.editHref !== undefined) view.editHref = links.editHref;
  if (links.interactive) {
    view.feedbackHref = `${frame.root}@livery/feedback`;
    // A preview is not a visit: it reports no view.
    if (frame.inlineThemeCss === undefined) view.viewHref = `${frame.root}@livery/view`;
  }
  return view;
}

/** The site's styled 404: its header, sidebar and footer around the not-found message. */
export function notFoundView(frame: SiteFrame): PageView {
  const { base, ...shared } = frameView(frame, undefined);
  const t = shared.strings;
  return {
    ...shared,
    noindex: true,
    page: {
      id: '',
      title: t.notFoundTitle,
      bodyHtml: `<p>${e(t.notFoundText)}</p>\n<p><a href="${e(base)}">${e(t.backHome)}</a></p>\n`,
    },
    breadcrumbs: [],
    neighbours: {},
  };
}

/** The visitor-authentication page (401): the site's branding, none of its content. */
export function signInView(frame: SiteFrame): PageView {
  const view = notFoundView({ ...frame, tree: [] });
  const t = view.strings;
  return {
    ...view,
    variants: [],
    page: { id: '', title: view.siteTitle, bodyHtml: `<p>${e(t.signInRequired)}</p>\n` },
  };
}

/** The address of a group: its first document below it, if any. */
export function groupTarget(frame: SiteFrame, group: StoredPage, groupPath: string) {
  const base = variantBase(frame.root, frame.variant);
  const first = readingOrder(group.pages, '')[0];
  if (first === undefined) return undefined;
  const located = findById(group.pages, first.id);
  return located === undefined ? undefined : pageHref(base, `${groupPath}/${located.path}`);
}
