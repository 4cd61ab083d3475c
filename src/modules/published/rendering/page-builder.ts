import { html, type SafeHtml } from '../../../html/safe-html.js';
import { ownUrl } from '../../../html/safe-url.js';
import type { Settings } from '../../../settings/settings-schema.js';
import { encodeSegment } from '../../../well-formed-text.js';
import type { RevisionAssets } from '../../content/page-table.js';
import { findById, type Located, type StoredPage, type Tree } from '../../content/tree.js';
import type { PublishedVariant } from '../repository.js';
import { localized } from './localized.js';
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
import type { StructureItem } from './sections.js';
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
  /** `.gitbook.yaml`'s redirects of the revision: old path → page id (docs/git-sync.md). */
  redirects?: Readonly<Record<string, string>>;
  /** The revision's files and includes (imported content: docs/git-sync.md). */
  revisionAssets?: RevisionAssets;
  noindex: boolean;
  /** A preview's theme, inline: no stylesheet address serves unsaved settings. */
  inlineThemeCss?: string;
  /**
   * The site's root as an absolute address (`https://docs.acme.test/s/acme/`), when anyone who
   * has a page's address may read it (public and unlisted sites): the page menu's AI actions
   * send it to outside services. Absent otherwise.
   */
  publicRoot?: string;
  /** The site's sections, groups and links (empty or absent: a site without sections). */
  structure?: readonly StructureItem[];
  /**
   * The site's root at its custom hostname (`https://docs.acme.com/`), when it has one: pages
   * name their address there as canonical (docs/sites.md, "Custom hostnames").
   */
  canonicalRoot?: string;
  /**
   * A change request's preview (modules/previews): its banner above the page, and nothing that
   * reports back to a site (no feedback, no view).
   */
  preview?: { banner: SafeHtml };
}

/**
 * The absolute root of a site whose pages anyone with their address may read (public and
 * unlisted), for the page menu's AI actions; undefined for the others. `root` is the site's root
 * below `mount` (PUBLIC_URL's path), or already absolute (previews).
 */
export function publicRootOf(
  site: { visibility: string },
  root: string,
  urls: { mount: string; publicUrl: string; canonicalRoot?: string | undefined },
): string | undefined {
  if (site.visibility !== 'public' && site.visibility !== 'unlisted') return undefined;
  if (urls.canonicalRoot !== undefined) return urls.canonicalRoot;
  return root.startsWith(urls.mount) ? `${urls.publicUrl}${root.slice(urls.mount.length)}` : root;
}

/** The canonical address of a document page (at `path`, or '' for the variant's home). */
export function canonicalOf(frame: SiteFrame, path: string | undefined): string | undefined {
  if (frame.canonicalRoot === undefined || path === undefined) return undefined;
  const base = variantBase(frame.canonicalRoot, frame.variant);
  return path === '' ? base : pageHref(base, path);
}

/** A variant's base address: the root for the default variant, `{root}{path}/` for the others. */
export function variantBase(root: string, variant: PublishedVariant): string {
  return variant.isDefault
    ? root
    : `${root}${variant.path.split('/').map(encodeSegment).join('/')}/`;
}

/** The first document page in reading order, if any, with its path. */
export function firstDocument(tree: Tree): Located | undefined {
  const first = readingOrder(tree, '')[0];
  return first === undefined ? undefined : findById(tree, first.id);
}

function frameView(frame: SiteFrame, currentId: string | undefined) {
  const { settings, variant, root } = frame;
  const base = variantBase(root, variant);
  const spaceBases = new Map(frame.variants.map((v) => [v.spaceId, variantBase(root, v)]));
  const context = { tree: frame.tree, base, spaceId: variant.spaceId, spaceBases };
  return {
    settings,
    strings: stringsFor(settings.internationalization.locale),
    siteTitle: siteTitle(settings, variant.spaceTitle),
    homeHref: base,
    sidebar: sidebar(frame.tree, base, currentId),
    // Hidden variants are left out of the switcher (their addresses still serve them); in a site
    // with sections, it lists the variants of the page's section only.
    variants: frame.variants
      .filter((v) => !v.hidden && v.sectionId === variant.sectionId)
      .map((v) => ({
        title: localized(v.title, v.localizedTitle, settings.internationalization.locale),
        href: variantBase(root, v),
        active: v.id === variant.id,
      })),
    ...(variant.sectionId === null || frame.structure === undefined
      ? {}
      : { sections: { items: frame.structure, currentSectionId: variant.sectionId, root } }),
    link: (ref: ContentRef) => resolveLink(ref, context),
    themeCssHref: `${root}@livery/theme/${encodeSegment(variant.id)}.css`,
    assetsHref: frame.assets,
    noindex: frame.noindex,
    siteSpaceId: variant.id,
    siteKey: root,
    ...(frame.inlineThemeCss === undefined ? {} : { inlineThemeCss: frame.inlineThemeCss }),
    ...(frame.preview === undefined ? {} : { banner: frame.preview.banner }),
    base,
  };
}

/**
 * The site's title in the variant's language: `localizedTitle[locale]`, else `title`, else the
 * content's title.
 */
export function siteTitle(settings: Settings, contentTitle: string): string {
  const locale = settings.internationalization.locale;
  return localized(settings.title ?? contentTitle, settings.localizedTitle, locale);
}

/** A document page (or the empty start of a variant without pages). */
export function documentView(
  frame: SiteFrame,
  page: StoredPage | undefined,
  links: { editHref?: string; interactive: boolean },
  /** The page's body, as HTML (page-body.ts), or where it goes (page-answer.ts). */
  bodyHtml: SafeHtml,
): PageView {
  const { base, ...shared } = frameView(frame, page?.id);
  if (page === undefined) {
    return {
      ...shared,
      page: { id: '', title: shared.siteTitle, bodyHtml: html`` },
      breadcrumbs: [],
      neighbours: {},
    };
  }
  const view: PageView = {
    ...shared,
    page: {
      id: page.id,
      title: page.title,
      bodyHtml,
      ...(page.emoji === undefined ? {} : { emoji: page.emoji }),
      ...(page.description === undefined ? {} : { description: page.description }),
    },
    breadcrumbs: breadcrumbs(frame.tree, base, page.id),
    neighbours: neighbours(frame.tree, base, page.id),
  };
  if (links.editHref !== undefined) view.editHref = links.editHref;
  const path = findById(frame.tree, page.id)?.path;
  if (path !== undefined) {
    view.actions = { markdownHref: `${pageHref(base, path)}.md` };
    if (frame.publicRoot !== undefined) {
      const publicBase = variantBase(frame.publicRoot, frame.variant);
      view.actions.publicMarkdownUrl = `${pageHref(publicBase, path)}.md`;
    }
    // The whole variant as a PDF, on published pages (a preview prints its page).
    if (frame.preview === undefined) {
      view.actions.pdfHref = `${frame.root}@livery/pdf?siteSpaceId=${encodeURIComponent(frame.variant.id)}`;
    }
  }
  if (links.interactive && frame.preview === undefined) {
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
      bodyHtml: html`<p>${t.notFoundText}</p>\n<p><a href="${ownUrl(base)}">${t.backHome}</a></p>\n`,
    },
    breadcrumbs: [],
    neighbours: {},
  };
}

/** The visitor-authentication page (401): the site's branding, none of its content. */
export function signInView(frame: SiteFrame): PageView {
  const { structure: _none, ...bare } = frame;
  const view = notFoundView({ ...bare, tree: [] });
  const t = view.strings;
  return {
    ...view,
    variants: [],
    page: { id: '', title: view.siteTitle, bodyHtml: html`<p>${t.signInRequired}</p>\n` },
  };
}

/**
 * A document page as Markdown (`{page address}.md`, the page menu's "View as Markdown"): its
 * title as a heading, its description, then its body as written.
 */
export function pageMarkdown(page: StoredPage): string {
  const description = page.description === undefined ? '' : `${page.description}\n\n`;
  return `# ${page.title}\n\n${description}${page.markdown ?? ''}`;
}

/** The address of a group: its first document below it, if any. */
export function groupTarget(frame: SiteFrame, group: StoredPage, groupPath: string) {
  const base = variantBase(frame.root, frame.variant);
  const first = readingOrder(group.pages, '')[0];
  if (first === undefined) return undefined;
  const located = findById(group.pages, first.id);
  return located === undefined ? undefined : pageHref(base, `${groupPath}/${located.path}`);
}
