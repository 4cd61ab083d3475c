import {
  html,
  joinHtml,
  type SafeHtml,
  styleElement,
  svgDataUrl,
} from '../../../html/safe-html.js';
import { attrUrl, ownUrl } from '../../../html/safe-url.js';
import type { Settings } from '../../../settings/settings-schema.js';
import { encodeSegment } from '../../../well-formed-text.js';
import { icon } from './icons.js';
import type { ContentRef, NavEntry, PageLink } from './navigation.js';
import { type PageActionContext, pageActionsHtml } from './page-actions.js';
import { announcement, footer, header } from './page-chrome.js';
import { type StructureItem, sectionsNav } from './sections.js';
import type { Strings } from './strings.js';

/**
 * One page of a published site as HTML (issue 7): every customization setting the site can act
 * on is applied here, from the effective settings of the variant (docs/published-site.md lists
 * each one and those that do not apply). Pure: the caller resolves content, navigation and links.
 * Written with `html` templates (html/safe-html.ts): every text that comes from settings or
 * content is escaped, every address passes the allow-list of schemes; the body arrives as markup
 * already (documents/to-html.ts, or the place where the worker's body is put: page-answer.ts).
 */
export interface PageView {
  settings: Settings;
  strings: Strings;
  /** The customization title (in the variant's language), else the content's. */
  siteTitle: string;
  homeHref: string;
  page: {
    id: string;
    title: string;
    emoji?: string;
    description?: string;
    bodyHtml: SafeHtml;
    /** The body shows a formula: the page links KaTeX's stylesheet (documents/blocks/math.ts). */
    math?: boolean;
  };
  sidebar: NavEntry[];
  breadcrumbs: { title: string; href?: string }[];
  neighbours: { previous?: PageLink | undefined; next?: PageLink | undefined };
  /** The site's variants, for the switcher (shown when there are several). */
  variants: { title: string; href: string; active: boolean }[];
  /** Follows a customization link target (navigation.ts resolveLink), or undefined. */
  link: (ref: ContentRef) => string | undefined;
  themeCssHref: string;
  assetsHref: string;
  noindex: boolean;
  /** Where the feedback widget sends its rating (when feedback is enabled). */
  feedbackHref?: string;
  /** Where the page's script reports the view (`track_view`); none on previews and error pages. */
  viewHref?: string;
  /** The variant, for the script's feedback and view reports. */
  siteSpaceId?: string;
  /** The edit link, shown only when `git.showEditLink` is on. */
  editHref?: string;
  /** Names the site in the visitor's stored choices (theme, dismissed announcements). */
  siteKey?: string;
  /** The theme inline instead of linked (previews of unsaved settings). */
  inlineThemeCss?: string;
  /** What the page menu acts on; document pages only (page-actions.ts). */
  actions?: PageActionContext;
  /**
   * The page's address at the site's custom hostname (`<link rel="canonical">`): a site with one
   * is served at two addresses (its hostname and PUBLIC_URL), the hostname's is the one to index.
   */
  canonicalHref?: string;
  /** Above everything: a change request preview says what it shows (modules/previews). */
  banner?: SafeHtml;
  /** A site with sections: its structure and the page's section (sections.ts). */
  sections?: { items: readonly StructureItem[]; currentSectionId: string; root: string };
}

export function renderPage(view: PageView): string {
  const { settings: s, strings: t, page } = view;
  const title = page.title === view.siteTitle ? page.title : `${page.title} | ${view.siteTitle}`;
  const bodyClasses = [
    `theme-${s.styling.theme}`,
    `depth-${s.styling.depth}`,
    `icons-${s.styling.icons}`,
    `sidebar-bg-${s.styling.sidebar.background}`,
    `sidebar-list-${s.styling.sidebar.list}`,
    `links-${s.styling.links}`,
  ].join(' ');
  const editHref =
    s.git.showEditLink && view.editHref !== undefined ? attrUrl(view.editHref) : undefined;
  return html`<!doctype html>
<html lang="${s.internationalization.locale}" data-theme="${initialTheme(s)}" data-default-theme="${s.themes.default}"${view.siteKey === undefined ? '' : html` data-site="${view.siteKey}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${view.noindex ? html`<meta name="robots" content="noindex">\n` : ''}${page.description === undefined ? '' : html`<meta name="description" content="${page.description}">\n`}<meta property="og:title" content="${title}">
${view.canonicalHref === undefined ? '' : html`<link rel="canonical" href="${ownUrl(view.canonicalHref)}">\n`}${s.socialPreview.url === undefined ? '' : html`<meta property="og:image" content="${s.socialPreview.url}">\n`}${favicon(s)}${themeLink(view)}
<link rel="stylesheet" href="${ownUrl(`${view.assetsHref}site.css`)}">
${mathStylesheet(view)}<script src="${ownUrl(`${view.assetsHref}site.js`)}"></script>
</head>
<body class="${bodyClasses}"${bodyData(view)}>
${view.banner ?? ''}${announcement(view)}${header(view, sectionsOf(view))}<div class="layout">
<nav class="sidebar" aria-label="${t.tableOfContents}">${variantSwitcher(view)}${navList(view.sidebar)}</nav>
<main class="page">
${breadcrumbTrail(view.breadcrumbs)}<div class="page-head"><h1>${page.emoji === undefined ? '' : html`<span class="emoji">${page.emoji}</span> `}${page.title}</h1>${pageActionsHtml(s, view.actions, t)}</div>
${page.description === undefined ? '' : html`<p class="description">${page.description}</p>\n`}<article class="content">${page.bodyHtml}</article>
${editHref === undefined ? '' : html`<p class="edit-link"><a href="${editHref}">${t.editPage}</a></p>\n`}${s.feedback.enabled && view.feedbackHref !== undefined ? feedbackWidget(t) : ''}${s.pagination.enabled ? pagination(view) : ''}</main>
</div>
${footer(view)}</body>
</html>
`.html;
}

/**
 * The theme the HTML starts in. `system` starts light; the page's script, which runs in the
 * head before anything paints, follows the visitor's `prefers-color-scheme` (site.js).
 */
const initialTheme = (s: Settings) => (s.themes.default === 'system' ? 'light' : s.themes.default);

function themeLink(view: PageView): SafeHtml {
  // `</` cannot occur in generated CSS (colors, lengths, known font names); refused all the same.
  return view.inlineThemeCss === undefined
    ? html`<link rel="stylesheet" href="${ownUrl(view.themeCssHref)}">\n`
    : html`${styleElement(view.inlineThemeCss)}\n`;
}

/** What KaTeX's markup starts with (a text cannot write it: its `<` and quotes are escaped). */
export const KATEX_MARK = '<span class="katex';

/**
 * KaTeX's stylesheet, for a page that shows a formula (documents/blocks/math.ts typesets it on
 * the server): said by the view (page-answer.ts, whose body is bytes put in place later), or
 * seen in a body given as markup.
 */
const mathStylesheet = (view: PageView): SafeHtml | '' =>
  view.page.math === true || view.page.bodyHtml.html.includes(KATEX_MARK)
    ? html`<link rel="stylesheet" href="${ownUrl(`${view.assetsHref}katex.css`)}">\n`
    : '';

/** What the page's script needs: where to report views and feedback, and for which page. */
function bodyData(view: PageView): SafeHtml[] {
  const data: [string, string | undefined][] = [
    ['page-id', view.page.id],
    ['site-space-id', view.siteSpaceId],
    ['feedback-href', view.feedbackHref],
    ['view-href', view.viewHref],
  ];
  return data
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => html` data-${name}="${value}"`);
}

function favicon(s: Settings): SafeHtml | '' {
  const { favicon } = s;
  if ('emoji' in favicon && favicon.emoji !== undefined) {
    const svg = html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${favicon.emoji}</text></svg>`;
    return html`<link rel="icon" href="${svgDataUrl(svg, encodeSegment)}">\n`;
  }
  if ('icon' in favicon && favicon.icon !== undefined) {
    const light = attrUrl(favicon.icon.light, true);
    const dark = attrUrl(favicon.icon.dark, true);
    return html`${light === undefined ? '' : html`<link rel="icon" href="${light}" media="(prefers-color-scheme: light)">\n`}${dark === undefined ? '' : html`<link rel="icon" href="${dark}" media="(prefers-color-scheme: dark)">\n`}`;
  }
  return '';
}

const CURRENT_PAGE = html` aria-current="page"`;
const CURRENT = html` aria-current="true"`;

function navList(entries: NavEntry[]): SafeHtml | '' {
  if (entries.length === 0) return '';
  const items = entries.map((entry) => {
    const label = html`${entry.emoji === undefined ? '' : html`${entry.emoji} `}${entry.title}`;
    const href = entry.href === undefined ? undefined : attrUrl(entry.href);
    const self =
      href === undefined
        ? html`<span class="nav-group">${label}</span>`
        : html`<a href="${href}"${entry.active ? CURRENT_PAGE : ''}>${label}</a>`;
    return html`<li class="nav-${entry.kind}${entry.open ? ' open' : ''}">${self}${navList(entry.children)}</li>`;
  });
  return html`<ul>${items}</ul>`;
}

function sectionsOf({ sections, settings, strings }: PageView): SafeHtml | '' {
  return sections === undefined ? '' : sectionsNav({ ...sections, settings, strings });
}

function variantSwitcher({ variants }: PageView): SafeHtml | '' {
  if (variants.length < 2) return '';
  const items = variants.map(
    (v) => html`<a href="${ownUrl(v.href)}"${v.active ? CURRENT : ''}>${v.title}</a>`,
  );
  return html`<div class="variants">${items}</div>`;
}

function breadcrumbTrail(trail: { title: string; href?: string }[]): SafeHtml | '' {
  if (trail.length === 0) return '';
  const items = trail.map((c) => {
    const href = c.href === undefined ? undefined : attrUrl(c.href);
    return href === undefined
      ? html`<span>${c.title}</span>`
      : html`<a href="${href}">${c.title}</a>`;
  });
  return html`<nav class="breadcrumbs">${joinHtml(items, html` / `)}</nav>\n`;
}

function feedbackWidget(t: Strings): SafeHtml {
  const button = (rating: string, label: string) =>
    html`<button type="button" data-rating="${rating}">${label}</button>`;
  return html`<section class="feedback"><p>${t.wasThisHelpful}</p>${button('good', t.ratingGood)}${button('ok', t.ratingOk)}${button('bad', t.ratingBad)}<p class="thanks" hidden>${t.thanksForFeedback}</p></section>\n`;
}

function pagination({ neighbours, strings: t }: PageView): SafeHtml | '' {
  const side = (link: PageLink | undefined, rel: 'prev' | 'next', label: string) => {
    const href = link === undefined ? undefined : attrUrl(link.href);
    return link === undefined || href === undefined
      ? ''
      : html`<a class="${rel}" rel="${rel}" href="${href}"><small>${rel === 'prev' ? icon('arrowLeft') : ''}${label}${rel === 'next' ? icon('arrowRight') : ''}</small> ${link.title}</a>`;
  };
  const previous = side(neighbours.previous, 'prev', t.previous);
  const next = side(neighbours.next, 'next', t.next);
  return previous === '' && next === ''
    ? ''
    : html`<nav class="pagination">${previous}${next}</nav>\n`;
}
