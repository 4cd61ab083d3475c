import { imageDimensions } from '../files/file-types.js';
import { compressedFormat, inflatedFontSize, sniffBinary, textKind } from './sniff.js';

/**
 * What each kind of upload may be and weigh (docs/uploads.md, "What is accepted"). GitBook
 * 0.202 names the kinds and nothing else; the types and limits are Livery's. Pure, table-tested
 * (test/unit/storage-sniff.test.ts).
 */
export const UPLOAD_KINDS = ['customization_font', 'import_file', 'organization_file'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

const MiB = 1024 * 1024;

const IMAGES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/x-icon',
  'image/svg+xml',
];
const FONTS = ['font/woff2', 'font/woff', 'font/ttf', 'font/otf'];
const TEXTS = ['text/markdown', 'text/plain', 'text/csv', 'application/json', 'application/yaml'];

export const KIND_POLICY: Readonly<
  Record<UploadKind, { types: readonly string[]; maxBytes: number }>
> = {
  organization_file: { types: IMAGES, maxBytes: 5 * MiB },
  customization_font: { types: FONTS, maxBytes: 10 * MiB },
  import_file: { types: [...TEXTS, ...IMAGES], maxBytes: 20 * MiB },
};

/** What a WOFF/WOFF2 font may declare it inflates to (browsers inflate it, not Livery). */
export const MAX_INFLATED_FONT_BYTES = 32 * MiB;
/** A raster image's largest side and area: what a browser would decode to show a logo. */
export const MAX_IMAGE_SIDE = 16_384;
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Other names browsers and systems give these types, to the one Livery stores. */
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/vnd.microsoft.icon': 'image/x-icon',
  'image/ico': 'image/x-icon',
  'application/font-woff': 'font/woff',
  'application/x-font-woff': 'font/woff',
  'application/font-woff2': 'font/woff2',
  'application/x-font-ttf': 'font/ttf',
  'application/x-font-truetype': 'font/ttf',
  'application/x-font-otf': 'font/otf',
  'application/x-font-opentype': 'font/otf',
  'application/vnd.ms-opentype': 'font/otf',
  'text/x-markdown': 'text/markdown',
  'application/x-yaml': 'application/yaml',
  'text/yaml': 'application/yaml',
  'text/x-yaml': 'application/yaml',
};

/** The file extension each stored type is served under (files/file-types.ts maps it back). */
export const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/x-icon': 'ico',
  'image/svg+xml': 'svg',
  'font/woff2': 'woff2',
  'font/woff': 'woff',
  'font/ttf': 'ttf',
  'font/otf': 'otf',
  'text/markdown': 'md',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/json': 'json',
  'application/yaml': 'yaml',
};

/** A media type's essence (no parameters, lower case), its alias resolved. */
export function canonicalType(type: string): string {
  const essence = (type.split(';')[0] ?? '').trim().toLowerCase();
  return ALIASES[essence] ?? essence;
}

/** Readable names for messages. */
const LABELS: Readonly<Record<string, string>> = {
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'image/gif': 'a GIF image',
  'image/webp': 'a WebP image',
  'image/avif': 'an AVIF image',
  'image/x-icon': 'an ICO icon',
  'image/svg+xml': 'an SVG image',
  'font/woff2': 'a WOFF2 font',
  'font/woff': 'a WOFF font',
  'font/ttf': 'a TrueType/OpenType font',
  'font/otf': 'a TrueType/OpenType font',
};
const label = (type: string) => LABELS[type] ?? type;

/** TrueType and OpenType (CFF) outlines share one container: either name takes either. */
const sameFormat = (a: string, b: string) =>
  a === b || (FONTS.slice(2).includes(a) && FONTS.slice(2).includes(b));

/**
 * Why these bytes are not the declared type (canonical, one of the kind's), or undefined when
 * they are. Nothing is inflated: compressed containers are refused, a WOFF's declared inflated
 * size and a raster image's dimensions (read from headers) are bounded.
 */
export function contentProblem(type: string, bytes: Buffer): string | undefined {
  const packed = compressedFormat(bytes);
  if (packed !== undefined) {
    return `The file is ${packed}-compressed; Livery does not take compressed uploads (it would have to inflate them to check them): upload ${label(type)} as is`;
  }
  if (type === 'image/svg+xml' || TEXTS.includes(type)) return textProblem(type, bytes);
  const found = sniffBinary(bytes);
  if (found === undefined || !sameFormat(found, type)) {
    const what = found === undefined ? 'not a format Livery recognises' : label(found);
    return `The file's content is not ${label(type)} as declared (file.type ${type}): it is ${what}`;
  }
  const inflated = inflatedFontSize(bytes);
  if (inflated !== undefined && inflated > MAX_INFLATED_FONT_BYTES) {
    return `The font declares that it inflates to ${inflated} bytes; at most ${MAX_INFLATED_FONT_BYTES} are accepted`;
  }
  const size = imageDimensions(bytes, type);
  if (
    size !== undefined &&
    (size.width > MAX_IMAGE_SIDE ||
      size.height > MAX_IMAGE_SIDE ||
      size.width * size.height > MAX_IMAGE_PIXELS)
  ) {
    return `The image is ${size.width}×${size.height} pixels; at most ${MAX_IMAGE_SIDE} a side and ${MAX_IMAGE_PIXELS} pixels in all are accepted`;
  }
  return undefined;
}

function textProblem(type: string, bytes: Buffer): string | undefined {
  const text = textKind(bytes);
  if (type === 'image/svg+xml') {
    if (text.kind === 'svg') return undefined;
    if (text.kind === 'svg-entities') {
      return 'The SVG declares entities in its DOCTYPE (they can expand without bound); remove the DOCTYPE';
    }
    const found = sniffBinary(bytes);
    return `The file's content is not an SVG image as declared (file.type image/svg+xml): it is ${found === undefined ? 'not an <svg> document' : label(found)}`;
  }
  if (text.kind === 'not-text') {
    const found = sniffBinary(bytes);
    return `The file's content is not UTF-8 text as declared (file.type ${type})${found === undefined ? '' : `: it is ${label(found)}`}`;
  }
  if (type === 'application/json') {
    try {
      JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
    } catch {
      return 'The file is not well-formed JSON as declared (file.type application/json)';
    }
  }
  return undefined;
}

/** The name a stored file is served under: its own, with its type's extension when it lacks it. */
export function servedName(
  name: string,
  type: string,
  typeOfName: (name: string) => string,
): string {
  const ext = EXTENSIONS[type];
  if (ext === undefined || sameFormat(typeOfName(name), type)) return name;
  return `${name}.${ext}`;
}
