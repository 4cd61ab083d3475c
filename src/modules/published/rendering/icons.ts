import { html, type SafeHtml } from '../../../html/safe-html.js';

/**
 * The site's few icons, as inline SVG drawn with `currentColor`. `styling.icons` picks their look
 * through the body class (site.css): `regular` and `light`/`thin` outlines of decreasing weight,
 * `solid` filled, `duotone` outlined over a translucent fill. Parts marked `fill` are the ones
 * solid and duotone fill.
 */
const PATHS = {
  search: html`<circle class="fill" cx="11" cy="11" r="7"/><path d="M16.5 16.5 21 21"/>`,
  moon: html`<path class="fill" d="M20 14.5A8.5 8.5 0 0 1 9.5 4 8.5 8.5 0 1 0 20 14.5z"/>`,
  sun: html`<circle class="fill" cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/>`,
  chevronDown: html`<path d="m6 9 6 6 6-6"/>`,
  close: html`<path d="M6 6l12 12M18 6 6 18"/>`,
  arrowLeft: html`<path d="M19 12H5M11 18l-6-6 6-6"/>`,
  arrowRight: html`<path d="M5 12h14M13 6l6 6-6 6"/>`,
  external: html`<path class="fill" d="M5 7h6v12H5z" stroke="none"/><path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/>`,
  copy: html`<rect class="fill" x="8" y="8" width="12" height="12" rx="2"/><path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2"/>`,
  document: html`<path class="fill" d="M6 3h8l5 5v13H6z"/><path d="M14 3v5h5M9 13h7M9 17h7"/>`,
  sparkle: html`<path class="fill" d="M12 3l2.2 5.8L20 11l-5.8 2.2L12 19l-2.2-5.8L4 11l5.8-2.2z"/>`,
  printer: html`<path d="M7 9V3h10v6"/><rect class="fill" x="3" y="9" width="18" height="8" rx="2"/><path d="M7 14h10v7H7z"/>`,
  link: html`<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>`,
} as const;

export type IconName = keyof typeof PATHS;

const ICONS = Object.fromEntries(
  Object.entries(PATHS).map(([name, paths]) => [
    name,
    html`<svg class="icon icon-${name}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${paths}</svg>`,
  ]),
) as Record<IconName, SafeHtml>;

export function icon(name: IconName): SafeHtml {
  return ICONS[name];
}

/** A brand icon (social-icons.ts): a filled 24×24 path, labelled by the link around it. */
export function brandIcon(path: string): SafeHtml {
  return html`<svg class="brand-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${path}"/></svg>`;
}
