import { loneTagOf } from './blocks/index.js';
import { type PageLinks, refOf } from './links.js';
import { type Block, type Inline, images, paragraph, text, voidBlock } from './model.js';

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

/** A paragraph of nothing but images (and spaces) is GitBook's `images` block. */
export function paragraphOrImages(nodes: Inline[]): Block {
  const onlyImages = nodes.filter(
    (node) => !(node.object === 'text' && node.leaves.every((leaf) => leaf.text.trim() === '')),
  );
  if (
    onlyImages.length > 0 &&
    onlyImages.every((n) => n.object === 'inline' && n.type === 'inline-image')
  ) {
    return images(
      onlyImages.map((node) => {
        const data = (node as { data: { ref: { url: string }; alt?: string; caption?: string } })
          .data;
        return {
          url: data.ref.url,
          alt: data.alt ?? '',
          ...(data.caption === undefined ? {} : { caption: data.caption }),
        };
      }),
    );
  }
  return paragraph(nodes);
}
