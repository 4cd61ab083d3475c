import { readFileSync } from 'node:fs';
import type { Settings } from '../../settings/settings-schema.js';
import { type FontSetting, isDefinition } from '../theme/font-definitions.js';
import { fontFileOf } from '../theme/fonts.js';

/**
 * The fonts a PDF embeds: the site's `styling.font`, `headingFont` and `monospaceFont`, regular
 * and bold, from assets/fonts/ttf/ (the TrueType twins of the WOFF2 files the published site
 * serves: pdfkit's font library cannot subset those WOFF2 files, docs/pdf.md). A font without
 * files (ABCFavorit, GitBook's own; a definition by URL, which the server does not fetch) falls
 * back to Inter and JetBrains Mono. Latin subsets: other scripts show as missing glyphs. A custom
 * font whose files Livery stores comes in `custom`, read by assets.ts.
 */
export interface PdfFonts {
  body: Buffer;
  bold: Buffer;
  heading: Buffer;
  mono: Buffer;
  monoBold: Buffer;
}

const DIRECTORY = new URL('../../../assets/fonts/ttf/', import.meta.url);
const kept = new Map<string, Buffer>();

function ttf(font: FontSetting | undefined, weight: 400 | 700, fallback: string): Buffer {
  const name =
    (font === undefined || isDefinition(font) ? undefined : fontFileOf(font, weight)) ??
    fontFileOf(fallback, weight);
  if (name === undefined) throw new Error(`no font file for ${fallback} ${weight}`);
  const file = name.replace(/\.woff2$/, '.ttf');
  let bytes = kept.get(file);
  if (bytes === undefined) {
    bytes = readFileSync(new URL(file, DIRECTORY));
    kept.set(file, bytes);
  }
  return bytes;
}

export function pdfFonts(settings: Settings, custom: Partial<PdfFonts> = {}): PdfFonts {
  const { font, headingFont, monospaceFont } = settings.styling;
  return {
    body: custom.body ?? ttf(font, 400, 'Inter'),
    bold: custom.bold ?? ttf(font, 700, 'Inter'),
    heading: custom.heading ?? ttf(headingFont ?? font, 700, 'Inter'),
    mono: custom.mono ?? ttf(monospaceFont, 400, 'JetBrainsMono'),
    monoBold: custom.monoBold ?? ttf(monospaceFont, 700, 'JetBrainsMono'),
  };
}
