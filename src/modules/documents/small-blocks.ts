import { imagesOfInlines } from './blocks/images.js';
import { type PageLinks, refOf } from './links.js';
import { type Block, type Inline, paragraph, voidBlock } from './model.js';

/** Blocks of one token each: lone template tags, content references, paragraphs of images. */
export function loneTag(name: string, attrs: Record<string, string>, context: PageLinks): Block[] {
  if (name === 'embed' && attrs.url !== undefined) return [voidBlock('embed', { url: attrs.url })];
  if (name === 'content-ref' && attrs.url !== undefined) return [contentRef(attrs.url, context)];
  return [];
}

export function contentRef(url: string, context: PageLinks): Block {
  return voidBlock('content-ref', { ref: refOf(url, context) });
}

/** A paragraph of nothing but block-sized images (and spaces) is GitBook's `images` block. */
export function paragraphOrImages(nodes: Inline[]): Block {
  return imagesOfInlines(nodes) ?? paragraph(nodes);
}
