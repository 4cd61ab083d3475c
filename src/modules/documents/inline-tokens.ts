import type Token from 'markdown-it/lib/token.mjs';
import { inlineMath } from './blocks/math.js';
import type { PageLinks } from './links.js';
import { refOf } from './links.js';
import {
  type Inline,
  type InlineImage,
  inlineImage,
  inlines,
  type Leaf,
  link,
  type MarkType,
  mark,
  type TextNode,
  textNode,
} from './model.js';

/**
 * markdown-it's inline tokens as document inlines: text leaves with their marks (bold, italic,
 * strikethrough, code), links (to a URL, an anchor, or another page of the revision as a content
 * reference) and inline images. A soft line break is a space (a paragraph flows); a hard one is
 * a line break in the text.
 */
export function inlinesOf(children: Token[] | null, links: PageLinks): Inline[] {
  const out: Inline[] = [];
  const marks: MarkType[] = [];
  let linkStart: { ref: ReturnType<typeof refOf>; at: number } | undefined;
  const leaf = (value: string, extra: MarkType[] = []): Leaf => ({
    object: 'leaf',
    text: value,
    marks: [...marks, ...extra].map(mark),
  });
  const pushLeaf = (value: string, extra?: MarkType[]) => out.push(textNode([leaf(value, extra)]));
  const toggle = (type: MarkType, on: boolean) => {
    if (on) marks.push(type);
    else marks.splice(marks.lastIndexOf(type), 1);
  };
  for (const token of children ?? []) {
    switch (token.type) {
      case 'text':
        pushLeaf(token.content);
        break;
      case 'softbreak':
        pushLeaf(' ');
        break;
      case 'hardbreak':
        pushLeaf('\n');
        break;
      case 'code_inline':
        pushLeaf(token.content, ['code']);
        break;
      case 'strong_open':
      case 'strong_close':
        toggle('bold', token.nesting === 1);
        break;
      case 'em_open':
      case 'em_close':
        toggle('italic', token.nesting === 1);
        break;
      case 's_open':
      case 's_close':
        toggle('strikethrough', token.nesting === 1);
        break;
      case 'link_open':
        linkStart = { ref: refOf(token.attrGet('href') ?? '', links), at: out.length };
        break;
      case 'link_close': {
        if (linkStart === undefined) break;
        const inner = out.splice(linkStart.at) as (TextNode | InlineImage)[];
        out.push(
          link(
            linkStart.ref,
            inner.filter((n) => n.object === 'text' || n.type === 'inline-image'),
          ),
        );
        linkStart = undefined;
        break;
      }
      case 'math_inline':
        out.push(inlineMath(token.content));
        break;
      case 'image':
        out.push(
          inlineImage(
            token.attrGet('src') ?? '',
            altText(token),
            token.attrGet('title') ?? undefined,
          ),
        );
        break;
      default:
        // html_inline does not occur (raw HTML is off); anything else keeps its text.
        if (token.content !== '') pushLeaf(token.content);
    }
  }
  return inlines(out);
}

function altText(token: Token): string {
  return (token.children ?? []).map((child) => child.content).join('');
}
