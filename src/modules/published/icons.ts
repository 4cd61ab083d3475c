/**
 * The site's few icons, as inline SVG drawn with `currentColor`. `styling.icons` picks their look
 * through the body class (site.css): `regular` and `light`/`thin` outlines of decreasing weight,
 * `solid` filled, `duotone` outlined over a translucent fill. Parts marked `fill` are the ones
 * solid and duotone fill.
 */
const PATHS = {
  search: '<circle class="fill" cx="11" cy="11" r="7"/><path d="M16.5 16.5 21 21"/>',
  moon: '<path class="fill" d="M20 14.5A8.5 8.5 0 0 1 9.5 4 8.5 8.5 0 1 0 20 14.5z"/>',
  sun: '<circle class="fill" cx="12" cy="12" r="4"/><path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/>',
  chevronDown: '<path d="m6 9 6 6 6-6"/>',
  close: '<path d="M6 6l12 12M18 6 6 18"/>',
  arrowLeft: '<path d="M19 12H5M11 18l-6-6 6-6"/>',
  arrowRight: '<path d="M5 12h14M13 6l6 6-6 6"/>',
  external:
    '<path class="fill" d="M5 7h6v12H5z" stroke="none"/><path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"/>',
} as const;

export type IconName = keyof typeof PATHS;

export function icon(name: IconName): string {
  return `<svg class="icon icon-${name}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${PATHS[name]}</svg>`;
}
