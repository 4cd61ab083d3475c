import { markdownToDocument } from '../src/modules/documents/index.js';
import type { JsonDocument } from '../src/modules/documents/model.js';
import type { PdfPage } from '../src/modules/pdf/selection.js';

/**
 * The space of `npm run bench:pdf`: `count` pages of a documentation page's usual mix (about
 * two printed sheets each): paragraphs with links to the next page and to a heading, headings,
 * a list, a hint, a table and a code block with a 200-character line that must wrap.
 */
export function fixturePage(i: number): string {
  const lorem = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ';
  return [
    `Page ${i} explains one thing, links to [the next page](page-${i + 1}.md) and to [its own section](#details). ${lorem.repeat(6)}`,
    '## Details',
    lorem.repeat(10),
    '- the first point\n- the second point, with **bold** and `code`\n- the third point',
    '{% hint style="info" %}\nA hint of the page, in the site\'s info color.\n{% endhint %}',
    '| Name | Value |\n| --- | --- |\n| alpha | 1 |\n| beta | 2 |',
    `\`\`\`ts\nconst line${i} = "${'x'.repeat(200)}";\nexport function twice(a: number): number {\n  return a * 2;\n}\n\`\`\``,
    '## More',
    lorem.repeat(12),
  ].join('\n\n');
}

export function fixture(count: number): { pages: PdfPage[]; documents: Map<string, JsonDocument> } {
  const pages: PdfPage[] = [];
  const documents = new Map<string, JsonDocument>();
  // Markdown links to `page-N.md` are page links: the ids by path, as a space's page table has them.
  const ids = new Map(Array.from({ length: count + 1 }, (_, i) => [`page-${i}`, `p${i}`]));
  for (let i = 0; i < count; i++) {
    pages.push({ id: `p${i}`, type: 'document', title: `Page ${i}`, depth: i % 10 === 0 ? 0 : 1 });
    documents.set(`p${i}`, markdownToDocument(fixturePage(i), { ids, path: `page-${i}` }));
  }
  return { pages, documents };
}
