import { createHash } from 'node:crypto';
import type { Settings } from '../customization/settings-schema.js';
import { icon } from './icons.js';
import { escapeHtml as e } from './markdown.js';
import type { ContentRef, NavEntry, PageLink } from './navigation.js';
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
  /** The customization title, else the content's. */
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
<html lang="${e(s.internationalization.locale)}" data-theme="${s.themes.default}" data-default-theme="${s.themes.default}"${view.siteKey === undefined ? '' : ` data-site="${e(view.siteKey)}"`}>
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
${breadcrumbTrail(view.breadcrumbs)}<h1>${page.emoji === undefined ? '' : `<span class="emoji">${e(page.emoji)}</span> `}${e(page.title)}</h1>
${page.description === undefined ? '' : `<p class="description">${e(page.description)}</p>\n`}<article class="content">${page.bodyHtml}</article>
${s.git.showEditLink && view.editHref !== undefined ? `<p class="edit-link"><a href="${e(view.editHref)}">${e(t.editPage)}</a></p>\n` : ''}${s.feedback.enabled && view.feedbackHref !== undefined ? feedbackWidget(t) : ''}${s.pagination.enabled ? pagination(view) : ''}</main>
</div>
${footer(view)}</body>
</html>
`;
}

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
    return `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(svg)}">\n`;
  }
  if ('icon' in favicon && favicon.icon !== undefined) {
    return `<link rel="icon" href="${e(favicon.icon.light)}" media="(prefers-color-scheme: light)">\n<link rel="icon" href="${e(favicon.icon.dark)}" media="(prefers-color-scheme: dark)">\n`;
  }
  return '';
}

function announcement({ settings: s, strings: t, link }: PageView): string {
  const a = s.announcement;
  if (a === undefined || !a.enabled) return '';
  // Dismissal is remembered per message: a new message shows again.
  const key = createHash('sha256').update(a.message).digest('hex').slice(0, 16);
  const href = a.link === undefined ? undefined : link(a.link.to as ContentRef);
  const text = href === undefined ? e(a.message) : `<a href="${e(href)}">${e(a.message)}</a>`;
  return `<div class="announcement announcement-${a.style}" data-announcement="${key}" role="status">${text} <button type="button" class="dismiss" aria-label="${e(t.dismiss)}">${icon('close')}</button></div>\n`;
}

function header(view: PageView): string {
  const { settings: s, strings: t } = view;
  const logo = s.header.logo;
  const brand =
    logo === undefined
      ? `<span class="site-title">${e(view.siteTitle)}</span>`
      : `<img class="logo logo-light" src="${e(logo.light)}" alt="${e(view.siteTitle)}"><img class="logo logo-dark" src="${e(logo.dark)}" alt="${e(view.siteTitle)}">`;
  const links = s.header.links
    .map((item) => {
      const href = item.to === null ? undefined : view.link(item.to as ContentRef);
      const style = item.style ?? 'link';
      const top = anchor(href, item.title, `header-link ${style}`, s);
      if (item.links.length === 0) return top;
      const subs = item.links
        .map(
          (sub) =>
            `<li>${anchor(view.link(sub.to as ContentRef), sub.title, 'header-sublink', s)}</li>`,
        )
        .join('');
      return `<details class="dropdown"><summary class="header-link ${style}">${e(item.title)} ${icon('chevronDown')}</summary><ul>${subs}</ul></details>`;
    })
    .join('');
  const toggle = s.themes.toggeable
    ? `<button type="button" class="theme-toggle" aria-label="${e(t.toggleTheme)}" title="${e(t.toggleTheme)}">${icon('moon')}${icon('sun')}</button>`
    : '';
  return `<header class="site-header"><a class="brand" href="${e(view.homeHref)}">${brand}</a><form class="search search-${s.styling.search}" role="search">${icon('search')}<input type="search" placeholder="${e(t.search)}" aria-label="${e(t.search)}"></form><nav class="header-links">${links}</nav>${toggle}</header>\n`;
}

/** A link when the target can be followed, its text otherwise; external links honour `externalLinks`. */
function anchor(href: string | undefined, text: string, className: string, s: Settings): string {
  if (href === undefined) return `<span class="${className} unresolved">${e(text)}</span>`;
  const external = /^https?:/i.test(href) && s.externalLinks.target === 'blank';
  return external
    ? `<a class="${className}" href="${e(href)}" target="_blank" rel="noopener noreferrer">${e(text)} ${icon('external')}</a>`
    : `<a class="${className}" href="${e(href)}">${e(text)}</a>`;
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

function footer(view: PageView): string {
  const { settings: s, strings: t } = view;
  const logo =
    s.footer.logo === undefined
      ? ''
      : `<img class="logo logo-light" src="${e(s.footer.logo.light)}" alt=""><img class="logo logo-dark" src="${e(s.footer.logo.dark)}" alt="">`;
  const groups = s.footer.groups
    .map((group) => {
      const links = group.links
        .map((l) => `<li>${anchor(view.link(l.to as ContentRef), l.title, 'footer-link', s)}</li>`)
        .join('');
      return `<div class="footer-group"><h2>${e(group.title)}</h2><ul>${links}</ul></div>`;
    })
    .join('');
  const privacy =
    s.privacyPolicy.url === undefined
      ? ''
      : `<a class="privacy" href="${e(s.privacyPolicy.url)}">${e(t.privacyPolicy)}</a>`;
  const copyright =
    s.footer.copyright === undefined ? '' : `<p class="copyright">${e(s.footer.copyright)}</p>`;
  const trademark = s.trademark.enabled ? `<p class="trademark">${e(t.poweredBy)}</p>` : '';
  return `<footer class="site-footer">${logo}<div class="footer-groups">${groups}</div>${privacy}${copyright}${trademark}</footer>\n`;
}
