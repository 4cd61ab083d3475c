import { createHash } from 'node:crypto';
import { html, type SafeHtml } from '../../../html/safe-html.js';
import { attrUrl } from '../../../html/safe-url.js';
import type { Settings } from '../../../settings/settings-schema.js';
import { brandIcon, icon } from './icons.js';
import { localized } from './localized.js';
import type { ContentRef } from './navigation.js';
import type { PageView } from './page-html.js';
import { PLATFORM_NAMES, profileUrl } from './social.js';
import { BRAND_ICONS } from './social-icons.js';

/**
 * What surrounds every page of a site: the announcement banner, the header (brand, search,
 * links, social accounts, theme toggle) and the footer. Texts come in the variant's language
 * (`localizedTitle`, `localizedMessage`); every link to another site honours
 * `externalLinks.target`. Written with `html` templates (html/safe-html.ts): every text from
 * settings is escaped, every address passes the allow-list of schemes (html/safe-url.ts).
 */

type LinkTitle = { title: string; localizedTitle?: Parameters<typeof localized>[1] };
const titleOf = (item: LinkTitle, s: Settings) =>
  localized(item.title, item.localizedTitle, s.internationalization.locale);

const isExternal = (href: string) => /^https?:/i.test(href);
const NEW_TAB = html` target="_blank" rel="noopener noreferrer"`;

/** ` target="_blank" rel=…` for a link to another site when `externalLinks.target` is `blank`. */
export function targetAttributes(href: string, s: Settings): SafeHtml | '' {
  return isExternal(href) && s.externalLinks.target === 'blank' ? NEW_TAB : '';
}

/**
 * A link when the target can be followed (and passes the allow-list of schemes), its text
 * otherwise; external links honour `externalLinks`.
 */
export function anchor(
  href: string | undefined,
  text: string,
  className: string,
  s: Settings,
): SafeHtml {
  const url = href === undefined ? undefined : attrUrl(href);
  if (href === undefined || url === undefined) {
    return html`<span class="${className} unresolved">${text}</span>`;
  }
  const target = targetAttributes(href, s);
  const mark = target === '' ? '' : html` ${icon('external')}`;
  return html`<a class="${className}" href="${url}"${target}>${text}${mark}</a>`;
}

export function announcement({ settings: s, strings: t, link }: PageView): SafeHtml | '' {
  const a = s.announcement;
  if (a === undefined || !a.enabled) return '';
  const message = localized(a.message, a.localizedMessage, s.internationalization.locale);
  // Dismissal is remembered per message shown: a new message (or language) shows again.
  const key = createHash('sha256').update(message).digest('hex').slice(0, 16);
  const href = a.link === undefined ? undefined : link(a.link.to as ContentRef);
  const url = href === undefined ? undefined : attrUrl(href);
  let text = html`${message}`;
  if (href !== undefined && url !== undefined && a.link !== undefined) {
    const title = titleOf(a.link, s);
    const target = targetAttributes(href, s);
    const call = title === '' ? '' : html` <span class="announcement-call">${title}</span>`;
    const mark = icon(target === '' ? 'arrowRight' : 'external');
    text = html`<a class="announcement-link" href="${url}"${target}>${text}${call} ${mark}</a>`;
  }
  return html`<div class="announcement announcement-${a.style}" data-announcement="${key}" role="status">${text} <button type="button" class="dismiss" aria-label="${t.dismiss}">${icon('close')}</button></div>\n`;
}

/** A logo's two images (light and dark); an image whose URL is refused is left out. */
function logoImages(logo: { light: string; dark: string }, alt: string): SafeHtml {
  const light = attrUrl(logo.light, true);
  const dark = attrUrl(logo.dark, true);
  return html`${light === undefined ? '' : html`<img class="logo logo-light" src="${light}" alt="${alt}">`}${dark === undefined ? '' : html`<img class="logo logo-dark" src="${dark}" alt="${alt}">`}`;
}

/** The header; `sections`, the sections navigation (sections.ts), is its second row. */
export function header(view: PageView, sections: SafeHtml | '' = ''): SafeHtml {
  const { settings: s, strings: t } = view;
  const logo = s.header.logo;
  const brand =
    logo === undefined
      ? html`<span class="site-title">${view.siteTitle}</span>`
      : logoImages(logo, view.siteTitle);
  // header.primaryLink: where the title or logo leads; the variant's start when unset or unfollowable.
  const primary = s.header.primaryLink;
  const primaryHref = primary === undefined ? undefined : view.link(primary as ContentRef);
  const brandHref =
    (primaryHref === undefined ? undefined : attrUrl(primaryHref)) ?? attrUrl(view.homeHref);
  const links = s.header.links.map((item) => {
    const href = item.to === null ? undefined : view.link(item.to as ContentRef);
    const style = item.style ?? 'link';
    const title = titleOf(item, s);
    const top = anchor(href, title, `header-link ${style}`, s);
    if (item.links.length === 0) return top;
    const subs = item.links.map(
      (sub) =>
        html`<li>${anchor(view.link(sub.to as ContentRef), titleOf(sub, s), 'header-sublink', s)}</li>`,
    );
    return html`<details class="dropdown"><summary class="header-link ${style}">${title} ${icon('chevronDown')}</summary><ul>${subs}</ul></details>`;
  });
  const toggle = s.themes.toggeable
    ? html`<button type="button" class="theme-toggle" aria-label="${t.toggleTheme}" title="${t.toggleTheme}">${icon('moon')}${icon('sun')}</button>`
    : '';
  const brandLink =
    brandHref === undefined
      ? html`<span class="brand">${brand}</span>`
      : html`<a class="brand" href="${brandHref}"${targetAttributes(brandHref.url, s)}>${brand}</a>`;
  return html`<header class="site-header${sections === '' ? '' : ' has-sections'}">${brandLink}<form class="search search-${s.styling.search}" role="search" data-no-results="${t.noResults}">${icon('search')}<input type="search" placeholder="${t.search}" aria-label="${t.search}"></form><nav class="header-links">${links}</nav>${socialLinks(view, 'header')}${toggle}${sections}</header>\n`;
}

/**
 * The social accounts shown in the header or the footer (`display`), as icon links named for
 * assistive technology ("GitHub: acme"). LinkedIn and Slack, which have no free brand icon,
 * show a link icon and their name.
 */
export function socialLinks(
  { settings: s, strings: t }: PageView,
  place: 'header' | 'footer',
): SafeHtml | '' {
  const items = s.socialAccounts
    .filter((account) => account.display[place])
    .flatMap((account) => {
      const profile = profileUrl(account.platform, account.handle);
      const href = profile === undefined ? undefined : attrUrl(profile);
      if (profile === undefined || href === undefined) return [];
      const name = PLATFORM_NAMES[account.platform];
      const label = `${name}: ${account.handle}`;
      const path = BRAND_ICONS[account.platform];
      const look =
        path === undefined
          ? html`${icon('link')}<span class="social-name">${name}</span>`
          : brandIcon(path);
      return [
        html`<li><a class="social-link social-${account.platform}" href="${href}"${targetAttributes(profile, s)} aria-label="${label}" title="${label}">${look}</a></li>`,
      ];
    });
  if (items.length === 0) return '';
  return html`<ul class="social-links social-${place}" aria-label="${t.socialAccounts}">${items}</ul>`;
}

export function footer(view: PageView): SafeHtml {
  const { settings: s, strings: t } = view;
  const logo = s.footer.logo === undefined ? '' : logoImages(s.footer.logo, '');
  const groups = s.footer.groups.map((group) => {
    const links = group.links.map(
      (l) =>
        html`<li>${anchor(view.link(l.to as ContentRef), titleOf(l, s), 'footer-link', s)}</li>`,
    );
    return html`<div class="footer-group"><h2>${titleOf(group, s)}</h2><ul>${links}</ul></div>`;
  });
  const privacy =
    s.privacyPolicy.url === undefined
      ? ''
      : anchor(s.privacyPolicy.url, t.privacyPolicy, 'privacy', s);
  const copyright =
    s.footer.copyright === undefined ? '' : html`<p class="copyright">${s.footer.copyright}</p>`;
  const trademark = s.trademark.enabled ? html`<p class="trademark">${t.poweredBy}</p>` : '';
  return html`<footer class="site-footer">${logo}<div class="footer-groups">${groups}</div>${socialLinks(view, 'footer')}${privacy}${copyright}${trademark}</footer>\n`;
}
