import { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { Settings } from '../../settings/settings-schema.js';
import type { Block, ImageRef, Inline, JsonDocument } from '../documents/model.js';
import { scale } from '../theme/colors.js';
import { BlockWriter, type Palette } from './blocks.js';
import { type PdfFonts, pdfFonts } from './fonts.js';
import { type LinkContext, pageDestination } from './inlines.js';
import type { PdfPage } from './selection.js';

/**
 * A space as one PDF (docs/pdf.md), written with pdfkit: a title and table of contents (each
 * entry a link, with its page number), then every page from a new sheet, in order, with PDF
 * bookmarks in the shape of the page tree and page numbers at the foot. The site's fonts and
 * colors (fonts.ts; the primary color for links, the hint colors for hints).
 *
 * Between pages the event loop gets a turn, so a long PDF never stalls other requests.
 */
export interface PdfSource {
  title: string;
  pages: readonly PdfPage[];
  /** A document page's document; undefined for groups. */
  documentOf(page: PdfPage): Promise<JsonDocument | undefined>;
  settings: Settings;
  fileUrl?: (fileId: string) => string | undefined;
  /** The site's custom fonts that Livery stores (assets.ts), by role. */
  fonts?: Partial<PdfFonts>;
  /** The site's logo (PNG or JPEG), on the title page. */
  logo?: Buffer | undefined;
  /** An image's bytes when it can be printed (a PNG or JPEG Livery stores); else its text. */
  imageOf?: (ref: ImageRef) => Promise<Buffer | undefined>;
}

const LOGO_BOX = [160, 48] as const;

const MARGIN = 56;
const TOC_SIZE = 10.5;
const TOC_GAP = 4;

/** Where each page of the PDF starts (0-based sheet), and how many sheets there are. */
interface Layout {
  startPage: number[];
  total: number;
}

/**
 * Two passes over the same code: the first, into nothing, learns on which sheet each page
 * starts; the second writes the PDF with those numbers in its contents and footers. Each sheet
 * is written out as soon as it is full: memory grows only by what pdfkit keeps to the end (each
 * page's destination, bookmark, link annotations), for about 1.7 times the CPU of one pass
 * (docs/BENCHMARKS.md, "PDF export").
 */
export async function writePdf(source: PdfSource, out: NodeJS.WritableStream): Promise<number> {
  const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
  const layout = await render(source, nowhere, undefined);
  return (await render(source, out, layout)).total;
}

async function render(
  source: PdfSource,
  out: NodeJS.WritableStream,
  known: Layout | undefined,
): Promise<Layout> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    autoFirstPage: false,
    // The first pass's sheets are thrown away: not worth compressing.
    compress: known !== undefined,
    displayTitle: true,
    info: { Title: source.title, Creator: 'Livery' },
  });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    out.on('error', reject);
  });
  doc.pipe(out);
  const fonts = pdfFonts(source.settings, source.fonts);
  doc.registerFont('body', fonts.body);
  doc.registerFont('bold', fonts.bold);
  doc.registerFont('heading', fonts.heading);
  doc.registerFont('mono', fonts.mono);
  doc.registerFont('monoBold', fonts.monoBold);
  const palette = paletteOf(source.settings);
  const titles = new Map(source.pages.map((page) => [page.id, page.title]));
  const printed = new Set(titles.keys());
  let sheets = 0;
  doc.on('pageAdded', () => {
    sheets++;
    footer(doc, sheets, known?.total, palette);
  });

  // The title, then the table of contents, one line per page.
  doc.addPage();
  if (source.logo !== undefined) {
    try {
      doc.image(source.logo, MARGIN, MARGIN, { fit: [...LOGO_BOX] });
      doc.y = MARGIN + LOGO_BOX[1] + 16;
    } catch {
      // Checked when read (assets.ts): a file pdfkit still refuses is left out.
    }
  }
  doc.font('heading').fontSize(24).fillColor(palette.ink).text(source.title);
  doc.moveDown(0.5);
  doc.font('heading').fontSize(14).text('Contents');
  doc.moveDown(0.5);
  const tocTop = doc.y;
  doc.font('body').fontSize(TOC_SIZE);
  const line = doc.currentLineHeight(true) + TOC_GAP;
  const bottom = doc.page.height - MARGIN;
  const first = Math.max(1, Math.floor((bottom - tocTop) / line));
  const perPage = Math.floor((bottom - MARGIN) / line);
  source.pages.forEach((page, i) => {
    const row = i < first ? i : (i - first) % perPage;
    if (i >= first && row === 0) doc.addPage();
    const y = (i < first ? tocTop : MARGIN) + row * line;
    contentsLine(doc, page, (known?.startPage[i] ?? 0) + 1, y, palette);
  });

  const startPage: number[] = [];
  const outline: PDFKit.PDFOutline[] = [];
  for (const page of source.pages) {
    doc.addPage();
    startPage.push(sheets - 1);
    doc.addNamedDestination(pageDestination(page.id));
    const parent = outline[page.depth - 1] ?? doc.outline;
    outline[page.depth] = parent.addItem(page.title);
    outline.length = page.depth + 1;
    const width = doc.page.width - 2 * MARGIN;
    doc
      .font('heading')
      .fontSize(22)
      .fillColor(palette.ink)
      .text(page.title, MARGIN, MARGIN, { width });
    if (page.description !== undefined && page.description !== '') {
      doc.moveDown(0.3);
      doc.font('body').fontSize(12).fillColor(palette.muted).text(page.description, { width });
    }
    doc.moveDown(0.8);
    const document = await source.documentOf(page);
    const links: LinkContext = {
      pageId: page.id,
      printed,
      linkColor: palette.link,
      fileUrl: source.fileUrl,
      pageTitle: (id) => titles.get(id),
    };
    if (document !== undefined) {
      const images = await imagesOf(document.nodes, source.imageOf);
      new BlockWriter(doc, palette, links, images).blocks(document.nodes, MARGIN, width);
    }
    // The event loop's turn: other requests go on while a long PDF is written.
    await new Promise((resolve) => setImmediate(resolve));
  }
  doc.end();
  await done;
  return { startPage, total: sheets };
}

/**
 * The printable images of a page's image blocks, by their `ref` (one page's at a time: memory
 * holds no more).
 */
async function imagesOf(
  nodes: readonly (Block | Inline)[] | undefined,
  imageOf: PdfSource['imageOf'],
): Promise<Map<ImageRef, Buffer>> {
  const found = new Map<ImageRef, Buffer>();
  if (imageOf === undefined) return found;
  const visit = async (list: readonly (Block | Inline)[] | undefined): Promise<void> => {
    for (const node of list ?? []) {
      if (node.object !== 'block') continue;
      const ref = (node.data as { ref?: ImageRef } | undefined)?.ref;
      if (node.type === 'image' && ref !== undefined) {
        const bytes = await imageOf(ref);
        if (bytes !== undefined) found.set(ref, bytes);
      }
      await visit(node.nodes);
      for (const fragment of node.fragments ?? []) await visit(fragment.nodes);
    }
  };
  await visit(nodes);
  return found;
}

/** One entry of the contents: the title, indented by depth, and its page number; both links. */
function contentsLine(
  doc: PDFKit.PDFDocument,
  page: PdfPage,
  number: number,
  y: number,
  palette: Palette,
) {
  const width = doc.page.width - 2 * MARGIN;
  const indent = Math.min(page.depth, 6) * 14;
  const goTo = pageDestination(page.id);
  doc
    .font(page.depth === 0 ? 'bold' : 'body')
    .fontSize(TOC_SIZE)
    .fillColor(palette.ink);
  const numberWidth = doc.widthOfString(String(number));
  const room = width - indent - numberWidth - 16;
  const options = { lineBreak: false, goTo } as PDFKit.Mixins.TextOptions;
  doc.text(fitted(doc, page.title, room), MARGIN + indent, y, { ...options, width: room });
  doc.text(String(number), MARGIN + width - numberWidth, y, options);
}

/** A title cut to `width` with an ellipsis: one line each in the table of contents. */
function fitted(doc: PDFKit.PDFDocument, title: string, width: number): string {
  if (doc.widthOfString(title) <= width) return title;
  let cut = title;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/**
 * The sheet's number at its foot, written as the sheet starts (it may start in the middle of a
 * paragraph that runs over): what the text being written uses (font, size, place) is put back.
 */
function footer(doc: PDFKit.PDFDocument, n: number, total: number | undefined, palette: Palette) {
  const state = doc as unknown as { _font: unknown; _fontSize: number };
  const saved = { font: state._font, size: state._fontSize, x: doc.x, y: doc.y };
  // Below the bottom margin: pdfkit would start a new sheet for text there, unless told not to.
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc
    .font('body')
    .fontSize(8)
    .fillColor(palette.muted)
    .text(
      total === undefined ? String(n) : `${n} / ${total}`,
      MARGIN,
      doc.page.height - MARGIN / 2 - 4,
      {
        width: doc.page.width - 2 * MARGIN,
        align: 'center',
        lineBreak: false,
      },
    );
  doc.page.margins.bottom = bottom;
  state._font = saved.font;
  state._fontSize = saved.size;
  doc.x = saved.x;
  doc.y = saved.y;
}

/** The site's colors in print: its light theme. */
function paletteOf(settings: Settings): Palette {
  const { styling } = settings;
  const primary = scale(styling.primaryColor.light, 'light');
  const neutral = scale(styling.tint?.color.light ?? '#8b8d98', 'light');
  return {
    ink: '#1c2024',
    muted: '#60646c',
    link: primary[10] ?? styling.primaryColor.light,
    codeBackground: neutral[1] ?? '#f5f5f5',
    rule: neutral[5] ?? '#cccccc',
    hints: {
      info: styling.infoColor.light,
      success: styling.successColor.light,
      warning: styling.warningColor.light,
      danger: styling.dangerColor.light,
    },
  };
}
