/**
 * What a file is by its bytes, not its name (docs/uploads.md, "What is accepted"): the image
 * and font formats an upload may be, the text an import may be, and the compressed containers
 * that are refused outright. Pure functions, table-tested (test/unit/storage-sniff.test.ts).
 */

/** Formats recognised by their first bytes, as their canonical media type. */
export type SniffedType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'image/avif'
  | 'image/x-icon'
  | 'image/svg+xml'
  | 'font/woff2'
  | 'font/woff'
  | 'font/ttf'
  | 'font/otf';

/** Containers Livery would have to inflate to check (or a browser to show): never accepted. */
const COMPRESSED: readonly (readonly [string, number[]])[] = [
  ['gzip', [0x1f, 0x8b]],
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['zip', [0x50, 0x4b, 0x05, 0x06]],
  ['bzip2', [0x42, 0x5a, 0x68]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['rar', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  ['brotli framing', [0xce, 0xb2, 0xcf, 0x81]],
];

const startsWith = (bytes: Buffer, prefix: readonly number[], at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);

const ascii = (bytes: Buffer, from: number, to: number): string =>
  bytes.length >= to ? bytes.toString('latin1', from, to) : '';

/** The compressed container these bytes are ('gzip', 'zip'…), or undefined. */
export function compressedFormat(bytes: Buffer): string | undefined {
  return COMPRESSED.find(([, magic]) => startsWith(bytes, magic))?.[0];
}

/** The binary format of these bytes, or undefined (SVG and text are checked by `textKind`). */
export function sniffBinary(bytes: Buffer): SniffedType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  const six = ascii(bytes, 0, 6);
  if (six === 'GIF87a' || six === 'GIF89a') return 'image/gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (isAvif(bytes)) return 'image/avif';
  // ICONDIR: reserved 0, type 1 (icon), at least one image.
  if (startsWith(bytes, [0, 0, 1, 0]) && bytes.length >= 6 && bytes.readUInt16LE(4) > 0) {
    return 'image/x-icon';
  }
  const four = ascii(bytes, 0, 4);
  if (four === 'wOF2') return 'font/woff2';
  if (four === 'wOFF') return 'font/woff';
  if (four === 'OTTO') return 'font/otf';
  if (startsWith(bytes, [0, 1, 0, 0]) || four === 'true')
    return isSfnt(bytes) ? 'font/ttf' : undefined;
  return undefined;
}

/** ISO-BMFF with an AVIF brand (major or compatible) in its `ftyp` box. */
function isAvif(bytes: Buffer): boolean {
  if (ascii(bytes, 4, 8) !== 'ftyp' || bytes.length < 16) return false;
  const size = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
  for (let at = 8; at + 4 <= size; at += 4) {
    if (at === 12) continue; // minor_version, not a brand
    const brand = ascii(bytes, at, at + 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}

/** A TrueType offset table: a plausible table count and room for its directory. */
function isSfnt(bytes: Buffer): boolean {
  if (bytes.length < 12) return false;
  const tables = bytes.readUInt16BE(4);
  return tables > 0 && tables < 512 && bytes.length >= 12 + 16 * tables;
}

/**
 * The uncompressed size a WOFF or WOFF2 font declares (`totalSfntSize`): what a browser will
 * inflate it to. Undefined for other formats or a truncated header.
 */
export function inflatedFontSize(bytes: Buffer): number | undefined {
  const four = ascii(bytes, 0, 4);
  if (four === 'wOFF' && bytes.length >= 44) return bytes.readUInt32BE(16);
  if (four === 'wOF2' && bytes.length >= 48) return bytes.readUInt32BE(16);
  return undefined;
}

/** What text these bytes are, if they are text at all. */
export type TextKind =
  | { kind: 'svg' }
  | { kind: 'text' }
  | { kind: 'not-text' }
  /** SVG with a DOCTYPE that declares entities: the "billion laughs" bomb, refused. */
  | { kind: 'svg-entities' };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Text: well-formed UTF-8 (a BOM allowed) without NUL or other C0 controls but tab, line feed,
 * carriage return and form feed. SVG: such text whose first element, after an optional XML
 * declaration, comments, processing instructions and DOCTYPE, is `<svg`.
 */
export function textKind(bytes: Buffer): TextKind {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { kind: 'not-text' };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return { kind: 'not-text' };
  const prolog =
    /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE\b[^>[]*(\[[\s\S]*?\])?\s*>)\s*)*/i;
  const match = prolog.exec(text);
  const rest = text.slice(match?.[0].length ?? 0);
  if (!/^<svg[\s>/]/.test(rest)) return { kind: 'text' };
  // An internal subset ([…]) may declare entities that expand exponentially: refused.
  if (match?.[1] !== undefined || /<!ENTITY/i.test(text)) return { kind: 'svg-entities' };
  return { kind: 'svg' };
}
