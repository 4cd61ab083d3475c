import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * A PDF read back as Mozilla's PDF.js reads it (pdfjs-dist, a dev dependency): each page's text
 * (its footer checked and taken off),
 * its internal links (the page number a link jumps to) and external ones, and the bookmarks.
 * Tests judge Livery's PDFs on what a reader's viewer finds in them, not on their bytes.
 */
export interface ReadPdf {
  pages: string[];
  /** Per page: the 1-based pages its internal links jump to. */
  jumps: number[][];
  /** Per page: the addresses of its external links. */
  urls: string[][];
  outline: string[];
  fonts: string[];
}

/**
 * The sheets' text without their footers (`n / total`, written first on each sheet), asserting
 * that every sheet has its own.
 */
export function withoutFooters(pages: string[]): string[] {
  return pages.map((text, i) => {
    const footer = `${i + 1} / ${pages.length}\n`;
    if (!text.startsWith(footer))
      throw new Error(`sheet ${i + 1} has no footer: ${text.slice(0, 40)}`);
    return text.slice(footer.length);
  });
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const result: ReadPdf = { pages: [], jumps: [], urls: [], outline: [], fonts: [] };
  const fonts = new Set<string>();
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    const text = content.items
      .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : ''))
      .join('');
    result.pages.push(text);
    for (const style of Object.values(content.styles)) fonts.add(style.fontFamily);
    const jumps: number[] = [];
    const urls: string[] = [];
    for (const annotation of await page.getAnnotations()) {
      if (annotation.subtype !== 'Link') continue;
      if (typeof annotation.url === 'string') urls.push(annotation.url);
      else if (annotation.dest !== undefined && annotation.dest !== null) {
        const dest =
          typeof annotation.dest === 'string'
            ? await pdf.getDestination(annotation.dest)
            : annotation.dest;
        if (Array.isArray(dest) && dest[0] !== undefined)
          jumps.push((await pdf.getPageIndex(dest[0])) + 1);
      }
    }
    result.jumps.push(jumps);
    result.urls.push(urls);
  }
  const walk = (items: { title: string; items: unknown[] }[] | null, depth: number) => {
    for (const item of items ?? []) {
      result.outline.push(`${'  '.repeat(depth)}${item.title}`);
      walk(item.items as { title: string; items: unknown[] }[], depth + 1);
    }
  };
  walk(await pdf.getOutline(), 0);
  result.fonts = [...fonts];
  result.pages = withoutFooters(result.pages);
  await pdf.destroy();
  return result;
}
