import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import PDFDocument from 'pdfkit';
import type { FontDefinition } from '../../settings/settings-parts.js';
import type { Settings } from '../../settings/settings-schema.js';
import type { ImageRef } from '../documents/model.js';
import type { StoredFile } from '../files/repository.js';
import { sniffBinary } from '../storage/sniff.js';
import { type FontSetting, isDefinition } from '../theme/font-definitions.js';
import type { PdfFonts } from './fonts.js';

/**
 * What a PDF takes from Livery's own stored files (docs/pdf.md): a custom font's faces, the
 * site's logo, page images. Only files Livery stores are read, by the hash in the address of its
 * file route (`{PUBLIC_URL}@livery/files/{hash}/{name}`) or a revision file's record: the server
 * fetches nothing from the network. What cannot be read or parsed is left out (the default font,
 * the image's text) with a log line: never an error.
 */
export type ReadBlob = (hash: string) => Promise<Buffer | undefined>;

/** The hash an address of Livery's file route names, or undefined for any other address. */
export function storedHash(url: string, publicBase: string): string | undefined {
  const bases = [publicBase, new URL(publicBase).pathname];
  for (const base of bases) {
    if (!url.startsWith(`${base}@livery/files/`)) continue;
    const hash = url.slice(base.length + '@livery/files/'.length).split('/')[0] ?? '';
    if (/^[A-Za-z0-9_-]{43}$/.test(hash)) return hash;
  }
  return undefined;
}

/** PNG or JPEG, by their first bytes (the uploads' sniffer): the raster formats pdfkit embeds. */
export function isPngOrJpeg(bytes: Buffer): boolean {
  const type = sniffBinary(bytes);
  return type === 'image/png' || type === 'image/jpeg';
}

/** The face of a definition nearest `weight` (exact first, then the closest). */
export function nearestFace(font: FontDefinition, weight: number) {
  return [...font.fontFaces].sort(
    (a, b) => Math.abs(a.weight - weight) - Math.abs(b.weight - weight),
  )[0];
}

export class PdfAssets {
  /** Each font file read once per PDF (regular, bold and heading are often one face). */
  private readonly fontFiles = new Map<string, Promise<Buffer | undefined>>();

  constructor(
    private readonly read: ReadBlob,
    private readonly publicBase: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The site's custom fonts, by role; a role without one (or whose file fails) is absent. */
  async fonts(settings: Settings): Promise<Partial<PdfFonts>> {
    const { font, headingFont, monospaceFont } = settings.styling;
    const roles: [keyof PdfFonts, FontSetting | undefined, number][] = [
      ['body', font, 400],
      ['bold', font, 700],
      ['heading', headingFont ?? font, 700],
      ['mono', monospaceFont, 400],
      ['monoBold', monospaceFont, 700],
    ];
    const found: Partial<PdfFonts> = {};
    for (const [role, setting, weight] of roles) {
      if (setting === undefined || !isDefinition(setting)) continue;
      const bytes = await this.fontFile(setting, weight);
      if (bytes !== undefined) found[role] = bytes;
    }
    return found;
  }

  private async fontFile(font: FontDefinition, weight: number): Promise<Buffer | undefined> {
    const face = nearestFace(font, weight);
    for (const source of face?.sources ?? []) {
      const hash = storedHash(source.url, this.publicBase);
      if (hash === undefined) continue;
      let file = this.fontFiles.get(hash);
      if (file === undefined) {
        file = this.embeddable(hash, font, face?.weight);
        this.fontFiles.set(hash, file);
      }
      const bytes = await file;
      if (bytes !== undefined) return bytes;
    }
    return undefined;
  }

  /** A stored font file as pdfkit embeds it (WOFF2 as TrueType); undefined, logged, if it fails. */
  private async embeddable(
    hash: string,
    font: FontDefinition,
    weight: number | undefined,
  ): Promise<Buffer | undefined> {
    try {
      let bytes = await this.read(hash);
      if (bytes === undefined) return undefined;
      // fontkit's subsetter fails on many WOFF2 files: embed their TrueType instead.
      if (bytes.subarray(0, 4).toString('latin1') === 'wOF2') {
        // Loaded on first use: its WebAssembly heap only in processes that print custom fonts.
        const { default: decompress } = await import('wawoff2/decompress.js');
        bytes = Buffer.from(await decompress(bytes));
      }
      await probe(bytes);
      return bytes;
    } catch (error) {
      this.log.warn(
        { font: font.fontFamily, weight, reason: String(error) },
        'pdf: a custom font file cannot be embedded; the default font is used',
      );
      return undefined;
    }
  }

  /** The site's header logo (light theme), when it is a PNG or JPEG Livery stores. */
  logo(settings: Settings): Promise<Buffer | undefined> {
    const url = settings.header.logo?.light;
    return url === undefined ? Promise.resolve(undefined) : this.image({ kind: 'url', url }, []);
  }

  /** A page image's bytes, when it is a PNG or JPEG Livery stores (a revision file, or by URL). */
  async image(ref: ImageRef, files: readonly StoredFile[]): Promise<Buffer | undefined> {
    const hash =
      ref.kind === 'file'
        ? files.find((file) => file.id === ref.file)?.hash
        : storedHash(ref.url, this.publicBase);
    if (hash === undefined) return undefined;
    const bytes = await this.read(hash);
    return bytes !== undefined && isPngOrJpeg(bytes) ? bytes : undefined;
  }
}

/**
 * A font written, subset and embedded into a PDF thrown away: fontkit fails on some files only
 * when it subsets them, at the end; a failure here falls back before the download starts.
 */
async function probe(font: Buffer): Promise<void> {
  const doc = new PDFDocument({ autoFirstPage: false, compress: false });
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.pipe(new Writable({ write: (_chunk, _encoding, next) => next() }));
  doc.addPage();
  doc.registerFont('probe', font);
  doc.font('probe').text('The quick brown fox jumps over the lazy dog 0123456789 .,;:!?');
  doc.end();
  await done;
}
