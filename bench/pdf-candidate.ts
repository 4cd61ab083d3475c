import { createWriteStream, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import decompress from 'wawoff2/decompress.js';
import { findChromium } from '../scripts/chromium.js';
import { documentToHtml } from '../src/modules/documents/index.js';
import { images } from '../src/modules/documents/model.js';
import { writePdf } from '../src/modules/pdf/writer.js';
import { DEFAULT_SETTINGS } from '../src/settings/defaults.js';
import { png } from '../test/helpers/upload-samples.js';
import { fixture } from './pdf-fixture.js';

/**
 * One candidate of `npm run bench:pdf`, in a process of its own (bench/pdf.ts measures its
 * memory from outside): `node --import tsx bench/pdf-candidate.ts <baseline|pdfkit|chromium>
 * <pages> <out.pdf>`. Prints one JSON line: the seconds it took and the PDF's size.
 * - baseline: the documents made and nothing printed (what any candidate starts from);
 * - pdfkit: Livery's writer (src/modules/pdf/writer.ts) from the documents;
 * - pdfkit-assets: the same with a custom font (Lato, WOFF2 decompressed as for a stored font),
 *   a logo, and a 600×300 PNG on every page (the bytes in memory: no database read);
 * - chromium: the documents as the published site's HTML, printed by Debian's Chromium through
 *   playwright-core (`page.pdf`, with its outline), one page per sheet.
 */
const [kind = 'pdfkit', countText = '500', out = '/tmp/livery-bench.pdf'] = process.argv.slice(2);
const count = Number(countText);
const start = performance.now();
const { pages, documents } = fixture(count);
let bytes = 0;
if (kind === 'pdfkit' || kind === 'pdfkit-assets') {
  const file = createWriteStream(out);
  const assets = kind === 'pdfkit-assets';
  const lato = assets
    ? Buffer.from(
        await decompress(
          readFileSync(new URL('../assets/fonts/lato-latin-400-normal.woff2', import.meta.url)),
        ),
      )
    : Buffer.alloc(0);
  const picture = png(600, 300, [30, 90, 200]);
  const image = images([{ url: 'http://livery.test/s/@livery/files/x/chart.png', alt: 'Chart' }]);
  await writePdf(
    {
      title: 'Bench space',
      pages,
      documentOf: async (page) => {
        const document = documents.get(page.id);
        return assets && document !== undefined
          ? { ...document, nodes: [...document.nodes, image] }
          : document;
      },
      settings: DEFAULT_SETTINGS,
      ...(assets
        ? {
            fonts: { body: lato, bold: lato, heading: lato },
            logo: png(200, 60),
            imageOf: async () => picture,
          }
        : {}),
    },
    file,
  );
  bytes = file.bytesWritten;
} else if (kind === 'chromium') {
  const { chromium } = await import('playwright-core');
  const executablePath = findChromium();
  if (executablePath === undefined) throw new Error('chromium: not installed');
  const toc = pages.map((p) => `<li><a href="#${p.id}">${p.title}</a></li>`).join('');
  const body = pages
    .map(
      (p) =>
        `<section id="${p.id}" style="break-before:page"><h1>${p.title}</h1>${documentToHtml(documents.get(p.id) ?? { object: 'document', data: {}, nodes: [] }, { pageHref: (id) => `#${id}` })}</section>`,
    )
    .join('');
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:sans-serif;font-size:11pt} pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f5f5f5;padding:6pt}</style></head><body><h1>Bench space</h1><ol>${toc}</ol>${body}</body></html>`;
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const page = await browser.newPage();
  await page.setContent(html);
  const pdf = await page.pdf({
    path: out,
    format: 'A4',
    outline: true,
    margin: { top: '2cm', bottom: '2cm', left: '2cm', right: '2cm' },
  });
  bytes = pdf.length;
  await browser.close();
}
process.stdout.write(
  `${JSON.stringify({ kind, count, seconds: (performance.now() - start) / 1000, bytes })}\n`,
);
