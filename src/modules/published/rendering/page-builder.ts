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
  urls: { mount: string; publicUrl: string },
): string | undefined {
  if (site.visibility !== 'public' && site.visibility !== 'unlisted') return undefined;
  return root.startsWith(urls.mount) ? `${urls.publicUrl}${root.slice(urls.mount.length)}` : root;
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
    // Hidden variants are left out of the switcher; their addresses still serve them. In a site
    // with sections, the switcher offers the variants of the section being read.
    variants: frame.variants
      .filter((v) => !v.hidden && v.sectionId === variant.sectionId)
      .map((v) => ({ title: v.title, href: variantBase(root, v), active: v.id === variant.id })),
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
  const view = notFoundView({ ...frame, tree: [] });
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
