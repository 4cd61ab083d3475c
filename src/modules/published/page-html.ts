import type { Settings } from '../../settings/settings-schema.js';
import { encodeSegment } from '../../well-formed-text.js';
import { icon } from './icons.js';
import { escapeHtml as e } from './markdown.js';
import type { ContentRef, NavEntry, PageLink } from './navigation.js';
import { type PageActionContext, pageActionsHtml } from './page-actions.js';
import { announcement, footer, header } from './page-chrome.js';
import type { Strings } from './strings.js';

/**
 * One page of a published site as HTML (issue 7): every customization setting the site can act
 * on is applied here, from the effective settings of the variant (docs/published-site.md lists
 * each one and those that do not apply). Pure: the caller resolves content, navigation and links.
 * Every text that comes from settings or content is escaped; the body arrives already rendered
 * by markdown.ts.
 */
export interface PageView {
  settings: Settings;
  strings: Strings;
  /** The customization title (in the variant's language), else the content's. */
  siteTitle: string;
  homeHref: string;
  page: { id: string; title: string; emoji?: string; description?: string; bodyHtml: string };
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
  ];
  return `<!doctype html>
<html lang="${e(s.internationalization.locale)}" data-theme="${initialTheme(s)}" data-default-theme="${s.themes.default}"${view.siteKey === undefined ? '' : ` data-site="${e(view.siteKey)}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
${view.noindex ? '<meta name="robots" content="noindex">\n' : ''}${page.description === undefined ? '' : `<meta name="description" content="${e(page.description)}">\n`}<meta property="og:title" content="${e(title)}">
${s.socialPreview.url === undefined ? '' : `<meta property="og:image" content="${e(s.socialPreview.url)}">\n`}${favicon(s)}${themeLink(view)}
<link rel="stylesheet" href="${e(view.assetsHref)}site.css">
<script src="${e(view.assetsHref)}site.js"></script>
</head>
<body class="${bodyClasses.join(' ')}"${bodyData(view)}>
${announcement(view)}${header(view)}<div class="layout">
<nav class="sidebar" aria-label="${e(t.tableOfContents)}">${variantSwitcher(view)}${navList(view.sidebar)}</nav>
<main class="page">
${breadcrumbTrail(view.breadcrumbs)}<div class="page-head"><h1>${page.emoji === undefined ? '' : `<span class="emoji">${e(page.emoji)}</span> `}${e(page.title)}</h1>${pageActionsHtml(s, view.actions, t)}</div>
${page.description === undefined ? '' : `<p class="description">${e(page.description)}</p>\n`}<article class="content">${page.bodyHtml}</article>
${s.git.showEditLink && view.editHref !== undefined ? `<p class="edit-link"><a href="${e(view.editHref)}">${e(t.editPage)}</a></p>\n` : ''}${s.feedback.enabled && view.feedbackHref !== undefined ? feedbackWidget(t) : ''}${s.pagination.enabled ? pagination(view) : ''}</main>
</div>
${footer(view)}</body>
</html>
`;
}

/**
 * The theme the HTML starts in. `system` starts light; the page's script, which runs in the
 * head before anything paints, follows the visitor's `prefers-color-scheme` (site.js).
 */
const initialTheme = (s: Settings) => (s.themes.default === 'system' ? 'light' : s.themes.default);

function themeLink(view: PageView): string {
  // `</` cannot occur in generated CSS (colors, lengths, known font names); refused all the same.
  return view.inlineThemeCss === undefined
    ? `<link rel="stylesheet" href="${e(view.themeCssHref)}">\n`
    : `<style>${view.inlineThemeCss.replaceAll('</', '<\\/')}</style>\n`;
}

/** What the page's script needs: where to report views and feedback, and for which page. */
function bodyData(view: PageView): string {
  const data: [string, string | undefined][] = [
    ['page-id', view.page.id],
    ['site-space-id', view.siteSpaceId],
    ['feedback-href', view.feedbackHref],
    ['view-href', view.viewHref],
  ];
  return data
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` data-${name}="${e(value)}"`)
    .join('');
}

function favicon(s: Settings): string {
  const { favicon } = s;
  if ('emoji' in favicon && favicon.emoji !== undefined) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${e(favicon.emoji)}</text></svg>`;
    return `<link rel="icon" href="data:image/svg+xml,${encodeSegment(svg)}">\n`;
  }
  if ('icon' in favicon && favicon.icon !== undefined) {
    return `<link rel="icon" href="${e(favicon.icon.light)}" media="(prefers-color-scheme: light)">\n<link rel="icon" href="${e(favicon.icon.dark)}" media="(prefers-color-scheme: dark)">\n`;
  }
  return '';
}

function navList(entries: NavEntry[]): string {
  if (entries.length === 0) return '';
  const items = entries.map((entry) => {
    const label = `${entry.emoji === undefined ? '' : `${e(entry.emoji)} `}${e(entry.title)}`;
    const self =
      entry.href === undefined
        ? `<span class="nav-group">${label}</span>`
        : `<a href="${e(entry.href)}"${entry.active ? ' aria-current="page"' : ''}>${label}</a>`;
    return `<li class="nav-${entry.kind}${entry.open ? ' open' : ''}">${self}${navList(entry.children)}</li>`;
  });
  return `<ul>${items.join('')}</ul>`;
}

function variantSwitcher({ variants }: PageView): string {
  if (variants.length < 2) return '';
  const items = variants
    .map((v) => `<a href="${e(v.href)}"${v.active ? ' aria-current="true"' : ''}>${e(v.title)}</a>`)
    .join('');
  return `<div class="variants">${items}</div>`;
}

function breadcrumbTrail(trail: { title: string; href?: string }[]): string {
  if (trail.length === 0) return '';
  const items = trail.map((c) =>
    c.href === undefined
      ? `<span>${e(c.title)}</span>`
      : `<a href="${e(c.href)}">${e(c.title)}</a>`,
  );
  return `<nav class="breadcrumbs">${items.join(' / ')}</nav>\n`;
}

function feedbackWidget(t: Strings): string {
  const button = (rating: string, label: string) =>
    `<button type="button" data-rating="${rating}">${e(label)}</button>`;
  return `<section class="feedback"><p>${e(t.wasThisHelpful)}</p>${button('good', t.ratingGood)}${button('ok', t.ratingOk)}${button('bad', t.ratingBad)}<p class="thanks" hidden>${e(t.thanksForFeedback)}</p></section>\n`;
}

function pagination({ neighbours, strings: t }: PageView): string {
  const side = (link: PageLink | undefined, rel: 'prev' | 'next', label: string) =>
    link === undefined
      ? ''
      : `<a class="${rel}" rel="${rel}" href="${e(link.href)}"><small>${rel === 'prev' ? icon('arrowLeft') : ''}${e(label)}${rel === 'next' ? icon('arrowRight') : ''}</small> ${e(link.title)}</a>`;
  const inner =
    side(neighbours.previous, 'prev', t.previous) + side(neighbours.next, 'next', t.next);
  return inner === '' ? '' : `<nav class="pagination">${inner}</nav>\n`;
}
