import type Token from 'markdown-it/lib/token.mjs';
import { inlineImageOf } from './blocks/images.js';
import { annotation, inlineNodeOf, takeLastWord } from './blocks/inline-nodes.js';
import { inlineMath } from './blocks/math.js';
import type { PageLinks } from './links.js';
import { refOf } from './links.js';
import {
  type Block,
  type Inline,
  type InlineImage,
  inlines,
  type Leaf,
  link,
  type Mark,
  type MarkType,
  mark,
  type TextNode,
  textNode,
} from './model.js';

/** Links, and the notes of the page's footnotes (`[^label]: …`) as blocks. */
export interface InlineContext extends PageLinks {
  footnote?: (label: string) => Block[] | undefined;
  /** The notes' Markdown by label, for references inside HTML (a table cell, a caption). */
  footnoteSource?: Map<string, string>;
}

/**
 * markdown-it's inline tokens as document inlines: text leaves with their marks (bold, italic,
 * strikethrough, code), links (to a URL, an anchor, or another page of the revision as a content
 * reference) and inline images. A soft line break is a space (a paragraph flows); a hard one is
 * a line break in the text.
 */
export function inlinesOf(children: Token[] | null, links: InlineContext): Inline[] {
  const out: Inline[] = [];
  const marks: Mark[] = [];
  let linkStart: { ref: ReturnType<typeof refOf>; at: number; mention: boolean } | undefined;
  const leaf = (value: string, extra: MarkType[] = []): Leaf => ({
    object: 'leaf',
    text: value,
    marks: [...marks, ...extra.map(mark)],
  });
  const pushLeaf = (value: string, extra?: MarkType[]) => out.push(textNode([leaf(value, extra)]));
  const toggle = (type: MarkType, on: boolean, data?: Mark['data']) => {
    if (on) marks.push(data === undefined ? mark(type) : { object: 'mark', type, data });
    else {
      const at = marks.findLastIndex((m) => m.type === type);
      if (at !== -1) marks.splice(at, 1);
    }
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
        linkStart = {
          ref: refOf(token.attrGet('href') ?? '', links),
          at: out.length,
          // `[title](page.md "mention")`: GitBook's mention of a page.
          mention: token.attrGet('title') === 'mention',
        };
        break;
      case 'link_close': {
        if (linkStart === undefined) break;
        const inner = out.splice(linkStart.at) as (TextNode | InlineImage)[];
        if (linkStart.mention) {
          out.push({
            object: 'inline',
            type: 'mention',
            isVoid: true,
            data: { ref: linkStart.ref },
          });
          linkStart = undefined;
          break;
        }
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
      case 'image': {
        const image = inlineImageOf(
          { src: token.attrGet('src') ?? '', alt: altText(token) },
          links,
        );
        const title = token.attrGet('title');
        if (title !== null && title !== '') image.data.caption = title;
        out.push(image);
        break;
      }
      case 'gb_image':
        out.push(inlineImageOf(token.meta, links));
        break;
      case 'gb_mark_open':
        toggle('color', true, token.meta);
        break;
      case 'gb_mark_close':
        toggle('color', false);
        break;
      case 'gb_inline': {
        if (token.meta.type === 'annotation') {
          const body = links.footnote?.(token.meta.label);
          if (body !== undefined) out.push(annotation(takeLastWord(out), body));
          break;
        }
        const node = inlineNodeOf(token, links);
        if (node !== undefined) out.push(node);
        break;
      }
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
