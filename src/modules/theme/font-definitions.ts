import { headerOrigin } from '../../http-origin.js';
import type { FontDefinition } from '../../settings/settings-parts.js';
import type { Settings } from '../../settings/settings-schema.js';
import { cssInteger, cssString } from './css-values.js';

/**
 * Custom fonts (GitBook 0.202's font definitions): `@font-face` rules from a definition's own
 * files, and the origins those files come from (the page's Content-Security-Policy allows them,
 * and nothing else, as font sources). Pure. A definition's family name and URLs are text a site
 * admin chose, so they only ever reach CSS as escaped CSS strings (css-values.ts `cssString`).
 */

/** A font setting: one of the default fonts by name, or a definition. */
export type FontSetting = Settings['styling']['font'] | Settings['styling']['monospaceFont'];

export const isDefinition = (font: FontSetting): font is FontDefinition => typeof font !== 'string';

/** The CSS string of a text (css-values.ts, the one sanitiser of settings' values in CSS). */
export { cssString };

const FORMATS: Readonly<Record<string, string>> = {
  woff2: 'woff2',
  woff: 'woff',
  ttf: 'truetype',
  otf: 'opentype',
};

/** The `format()` hint of a font file: the definition's `format`, else its URL's extension. */
export function fontFormat(url: string, format?: string): string | undefined {
  if (format !== undefined) return FORMATS[format] ?? format;
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  // Own keys only: a URL ending in `.constructor` names no format (not the object's inherited key).
  return extension !== undefined && Object.hasOwn(FORMATS, extension)
    ? FORMATS[extension]
    : undefined;
}

/** The `@font-face` rules of a definition, one per weight, its sources in the given order. */
export function definitionFaces(font: FontDefinition): string[] {
  return font.fontFaces.map((face) => {
    const sources = face.sources
      .map((source) => {
        const format = fontFormat(source.url, source.format);
        return `url(${cssString(source.url)})${format === undefined ? '' : ` format(${cssString(format)})`}`;
      })
      .join(', ');
    return `@font-face { font-family: ${cssString(font.fontFamily)}; font-style: normal; font-weight: ${cssInteger(face.weight)}; font-display: swap; src: ${sources}; }`;
  });
}

/** The fonts a page uses: body, headings (the body font when unset) and code. */
export function pageFonts(settings: Settings): FontSetting[] {
  const { font, headingFont, monospaceFont } = settings.styling;
  return [font, headingFont ?? font, monospaceFont];
}

/**
 * The origins (`https://fonts.example.com`) of every custom font file of the settings, for the
 * CSP's `font-src`, each written from its parsed parts (headerOrigin). A URL that gives no
 * origin (does not parse, is not http(s), or has a host no CSP source can hold) adds nothing.
 */
export function fontOrigins(settings: Settings): string[] {
  const origins = new Set<string>();
  for (const font of pageFonts(settings)) {
    if (!isDefinition(font)) continue;
    for (const source of font.fontFaces.flatMap((face) => face.sources)) {
      const origin = headerOrigin(source.url);
      if (origin !== undefined) origins.add(origin);
    }
  }
  return [...origins];
}
