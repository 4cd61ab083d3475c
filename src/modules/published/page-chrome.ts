import { createHash } from 'node:crypto';
import type { Settings } from '../../settings/settings-schema.js';
import { brandIcon, icon } from './icons.js';
import { localized } from './localized.js';
import { escapeHtml as e } from './markdown.js';
import type { ContentRef } from './navigation.js';
import type { PageView } from './page-html.js';
import { PLATFORM_NAMES, profileUrl } from './social.js';
import { BRAND_ICONS } from './social-icons.js';

/**
 * What surrounds every page of a site: the announcement banner, the header (brand, search,
 * links, social accounts, theme toggle) and the footer. Texts come in the variant's language
 * (`localizedTitle`, `localizedMessage`); every link to another site honours
 * `externalLinks.target`. Every text from settings is escaped.
 */

type LinkTitle = { title: string; localizedTitle?: Parameters<typeof localized>[1] };
const titleOf = (item: LinkTitle, s: Settings) =>
  localized(item.title, item.localizedTitle, s.internationalization.locale);

const isExternal = (href: string) => /^https?:/i.test(href);

/** ` target="_blank" rel=…` for a link to another site when `externalLinks.target` is `blank`. */
export function targetAttributes(href: string, s: Settings): string {
  return isExternal(href) && s.externalLinks.target === 'blank'
    ? ' target="_blank" rel="noopener noreferrer"'
    : '';
}

/** A link when the target can be followed, its text otherwise; external links honour `externalLinks`. */
export function anchor(
  href: string | undefined,
  text: string,
  className: string,
  s: Settings,
): string {
  if (href === undefined) return `<span class="${className} unresolved">${e(text)}</span>`;
  const target = targetAttributes(href, s);
  const mark = target === '' ? '' : ` ${icon('external')}`;
  return `<a class="${className}" href="${e(href)}"${target}>${e(text)}${mark}</a>`;
}

export function announcement({ settings: s, strings: t, link }: PageView): string {
  const a = s.announcement;
  if (a === undefined || !a.enabled) return '';
  const message = localized(a.message, a.localizedMessage, s.internationalization.locale);
  // Dismissal is remembered per message shown: a new message (or language) shows again.
  const key = createHash('sha256').update(message).digest('hex').slice(0, 16);
  const href = a.link === undefined ? undefined : link(a.link.to as ContentRef);
  let text = e(message);
  if (href !== undefined && a.link !== undefined) {
    const title = titleOf(a.link, s);
    const target = targetAttributes(href, s);
    const call = title === '' ? '' : ` <span class="announcement-call">${e(title)}</span>`;
    const mark = icon(target === '' ? 'arrowRight' : 'external');
    text = `<a class="announcement-link" href="${e(href)}"${target}>${text}${call} ${mark}</a>`;
  }
  return `<div class="announcement announcement-${a.style}" data-announcement="${key}" role="status">${text} <button type="button" class="dismiss" aria-label="${e(t.dismiss)}">${icon('close')}</button></div>\n`;
}

export function header(view: PageView): string {
  const { settings: s, strings: t } = view;
  const logo = s.header.logo;
  const brand =
    logo === undefined
      ? `<span class="site-title">${e(view.siteTitle)}</span>`
      : `<img class="logo logo-light" src="${e(logo.light)}" alt="${e(view.siteTitle)}"><img class="logo logo-dark" src="${e(logo.dark)}" alt="${e(view.siteTitle)}">`;
  // header.primaryLink: where the title or logo leads; the variant's start when unset or unfollowable.
  const primary = s.header.primaryLink;
  const brandHref =
    (primary === undefined ? undefined : view.link(primary as ContentRef)) ?? view.homeHref;
  const links = s.header.links
    .map((item) => {
      const href = item.to === null ? undefined : view.link(item.to as ContentRef);
      const style = item.style ?? 'link';
      const title = titleOf(item, s);
      const top = anchor(href, title, `header-link ${style}`, s);
      if (item.links.length === 0) return top;
      const subs = item.links
        .map(
          (sub) =>
            `<li>${anchor(view.link(sub.to as ContentRef), titleOf(sub, s), 'header-sublink', s)}</li>`,
        )
        .join('');
      return `<details class="dropdown"><summary class="header-link ${style}">${e(title)} ${icon('chevronDown')}</summary><ul>${subs}</ul></details>`;
    })
    .join('');
  const toggle = s.themes.toggeable
    ? `<button type="button" class="theme-toggle" aria-label="${e(t.toggleTheme)}" title="${e(t.toggleTheme)}">${icon('moon')}${icon('sun')}</button>`
    : '';
  return `<header class="site-header"><a class="brand" href="${e(brandHref)}"${targetAttributes(brandHref, s)}>${brand}</a><form class="search search-${s.styling.search}" role="search" data-no-results="${e(t.noResults)}">${icon('search')}<input type="search" placeholder="${e(t.search)}" aria-label="${e(t.search)}"></form><nav class="header-links">${links}</nav>${socialLinks(view, 'header')}${toggle}</header>\n`;
}

/**
 * The social accounts shown in the header or the footer (`display`), as icon links named for
 * assistive technology ("GitHub: acme"). LinkedIn and Slack, which have no free brand icon,
 * show a link icon and their name.
 */
export function socialLinks({ settings: s, strings: t }: PageView, place: 'header' | 'footer') {
  const items = s.socialAccounts
    .filter((account) => account.display[place])
    .flatMap((account) => {
      const href = profileUrl(account.platform, account.handle);
      if (href === undefined) return [];
      const name = PLATFORM_NAMES[account.platform];
      const label = `${name}: ${account.handle}`;
      const path = BRAND_ICONS[account.platform];
      const look =
        path === undefined
          ? `${icon('link')}<span class="social-name">${e(name)}</span>`
          : brandIcon(path);
      return [
        `<li><a class="social-link social-${account.platform}" href="${e(href)}"${targetAttributes(href, s)} aria-label="${e(label)}" title="${e(label)}">${look}</a></li>`,
      ];
    });
  if (items.length === 0) return '';
  return `<ul class="social-links social-${place}" aria-label="${e(t.socialAccounts)}">${items.join('')}</ul>`;
}

export function footer(view: PageView): string {
  const { settings: s, strings: t } = view;
  const logo =
    s.footer.logo === undefined
      ? ''
      : `<img class="logo logo-light" src="${e(s.footer.logo.light)}" alt=""><img class="logo logo-dark" src="${e(s.footer.logo.dark)}" alt="">`;
  const groups = s.footer.groups
    .map((group) => {
      const links = group.links
        .map(
          (l) =>
            `<li>${anchor(view.link(l.to as ContentRef), titleOf(l, s), 'footer-link', s)}</li>`,
        )
        .join('');
      return `<div class="footer-group"><h2>${e(titleOf(group, s))}</h2><ul>${links}</ul></div>`;
    })
    .join('');
  const privacy =
    s.privacyPolicy.url === undefined
      ? ''
      : anchor(s.privacyPolicy.url, t.privacyPolicy, 'privacy', s);
  const copyright =
    s.footer.copyright === undefined ? '' : `<p class="copyright">${e(s.footer.copyright)}</p>`;
  const trademark = s.trademark.enabled ? `<p class="trademark">${e(t.poweredBy)}</p>` : '';
  return `<footer class="site-footer">${logo}<div class="footer-groups">${groups}</div>${socialLinks(view, 'footer')}${privacy}${copyright}${trademark}</footer>\n`;
}
