import { imagesOfInlines } from './blocks/images.js';
import { loneTagOf } from './blocks/index.js';
import { type PageLinks, refOf } from './links.js';
import { type Block, type Inline, paragraph, text, voidBlock } from './model.js';

/** Blocks of one token each: lone template tags, content references, paragraphs of images. */
export function loneTag(
  name: string,
  attrs: Record<string, string>,
  context: PageLinks,
  source = '',
): Block[] {
  if (name === 'embed' && attrs.url !== undefined) {
    const full = attrs.fullWidth === 'true' ? { fullWidth: true } : {};
    const embed = voidBlock('embed', { url: attrs.url, ...full });
    // 0.202's embed has no caption: a `caption="…"` is the paragraph after it, as a body is.
    const caption = attrs.caption?.trim() ?? '';
    return caption === '' ? [embed] : [embed, paragraph([text(caption)])];
  }
  if (name === 'content-ref' && attrs.url !== undefined) return [contentRef(attrs.url, context)];
  // The legacy page link, `{% page-ref page="x.md" %}`: a content reference.
  if (name === 'page-ref' && attrs.page !== undefined) return [contentRef(attrs.page, context)];
  return loneTagOf(name, attrs, source, context) ?? [];
}

export function contentRef(url: string, context: PageLinks): Block {
  return voidBlock('content-ref', { ref: refOf(url, context) });
}

/** A paragraph of nothing but block-sized images (and spaces) is GitBook's `images` block. */
export function paragraphOrImages(nodes: Inline[]): Block {
  return imagesOfInlines(nodes) ?? paragraph(nodes);
}
