import { html, type SafeHtml } from '../../../html/safe-html.js';

/**
 * The icons of site sections, section groups and external links (GitBook's `Icon`: a Font
 * Awesome name such as `book` or `code`). Font Awesome's own drawings are not ours to ship, and a
 * published site loads nothing from a CDN: Livery draws the common names itself, as inline SVG
 * in the style of icons.ts (outlines in `currentColor`, parts marked `fill` filled by the solid
 * and duotone looks of `styling.icons`). A name Livery does not draw shows no icon: the title
 * alone (docs/published-site.md, "Sections"). Aliases map Font Awesome's other spellings.
 */
const PATHS: Record<string, SafeHtml> = {
  book: html`<path class="fill" d="M5 4h11a2 2 0 0 1 2 2v14H7a2 2 0 0 1-2-2z"/><path d="M5 18a2 2 0 0 1 2-2h11M9 8h6"/>`,
  'book-open': html`<path class="fill" d="M3 5h6a3 3 0 0 1 3 3v12a2 2 0 0 0-2-2H3zM21 5h-6a3 3 0 0 0-3 3v12a2 2 0 0 1 2-2h7z"/>`,
  code: html`<path d="m8 7-5 5 5 5M16 7l5 5-5 5M14 4l-4 16"/>`,
  terminal: html`<rect class="fill" x="3" y="4" width="18" height="16" rx="2"/><path d="m7 9 3 3-3 3M12 15h5"/>`,
  gear: html`<circle class="fill" cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M4.9 4.9 7 7M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1 7 17M17 7l2.1-2.1"/>`,
  rocket: html`<path class="fill" d="M12 3c3 2 5 5.5 5 9.5L15 16H9l-2-3.5C7 8.5 9 5 12 3z"/><path d="M9 16l-3 4 1-4M15 16l3 4-1-4"/><circle cx="12" cy="10" r="1.5"/>`,
  house: html`<path class="fill" d="M4 11 12 4l8 7v9h-5v-6H9v6H4z"/>`,
  globe: html`<circle class="fill" cx="12" cy="12" r="9"/><path d="M3 12h18M12 3c3 3 3 15 0 18M12 3c-3 3-3 15 0 18"/>`,
  cube: html`<path class="fill" d="m12 3 8 4.5v9L12 21l-8-4.5v-9z"/><path d="m4 7.5 8 4.5 8-4.5M12 12v9"/>`,
  'puzzle-piece': html`<path class="fill" d="M5 8h4a2 2 0 1 1 4 0h4v4a2 2 0 1 1 0 4v4h-4a2 2 0 1 0-4 0H5v-4a2 2 0 1 0 0-4z"/>`,
  file: html`<path class="fill" d="M6 3h8l5 5v13H6z"/><path d="M14 3v5h5"/>`,
  users: html`<circle class="fill" cx="9" cy="8" r="3.5"/><path d="M3 20a6 6 0 0 1 12 0M16 5a3 3 0 0 1 0 6M18 20a5 5 0 0 0-2-4"/>`,
  star: html`<path class="fill" d="m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z"/>`,
  bolt: html`<path class="fill" d="M13 2 4 14h7l-1 8 9-12h-7z"/>`,
  server: html`<rect class="fill" x="3" y="4" width="18" height="7" rx="2"/><rect class="fill" x="3" y="13" width="18" height="7" rx="2"/><path d="M7 7.5h.01M7 16.5h.01"/>`,
  database: html`<ellipse class="fill" cx="12" cy="6" rx="8" ry="3"/><path d="M4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3"/>`,
  cloud: html`<path class="fill" d="M7 18a5 5 0 0 1-.5-10A6 6 0 0 1 18 9a4.5 4.5 0 0 1-.5 9z"/>`,
  shield: html`<path class="fill" d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6z"/>`,
  key: html`<circle class="fill" cx="8" cy="15" r="4"/><path d="m11 12 9-9M17 6l3 3M15 8l2 2"/>`,
  lock: html`<rect class="fill" x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>`,
  mobile: html`<rect class="fill" x="7" y="2" width="10" height="20" rx="2"/><path d="M11 18h2"/>`,
  desktop: html`<rect class="fill" x="3" y="4" width="18" height="12" rx="2"/><path d="M9 20h6M12 16v4"/>`,
  'graduation-cap': html`<path class="fill" d="m12 4 10 5-10 5L2 9z"/><path d="M6 11v5c0 1.5 2.7 3 6 3s6-1.5 6-3v-5M22 9v6"/>`,
  'circle-question': html`<circle class="fill" cx="12" cy="12" r="9"/><path d="M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17h.01"/>`,
  'circle-info': html`<circle class="fill" cx="12" cy="12" r="9"/><path d="M12 11v6M12 7.5h.01"/>`,
  newspaper: html`<path class="fill" d="M4 5h13v14H6a2 2 0 0 1-2-2z"/><path d="M17 9h3v8a2 2 0 0 1-2 2M8 9h5M8 13h5M8 16h3"/>`,
  'life-ring': html`<circle class="fill" cx="12" cy="12" r="9"/><circle cx="12" cy="12" r="4"/><path d="m5.6 5.6 3.6 3.6M14.8 14.8l3.6 3.6M18.4 5.6l-3.6 3.6M9.2 14.8l-3.6 3.6"/>`,
  link: html`<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>`,
  'arrow-up-right-from-square': html`<path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/>`,
  'chart-line': html`<path d="M4 4v16h16"/><path class="fill" d="m7 15 4-5 3 3 5-6v11H7z" stroke="none"/><path d="m7 15 4-5 3 3 5-6"/>`,
  compass: html`<circle class="fill" cx="12" cy="12" r="9"/><path d="m15.5 8.5-2 5-5 2 2-5z"/>`,
  flag: html`<path class="fill" d="M5 4h12l-2 4 2 4H5z"/><path d="M5 21V4"/>`,
  folder: html`<path class="fill" d="M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1z"/>`,
  'layer-group': html`<path class="fill" d="m12 3 9 5-9 5-9-5z"/><path d="m3 12 9 5 9-5M3 16l9 5 9-5"/>`,
};

/** Font Awesome's other names for the same drawings. */
const ALIASES: Record<string, string> = {
  'book-bookmark': 'book',
  gears: 'gear',
  cog: 'gear',
  home: 'house',
  'house-chimney': 'house',
  'globe-pointer': 'globe',
  earth: 'globe',
  'file-lines': 'file',
  'file-code': 'code',
  'code-simple': 'code',
  'square-terminal': 'terminal',
  'user-group': 'users',
  people: 'users',
  'bolt-lightning': 'bolt',
  'shield-halved': 'shield',
  'mobile-screen': 'mobile',
  'mobile-screen-button': 'mobile',
  computer: 'desktop',
  'question-circle': 'circle-question',
  question: 'circle-question',
  'info-circle': 'circle-info',
  info: 'circle-info',
  'external-link': 'arrow-up-right-from-square',
  'up-right-from-square': 'arrow-up-right-from-square',
  'chart-simple': 'chart-line',
  layers: 'layer-group',
  'folder-open': 'folder',
};

/** The names Livery draws (aliases included): what docs/published-site.md lists. */
export const SECTION_ICON_NAMES: readonly string[] = [
  ...Object.keys(PATHS),
  ...Object.keys(ALIASES),
].sort();

const drawn = new Map<string, SafeHtml>();

/**
 * The inline SVG of a section's icon, or '' for a name Livery does not draw. Font Awesome's
 * style prefixes (`fa-`, `fas `, …) are not part of GitBook's names; they are tolerated.
 */
export function sectionIcon(name: string | undefined): SafeHtml | '' {
  if (name === undefined) return '';
  const bare = name
    .trim()
    .toLowerCase()
    .replace(/^(fa[srlbdt]?\s+)?(fa-)?/, '');
  const key = ALIASES[bare] ?? bare;
  const paths = Object.hasOwn(PATHS, key) ? PATHS[key] : undefined;
  if (paths === undefined) return '';
  let svg = drawn.get(key);
  if (svg === undefined) {
    svg = html`<svg class="icon section-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false" data-icon="${key}">${paths}</svg>`;
    drawn.set(key, svg);
  }
  return svg;
}
