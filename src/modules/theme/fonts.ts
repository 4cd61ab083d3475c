import { readFileSync } from 'node:fs';
import { cssString } from './css-values.js';

/**
 * The fonts of `styling.font` and `styling.monospaceFont`, served by Livery itself (no CDN): the
 * Latin subset in weights 400 and 700 of each, from assets/fonts/ (scripts/vendor-fonts.sh, with
 * their licences). ABCFavorit, GitBook's own font, is not redistributable: it has no files, and
 * the system font shows instead.
 */

/** Setting value → the file prefix of its files (the @fontsource package name). */
const FILE_PREFIX: Readonly<Record<string, string>> = {
  Inter: 'inter',
  Roboto: 'roboto',
  RobotoSlab: 'roboto-slab',
  OpenSans: 'open-sans',
  SourceSansPro: 'source-sans-pro',
  Lato: 'lato',
  Ubuntu: 'ubuntu',
  Raleway: 'raleway',
  Merriweather: 'merriweather',
  Overpass: 'overpass',
  NotoSans: 'noto-sans',
  IBMPlexSerif: 'ibm-plex-serif',
  Poppins: 'poppins',
  FiraSans: 'fira-sans',
  FiraCode: 'fira-code',
  IBMPlexMono: 'ibm-plex-mono',
  JetBrainsMono: 'jetbrains-mono',
  SourceCodePro: 'source-code-pro',
  RobotoMono: 'roboto-mono',
  SpaceMono: 'space-mono',
  DMMono: 'dm-mono',
  Inconsolata: 'inconsolata',
};

const DIRECTORY = new URL('../../../assets/fonts/', import.meta.url);

interface FontFiles {
  /** weight → file name, per font file prefix. */
  weights: Map<string, Map<number, string>>;
  files: Set<string>;
}

let index: FontFiles | undefined;

/** assets/fonts/index.txt (`font weight file` lines), read once, on first use. */
function fontFiles(): FontFiles {
  if (index !== undefined) return index;
  const weights = new Map<string, Map<number, string>>();
  const files = new Set<string>();
  for (const line of readFileSync(new URL('index.txt', DIRECTORY), 'utf8').split('\n')) {
    const [font, weight, file] = line.trim().split(' ');
    if (font === undefined || weight === undefined || file === undefined) continue;
    const byWeight = weights.get(font) ?? new Map<number, string>();
    byWeight.set(Number(weight), file);
    weights.set(font, byWeight);
    files.add(file);
  }
  index = { weights, files };
  return index;
}

/** `@font-face` rules for one setting value under its CSS family name, or '' without files. */
export function fontFaces(font: string, family: string, base: string): string {
  const prefix = FILE_PREFIX[font];
  const weights = prefix === undefined ? undefined : fontFiles().weights.get(prefix);
  if (weights === undefined) return '';
  return [...weights]
    .map(
      ([weight, file]) =>
        `@font-face { font-family: ${cssString(family)}; font-style: normal; font-weight: ${weight}; font-display: swap; src: url(${cssString(`${base}${file}`)}) format("woff2"); }`,
    )
    .join('\n');
}

const bytes = new Map<string, Buffer>();

/** The bytes of a served font file (kept once read: 1.2 MB in all), or undefined for any other name. */
export function fontFile(name: string): Buffer | undefined {
  if (!fontFiles().files.has(name)) return undefined;
  let file = bytes.get(name);
  if (file === undefined) {
    file = readFileSync(new URL(name, DIRECTORY));
    bytes.set(name, file);
  }
  return file;
}

/**
 * The file of a setting value's `weight` (400 or 700), or undefined for a font without files
 * (ABCFavorit, a definition by URL). The PDF export embeds its TrueType twin (modules/pdf/fonts.ts).
 */
export function fontFileOf(font: string, weight: 400 | 700): string | undefined {
  const prefix = FILE_PREFIX[font];
  return prefix === undefined ? undefined : fontFiles().weights.get(prefix)?.get(weight);
}
