import type { Block, ImageRef, Inline } from '../documents/model.js';
import { headingId, plainText } from '../documents/model.js';
import { tableCells } from '../documents/table-cells.js';
import { headingDestination, type LinkContext, type Run, runsOf } from './inlines.js';

/**
 * A page's blocks, written with pdfkit (docs/pdf.md, "What a PDF shows"): headings (each a
 * destination that links jump to), paragraphs, lists, code that wraps (long lines break, even
 * within a word), quotes and hints with a bar of their color, tables as grids, expandables and
 * tabs opened out, formulas as their TeX. Images in `images`, the text's width at most (given
 * by the writer: PNG and JPEG files Livery stores); others as their alternative text.
 */
export interface Palette {
  ink: string;
  muted: string;
  link: string;
  codeBackground: string;
  rule: string;
  hints: Record<string, string>;
}

const SIZES = { body: 10.5, code: 8.5, headings: [17, 14, 12] as const };

export class BlockWriter {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly palette: Palette,
    private readonly links: LinkContext,
    private readonly images: ReadonlyMap<ImageRef, Buffer> = new Map(),
  ) {}

  private get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page when less than `height` is left on this one. */
  private room(height: number) {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  blocks(nodes: readonly (Block | Inline)[] | undefined, x: number, width: number): void {
    for (const node of nodes ?? []) {
      if (node.object === 'block') this.block(node, x, width);
    }
  }

  runs(runs: Run[], x: number, width: number, size = SIZES.body, after = 6) {
    const { doc } = this;
    const shown = runs.filter((run) => run.text !== '');
    if (shown.length === 0) return;
    doc.fontSize(size);
    shown.forEach((run, i) => {
      doc.font(run.font).fillColor(run.color ?? this.palette.ink);
      const options = {
        width,
        lineGap: 2,
        continued: i < shown.length - 1,
        link: run.link ?? null,
        goTo: run.goTo ?? null,
        underline: run.underline ?? false,
        strike: run.strike ?? false,
      } as PDFKit.Mixins.TextOptions;
      if (i === 0) doc.text(run.text, x, doc.y, options);
      else doc.text(run.text, options);
    });
    doc.y += after;
  }

  private block(node: Block, x: number, width: number) {
    const { doc, palette } = this;
    switch (node.type) {
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const level = Number(node.type.slice(-1)) - 1;
        const size = SIZES.headings[level] ?? SIZES.body;
        // A heading is never the last line of a page: it keeps two lines of what follows.
        this.room(size * 1.4 + SIZES.body * 3);
        doc.y += level === 0 ? 8 : 5;
        const anchor = node.meta?.id ?? headingId(plainText(node.nodes));
        doc.font('heading').fontSize(size).fillColor(palette.ink);
        doc.text(plainText(node.nodes), x, doc.y, {
          width,
          destination: headingDestination(this.links.pageId, anchor),
        } as PDFKit.Mixins.TextOptions);
        doc.y += 4;
        return;
      }
      case 'paragraph':
        return this.runs(runsOf(node.nodes, this.links), x, width);
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks':
        return this.list(node, x, width);
      case 'code':
        return this.code(node, x, width);
      case 'blockquote':
        return this.barred(node.nodes, x, width, palette.rule);
      case 'hint':
        return this.barred(
          node.nodes,
          x,
          width,
          palette.hints[String(node.data.style)] ?? palette.rule,
        );
      case 'divider': {
        this.room(12);
        doc.y += 4;
        doc
          .moveTo(x, doc.y)
          .lineTo(x + width, doc.y)
          .lineWidth(0.5)
          .strokeColor(palette.rule)
          .stroke();
        doc.y += 8;
        return;
      }
      case 'table':
        return this.table(node, x, width);
      case 'images':
        for (const image of (node.nodes ?? []) as Block[]) {
          const data = image.data as { alt?: string; caption?: string; ref?: ImageRef };
          const text = data.caption ?? data.alt ?? '';
          const bytes = data.ref === undefined ? undefined : this.images.get(data.ref);
          if (bytes !== undefined && this.image(bytes, x, width)) {
            if (data.caption !== undefined && data.caption !== '') {
              this.runs([{ text: data.caption, font: 'body', color: palette.muted }], x, width);
            }
            continue;
          }
          this.runs(
            [
              {
                text: `[Image${text === '' ? '' : `: ${text}`}]`,
                font: 'body',
                color: palette.muted,
              },
            ],
            x,
            width,
          );
        }
        return;
      case 'math':
        return this.runs([{ text: String(node.data.formula ?? ''), font: 'mono' }], x, width);
      case 'expandable':
      case 'tabs':
      case 'stepper':
        return this.opened(node, x, width);
      case 'embed':
      case 'file':
      case 'content-ref':
        return this.reference(node, x, width);
      default:
        this.blocks(node.nodes, x, width);
        for (const fragment of node.fragments ?? []) this.blocks(fragment.nodes, x, width);
    }
  }

  /**
   * An image at its size (96 pixels an inch), made smaller to fit the text's width and a sheet.
   * False when pdfkit cannot read it: the caller writes its text.
   */
  private image(bytes: Buffer, x: number, width: number): boolean {
    const { doc } = this;
    // pdfkit's openImage (not in its types) reads the size; image() takes what it opened.
    const opener = doc as unknown as { openImage(src: Buffer): { width: number; height: number } };
    let image: { width: number; height: number };
    try {
      image = opener.openImage(bytes);
    } catch {
      return false;
    }
    const tallest = this.bottom - doc.page.margins.top;
    const scale = Math.min(0.75, width / image.width, tallest / image.height);
    const [w, h] = [image.width * scale, image.height * scale];
    this.room(h);
    doc.image(image as unknown as Buffer, x, doc.y, { width: w, height: h });
    doc.y += h + 6;
    return true;
  }

  private list(node: Block, x: number, width: number) {
    const { doc } = this;
    const indent = 16;
    ((node.nodes ?? []) as Block[]).forEach((item, i) => {
      this.room(SIZES.body * 1.5);
      const marker =
        node.type === 'list-ordered'
          ? `${i + 1}.`
          : node.type === 'list-tasks'
            ? item.data.checked === true
              ? '[x]'
              : '[ ]'
            : '•';
      const y = doc.y;
      const page = doc.page;
      doc.font('body').fontSize(SIZES.body).fillColor(this.palette.ink);
      doc.text(marker, x, y, { width: indent + 8, lineBreak: false });
      if (doc.page === page) doc.y = y;
      const markerWidth = node.type === 'list-tasks' ? indent + 8 : indent;
      this.blocks(item.nodes, x + markerWidth, width - markerWidth);
    });
    doc.y += 2;
  }

  /** A code block line by line, each on its background: a block may run over pages. */
  private code(node: Block, x: number, width: number) {
    const { doc, palette } = this;
    const pad = 6;
    const lines = ((node.nodes ?? []) as Block[]).map((line) =>
      plainText(line.nodes).replaceAll('\t', '    '),
    );
    doc.font('mono').fontSize(SIZES.code);
    const options = { width: width - 2 * pad, lineGap: 1.5 };
    this.room(doc.currentLineHeight(true) + 2 * pad);
    doc.rect(x, doc.y, width, pad).fill(palette.codeBackground);
    doc.y += pad;
    for (const line of lines) {
      const text = line === '' ? ' ' : line;
      const height = doc.heightOfString(text, options);
      this.room(height);
      doc.rect(x, doc.y, width, height).fill(palette.codeBackground);
      doc.fillColor(palette.ink).text(text, x + pad, doc.y, options);
    }
    doc.rect(x, doc.y, width, pad).fill(palette.codeBackground);
    doc.y += pad + 8;
  }

  /** A quote or hint: its blocks indented, a bar of `color` on their left. */
  private barred(nodes: Block['nodes'], x: number, width: number, color: string) {
    const { doc } = this;
    this.room(SIZES.body * 2);
    const page = doc.page;
    const top = doc.y;
    this.blocks(nodes, x + 12, width - 12);
    const from = doc.page === page ? top : doc.page.margins.top;
    doc.rect(x, from - 2, 3, doc.y - from - 2).fill(color);
    doc.y += 4;
  }

  private table(node: Block, x: number, width: number) {
    const { doc, palette } = this;
    const { columns, rows } = tableCells(node);
    if (columns.length === 0) return;
    const cell = width / columns.length;
    const header = columns.some((column) => column.title !== '')
      ? [columns.map((column) => column.title)]
      : [];
    const body = rows.map((row) => row.map((inlines) => plainText(inlines)));
    [...header, ...body].forEach((texts, r) => {
      const bold = r < header.length;
      doc.font(bold ? 'bold' : 'body').fontSize(SIZES.body - 1);
      const options = { width: cell - 8, lineGap: 1 };
      const height = Math.max(...texts.map((text) => doc.heightOfString(text || ' ', options))) + 6;
      this.room(height);
      const y = doc.y;
      texts.forEach((text, c) => {
        doc.fillColor(palette.ink).text(text, x + c * cell + 4, y + 3, options);
      });
      doc
        .moveTo(x, y + height)
        .lineTo(x + width, y + height)
        .lineWidth(0.5)
        .strokeColor(palette.rule)
        .stroke();
      doc.y = y + height;
    });
    doc.y += 8;
  }

  /** Expandables, tabs and steppers: every part shown, its title in bold. */
  private opened(node: Block, x: number, width: number) {
    for (const fragment of node.fragments ?? []) {
      if (fragment.fragment.endsWith('title')) {
        this.runs([{ text: plainText(fragment.nodes), font: 'bold' }], x, width, SIZES.body, 3);
      } else this.blocks(fragment.nodes, x + 12, width - 12);
    }
    for (const item of (node.nodes ?? []) as Block[]) {
      const title = item.data.title;
      if (typeof title === 'string' && title !== '') {
        this.runs([{ text: title, font: 'bold' }], x, width, SIZES.body, 3);
      }
      this.blocks(item.nodes, x + 12, width - 12);
    }
  }

  /** Embeds, files and page references: a line naming them, a link where it leads somewhere. */
  private reference(node: Block, x: number, width: number) {
    const data = node.data as { url?: unknown; ref?: { kind: string; page?: string } };
    const ref =
      node.type === 'embed'
        ? { kind: 'url', url: String(data.url ?? '') }
        : (data.ref ?? { kind: 'none' });
    const title =
      plainText(node.nodes) ||
      (ref.kind === 'page' && 'page' in ref
        ? this.links.pageTitle?.(String(ref.page))
        : undefined) ||
      (typeof data.url === 'string' ? data.url : '') ||
      '→';
    const link = {
      object: 'inline',
      type: 'link',
      isVoid: false,
      data: { ref },
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: title, marks: [] }] }],
    } as unknown as Inline;
    this.runs(runsOf([link], this.links), x, width);
  }
}
