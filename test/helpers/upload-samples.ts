import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

/**
 * Small files of each format uploads accept (docs/uploads.md), made byte by byte: enough of
 * each format for a browser to show (the PNG, the SVG) or for Livery's content checks.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of one color (RGB), `width`×`height`. */
export function png(width = 4, height = 4, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolor
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(width).fill(rgb).flat())]);
  const rows = width * height <= 1_000_000 ? Buffer.concat(Array(height).fill(row)) : row;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG header claiming `width`×`height` (its pixels never follow): a decompression bomb's shape. */
export function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
  ]);
}

export const jpeg = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
  0x00, 0x01, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x02, 0x00, 0x03, 0x01, 0x01, 0x11,
  0x00, 0xff, 0xd9,
]);
export const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
export const webp = Buffer.concat([
  Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00', 'latin1'),
  Buffer.alloc(14),
]);
export const avif = Buffer.concat([
  Buffer.from([0, 0, 0, 0x1c]),
  Buffer.from('ftypavif\x00\x00\x00\x00avifmif1miaf', 'latin1'),
  Buffer.alloc(8),
]);
export const ico = Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(16)]);

/** An SVG whose script would, if it ran, change the title and call home. */
export const svgWithScript = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">' +
    '<rect width="40" height="20" fill="#2a6"/>' +
    '<script>document.title = "svg-script-ran"; window.__svgRan = true;</script></svg>',
);
export const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#26a"/></svg>',
);

/** A real WOFF2 font (Inter, regular), shipped in assets/fonts. */
export const woff2 = readFileSync(
  new URL('../../assets/fonts/inter-latin-400-normal.woff2', import.meta.url),
);

/** An sfnt offset table with one table record: the start of a TrueType (or OTF, `OTTO`) font. */
function sfnt(tag: number[] | string): Buffer {
  const head = Buffer.alloc(12 + 16);
  if (typeof tag === 'string') head.write(tag, 0, 'latin1');
  else head.set(tag, 0);
  head.writeUInt16BE(1, 4);
  head.write('head', 12, 'latin1');
  return Buffer.concat([head, Buffer.alloc(54)]);
}
export const ttf = sfnt([0, 1, 0, 0]);
export const otf = sfnt('OTTO');

/** A WOFF header declaring it inflates to `inflated` bytes. */
export function woff(inflated = 2048): Buffer {
  const header = Buffer.alloc(44 + 20);
  header.write('wOFF', 0, 'latin1');
  header.set([0, 1, 0, 0], 4);
  header.writeUInt32BE(header.length, 8);
  header.writeUInt16BE(1, 12);
  header.writeUInt32BE(inflated, 16);
  return header;
}
