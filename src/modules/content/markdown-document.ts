/**
 * `format=document`: a Markdown body as GitBook's JSON document (`{object: "document", nodes}`),
 * block by block: headings 1–3, paragraphs, fenced code, bullet and numbered lists and quotes.
 * Inline Markdown stays as text; the Markdown itself is what Livery stores (docs/content.md).
 */
export interface JsonNode {
  object: 'document' | 'block' | 'text';
  type?: string;
  data?: Record<string, unknown>;
  nodes?: JsonNode[];
  leaves?: { object: 'leaf'; text: string; marks: [] }[];
}

const text = (value: string): JsonNode => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: [] }],
});
const block = (type: string, nodes: JsonNode[], data: Record<string, unknown> = {}): JsonNode => ({
  object: 'block',
  type,
  data,
  nodes,
});
const paragraph = (value: string) => block('paragraph', [text(value)]);

export function markdownToDocument(markdown: string): JsonNode {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const nodes: JsonNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const fence = /^\s*(```|~~~)\s*([\w+-]*)\s*$/.exec(line);
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (line.trim() === '') {
      i++;
    } else if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? '').trim().startsWith(fence[1] ?? '```')) {
        body.push(lines[i] ?? '');
        i++;
      }
      i++;
      const data = fence[2] ? { syntax: fence[2] } : {};
      nodes.push(
        block(
          'code',
          body.map((codeLine) => block('code-line', [text(codeLine)])),
          data,
        ),
      );
    } else if (heading) {
      const level = Math.min((heading[1] ?? '#').length, 3);
      nodes.push(block(`heading-${level}`, [text(heading[2] ?? '')]));
      i++;
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: JsonNode[] = [];
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i] ?? '')) {
        items.push(
          block('list-item', [paragraph((lines[i] ?? '').replace(/^\s*([-*+]|\d+[.)])\s+/, ''))]),
        );
        i++;
      }
      nodes.push(block(ordered ? 'list-ordered' : 'list-unordered', items));
    } else if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i] ?? '')) {
        quoted.push((lines[i] ?? '').replace(/^\s*>\s?/, ''));
        i++;
      }
      nodes.push(block('blockquote', [paragraph(quoted.join('\n'))]));
    } else {
      const para: string[] = [];
      while (i < lines.length && (lines[i] ?? '').trim() !== '' && !startsBlock(lines[i] ?? '')) {
        para.push(lines[i] ?? '');
        i++;
      }
      nodes.push(paragraph(para.join('\n')));
    }
  }
  return { object: 'document', data: {}, nodes };
}

function startsBlock(line: string): boolean {
  return /^(#{1,6}\s|\s*(```|~~~)|\s*>|\s*([-*+]|\d+[.)])\s+)/.test(line);
}
