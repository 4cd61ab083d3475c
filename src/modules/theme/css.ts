import type { Settings } from '../../settings/settings-schema.js';
import { contrastText, scale, type Theme } from './colors.js';
import { cssColor } from './css-values.js';
import {
  cssString,
  definitionFaces,
  type FontSetting,
  isDefinition,
  pageFonts,
} from './font-definitions.js';
import { fontFaces } from './fonts.js';

/**
 * The CSS of a site's effective customization: custom properties for every color scale of both
 * themes, and the styling switches (corners, links, fonts). The published site (issue 7) links
 * it; `GET …/customization/theme.css` serves it to those who render elsewhere. Every value from
 * the settings goes through css-values.ts (strings, colors, integers) or a fixed table.
 */

const NEUTRAL = { light: '#8b8d98', dark: '#8b8d98' };
const RADIUS = { straight: '0px', rounded: '8px', circular: '16px' } as const;
const BUTTON_RADIUS = { straight: '0px', rounded: '8px', circular: '9999px' } as const;
const FALLBACK_SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const FALLBACK_MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

type Themed = { light: string; dark: string };

/**
 * @param fontsBase where the default fonts' files are served (`…/@livery/fonts/`): the chosen
 *   fonts then get their `@font-face` rules; without it, the CSS names them only. Custom font
 *   definitions always get theirs (their files are wherever their URLs say).
 */
export function themeCss(settings: Settings, fontsBase?: string): string {
  const { styling } = settings;
  const heading = styling.headingFont ?? styling.font;
  // A font used twice (the heading font is often the body font) gets its rules once.
  const faces = [...new Set(pageFonts(settings).flatMap((font) => faceRules(font, fontsBase)))];
  const colors: [string, Themed][] = [
    ['primary', styling.primaryColor],
    ['tint', styling.tint?.color ?? NEUTRAL],
    ['info', styling.infoColor],
    ['success', styling.successColor],
    ['warning', styling.warningColor],
    ['danger', styling.dangerColor],
  ];
  const corners = styling.corners;
  const shared = [
    `--radius: ${RADIUS[corners]};`,
    `--radius-button: ${BUTTON_RADIUS[corners]};`,
    `--font-sans: ${fontStack(styling.font, FALLBACK_SANS)};`,
    `--font-heading: ${fontStack(heading, FALLBACK_SANS)};`,
    `--font-mono: ${fontStack(styling.monospaceFont, FALLBACK_MONO)};`,
    // links: default = primary-colored text; accent = body-colored text, primary underline.
    `--link-color: ${styling.links === 'accent' ? 'inherit' : 'var(--primary-11)'};`,
    '--link-underline: var(--primary-9);',
  ];
  const block = (theme: Theme) =>
    colors
      .flatMap(([name, color]) => [
        ...scale(color[theme], theme).map((hex, i) => `--${name}-${i + 1}: ${cssColor(hex)};`),
        `--${name}-contrast: ${cssColor(contrastText(color[theme]))};`,
      ])
      .map((line) => `  ${line}`)
      .join('\n');
  return [
    '/* Livery: theme of the effective customization (docs/published-site.md) */',
    ...faces,
    `:root {\n${shared.map((line) => `  ${line}`).join('\n')}\n}`,
    `:root, [data-theme="light"] {\n  color-scheme: light;\n${block('light')}\n}`,
    `[data-theme="dark"] {\n  color-scheme: dark;\n${block('dark')}\n}`,
    '',
  ].join('\n\n');
}

/** Family names of GitBook's font choices, as font files and CSS know them. */
const FAMILIES: Readonly<Record<string, string>> = {
  ABCFavorit: 'ABC Favorit',
  IBMPlexSerif: 'IBM Plex Serif',
  IBMPlexMono: 'IBM Plex Mono',
  DMMono: 'DM Mono',
  NotoSans: 'Noto Sans',
  OpenSans: 'Open Sans',
  RobotoSlab: 'Roboto Slab',
  SourceSansPro: 'Source Sans Pro',
  FiraSans: 'Fira Sans',
  FiraCode: 'Fira Code',
  JetBrainsMono: 'JetBrains Mono',
  SourceCodePro: 'Source Code Pro',
  RobotoMono: 'Roboto Mono',
  SpaceMono: 'Space Mono',
};

/** A CSS font-family list: the chosen font first, then a system fallback. */
function fontStack(font: FontSetting, fallback: string): string {
  return `${cssString(familyOf(font))}, ${fallback}`;
}

const familyOf = (font: FontSetting) =>
  isDefinition(font) ? font.fontFamily : (FAMILIES[font] ?? font);

/** A font's `@font-face` rules: a definition's own files, or Livery's files of a default font. */
function faceRules(font: FontSetting, fontsBase: string | undefined): string[] {
  if (isDefinition(font)) return definitionFaces(font);
  if (fontsBase === undefined) return [];
  const rules = fontFaces(font, familyOf(font), fontsBase);
  return rules === '' ? [] : [rules];
}
