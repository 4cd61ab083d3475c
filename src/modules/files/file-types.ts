/**
 * What a revision file is, from its name and bytes (docs/git-sync.md, "Files"): its content type,
 * and an image's dimensions read from its header (PNG, GIF, JPEG, WebP, SVG), as GitBook's
 * RevisionFile has them. Pure functions, table-tested (test/unit/file-types.test.ts).
 */

const TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
  ipynb: 'application/x-ipynb+json',
};

export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/**
 * Raster images a browser shows inline whatever they hold. Anything else (SVG, which may carry
 * script; HTML; PDF…) is served as a download or sandboxed (files/routes.ts).
 */
export const INLINE_IMAGES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/x-icon',
]);

export interface Dimensions {
  width: number;
  height: number;
}

/** An image's size in pixels from its header; undefined when it is not one or cannot tell. */
export function imageDimensions(bytes: Buffer, contentType: string): Dimensions | undefined {
  try {
    switch (contentType) {
      case 'image/png':
        return png(bytes);
      case 'image/gif':
        return bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF'
          ? sized(bytes.readUInt16LE(6), bytes.readUInt16LE(8))
          : undefined;
      case 'image/jpeg':
        return jpeg(bytes);
      case 'image/webp':
        return webp(bytes);
      case 'image/svg+xml':
        return svg(bytes);
      default:
        return undefined;
    }
  } catch {
    return undefined; // a truncated header: no dimensions, never an error
  }
}

const sized = (width: number, height: number): Dimensions | undefined =>
  width > 0 && height > 0 ? { width, height } : undefined;

function png(bytes: Buffer): Dimensions | undefined {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47) return undefined;
  return sized(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

function jpeg(bytes: Buffer): Dimensions | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    const length = bytes.readUInt16BE(at + 2);
    // SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC) carry the frame's size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized(bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    }
    at += 2 + length;
  }
  return undefined;
}

function webp(bytes: Buffer): Dimensions | undefined {
  if (bytes.length < 30 || bytes.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return sized(1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
  if (chunk === 'VP8 ')
    return sized(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return sized((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  return undefined;
}

/** An SVG's `width`/`height` in pixels, else its `viewBox`'s. Only the root tag is read. */
function svg(bytes: Buffer): Dimensions | undefined {
  const head = bytes.toString('utf8', 0, Math.min(bytes.length, 4096));
  const tag = /<svg\b[^>]*>/i.exec(head)?.[0];
  if (tag === undefined) return undefined;
  const attr = (name: string) =>
    new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
  const px = (value: string | undefined) =>
    value !== undefined && /^\s*[\d.]+\s*(px)?\s*$/.test(value)
      ? Math.round(Number.parseFloat(value))
      : undefined;
  const width = px(attr('width'));
  const height = px(attr('height'));
  if (width !== undefined && height !== undefined) return sized(width, height);
  const box = attr('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box?.length === 4 && box.every(Number.isFinite)) {
    return sized(Math.round(box[2] ?? 0), Math.round(box[3] ?? 0));
  }
  return undefined;
}
