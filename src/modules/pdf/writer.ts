import PDFDocument from 'pdfkit';
import type { Settings } from '../../settings/settings-schema.js';
import type { JsonDocument } from '../documents/model.js';
import { scale } from '../theme/colors.js';
import { BlockWriter, type Palette } from './blocks.js';
import { pdfFonts } from './fonts.js';
import { type LinkContext, pageDestination } from './inlines.js';
import type { PdfPage } from './selection.js';

/**
 * A space as one PDF (docs/pdf.md), written with pdfkit: a title and table of contents (each
 * entry a link, with its page number), then every page from a new sheet, in order, with PDF
 * bookmarks in the shape of the page tree and page numbers at the foot. The site's fonts and
 * colors (fonts.ts; the primary color for links, the hint colors for hints).
 *
 * Pages are kept in memory until the end (pdfkit's `bufferPages`), to write the table of contents'
 * page numbers and the footers once known: about 0.1 MiB a page (docs/BENCHMARKS.md, "PDF").
 * Between pages the event loop gets a turn, so a long PDF never stalls other requests.
 */
export interface PdfSource {
  title: string;
  pages: readonly PdfPage[];
  /** A document page's document; undefined for groups. */
  documentOf(page: PdfPage): Promise<JsonDocument | undefined>;
  settings: Settings;
  fileUrl?: (fileId: string) => string | undefined;
}

const MARGIN = 56;
const TOC_SIZE = 10.5;
const TOC_GAP = 4;

export async function writePdf(source: PdfSource, out: NodeJS.WritableStream): Promise<number> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: false,
    displayTitle: true,
    info: { Title: source.title, Creator: 'Livery' },
  });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('close', resolve);
    out.on('error', reject);
  });
  doc.pipe(out);
  const fonts = pdfFonts(source.settings);
  doc.registerFont('body', fonts.body);
  doc.registerFont('bold', fonts.bold);
  doc.registerFont('heading', fonts.heading);
  doc.registerFont('mono', fonts.mono);
  doc.registerFont('monoBold', fonts.monoBold);
  const palette = paletteOf(source.settings);
  const titles = new Map(source.pages.map((page) => [page.id, page.title]));
  const printed = new Set(titles.keys());

  // The title and the table of contents' sheets, left blank for their page numbers.
  doc.addPage();
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
  const tocPages = 1 + Math.ceil(Math.max(0, source.pages.length - first) / perPage);
  for (let i = 1; i < tocPages; i++) doc.addPage();

  const startPage: number[] = [];
  const outline: PDFKit.PDFOutline[] = [];
  for (const page of source.pages) {
    doc.addPage();
    startPage.push(doc.bufferedPageRange().count - 1);
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
    if (document !== undefined)
      new BlockWriter(doc, palette, links).blocks(document.nodes, MARGIN, width);
    // The event loop's turn: other requests go on while a long PDF is written.
    await new Promise((resolve) => setImmediate(resolve));
  }

  writeContents(doc, source.pages, startPage, { tocTop, first, perPage, line, palette });
  writeFooters(doc, palette);
  doc.end();
  await done;
  return doc.bufferedPageRange().count;
}

function writeContents(
  doc: PDFKit.PDFDocument,
  pages: readonly PdfPage[],
  startPage: readonly number[],
  layout: { tocTop: number; first: number; perPage: number; line: number; palette: Palette },
) {
  const width = doc.page.width - 2 * MARGIN;
  pages.forEach((page, i) => {
    const sheet = i < layout.first ? 0 : 1 + Math.floor((i - layout.first) / layout.perPage);
    const row = i < layout.first ? i : (i - layout.first) % layout.perPage;
    doc.switchToPage(sheet);
    const y = (sheet === 0 ? layout.tocTop : MARGIN) + row * layout.line;
    const indent = Math.min(page.depth, 6) * 14;
    const number = String((startPage[i] ?? 0) + 1);
    doc
      .font(page.depth === 0 ? 'bold' : 'body')
      .fontSize(TOC_SIZE)
      .fillColor(layout.palette.ink);
    const numberWidth = doc.widthOfString(number);
    const room = width - indent - numberWidth - 16;
    const title = fitted(doc, page.title, room);
    doc.text(title, MARGIN + indent, y, {
      width: room,
      lineBreak: false,
      goTo: pageDestination(page.id),
    } as PDFKit.Mixins.TextOptions);
    doc.text(number, MARGIN + width - numberWidth, y, {
      lineBreak: false,
      goTo: pageDestination(page.id),
    } as PDFKit.Mixins.TextOptions);
  });
}

/** A title cut to `width` with an ellipsis: one line each in the table of contents. */
function fitted(doc: PDFKit.PDFDocument, title: string, width: number): string {
  if (doc.widthOfString(title) <= width) return title;
  let cut = title;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

function writeFooters(doc: PDFKit.PDFDocument, palette: Palette) {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin: pdfkit would start a new page for text there, unless told not to.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('body').fontSize(8).fillColor(palette.muted);
    doc.text(`${i + 1} / ${count}`, MARGIN, doc.page.height - MARGIN / 2 - 4, {
      width: doc.page.width - 2 * MARGIN,
      align: 'center',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
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
