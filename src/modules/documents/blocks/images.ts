import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import { html, type SafeHtml, type SafeUrl } from '../../../html/safe-html.js';
import { attrUrl } from '../../../html/safe-url.js';
import { lineOf } from '../block-lines.js';
import { fileRefOf, type PageLinks, resolveRepoPath } from '../links.js';
import {
  type Block,
  type Fragment,
  type ImageRef,
  type Inline,
  type InlineImage,
  paragraph,
  voidBlock,
} from '../model.js';

import { encodeAttr, type HtmlPart, htmlParts } from './html-attrs.js';

/**
 * GitBook's images in HTML (docs/content.md, "Page documents"): `<figure><img src alt width>
 * <figcaption><p>…</p></figcaption></figure>`, in a `<div align="left" data-full-width="true"
 * data-with-frame="true">` (several figures in one div are one `images` block), `<picture>` with a
 * dark-mode `<source>` (the image's `refDark`), and `<img class="gitbook-drawing">` (a `drawing`).
 * Every source is a reference through fileRefOf: a file of the revision when it has that file.
 */

export type Length = number | { unit: string; value: number };

export interface ImageSpec {
  ref: ImageRef;
  refDark?: ImageRef | undefined;
  alt?: string | undefined;
  width?: Length | undefined;
  height?: Length | undefined;
  /** The caption's inline content; none or empty for no caption. */
  caption?: Inline[] | undefined;
}

export interface ImagesOptions {
  align?: 'left' | 'center' | 'right' | undefined;
  fullWidth?: boolean | undefined;
  withFrame?: boolean | undefined;
}

const isEmpty = (nodes: Inline[] | undefined) =>
  nodes === undefined ||
  nodes.every((n) => n.object === 'text' && n.leaves.every((l) => l.text === ''));

export function imageBlock(spec: ImageSpec): Block {
  const data: Record<string, unknown> = { ref: spec.ref };
  if (spec.refDark !== undefined) data.refDark = spec.refDark;
  if (spec.width !== undefined) data.width = spec.width;
  if (spec.height !== undefined) data.height = spec.height;
  if (spec.alt !== undefined && spec.alt !== '') data.alt = spec.alt;
  const fragments: Fragment[] = isEmpty(spec.caption)
    ? []
    : [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(spec.caption ?? [])] }];
  return { ...voidBlock('image', data), fragments };
}

export function imagesBlock(list: ImageSpec[], options: ImagesOptions = {}): Block {
  const data: Record<string, unknown> = {};
  if (options.align !== undefined) data.align = options.align;
  if (options.fullWidth === true) data.fullWidth = true;
  if (options.withFrame === true) data.withFrame = true;
  return { object: 'block', type: 'images', data, isVoid: false, nodes: list.map(imageBlock) };
}

/** `188` → 188, `50%` → {unit: '%', value: 50}; anything else undefined. */
function lengthOf(value: string | undefined): Length | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(px|%)?\s*$/.exec(value ?? '');
  if (match === null) return undefined;
  const number = Number(match[1]);
  return match[2] === '%' ? { unit: '%', value: number } : number;
}

function lengthText(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'object' && value !== null) {
    const { unit, value: n } = value as { unit?: unknown; value?: unknown };
    if (typeof n === 'number' && Number.isFinite(n) && (unit === '%' || unit === 'px')) {
      return `${n}${unit === '%' ? '%' : ''}`;
    }
  }
  return undefined;
}

// --- Markdown → document -------------------------------------------------------------------

/** Lines a group of image tags may span (GitBook writes each on one line). */
const MAX_LINES = 30;
const START = /^<(div|figure|picture|img)[\s>]/i;

/**
 * A block rule: a line (or a few, up to the closing tag) of GitBook's image HTML becomes one
 * `gitbook_images` token whose meta is the parsed group; anything else in it fails the rule (the
 * lines stay text).
 */
export function htmlImagesRule(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
): boolean {
  if ((state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
  const first = lineOf(state, startLine);
  if (!START.test(first)) return false;
  let source = '';
  let last = startLine;
  let depth = 0;
  for (let line = startLine; line < Math.min(endLine, startLine + MAX_LINES); line++) {
    if (line > startLine && state.isEmpty(line)) return false;
    const content = lineOf(state, line);
    source += (line > startLine ? '\n' : '') + content;
    for (const match of content.matchAll(/<(\/?)(div|figure|picture)[\s>]/gi)) {
      depth += match[1] === '/' ? -1 : 1;
    }
    last = line;
    if (depth <= 0) break;
  }
  if (depth !== 0) return false;
  const group = parseImageGroup(source);
  if (group === undefined) return false;
  if (silent) return true;
  const token = state.push('gitbook_images', 'figure', 0);
  token.block = true;
  token.map = [startLine, last + 1];
  token.meta = group;
  state.line = last + 1;
  return true;
}

export interface RawImage {
  src: string;
  dark?: string | undefined;
  alt: string;
  width?: string | undefined;
  height?: string | undefined;
  drawing: boolean;
  /** The caption's HTML (its `<p>` taken off), read as inline content by the converter. */
  caption: string;
}
export interface ImageGroup {
  options: ImagesOptions;
  images: RawImage[];
}

/** `<div …>` around `<figure>`s, `<picture>`s and `<img>`s, or undefined when it is not only that. */
export function parseImageGroup(source: string): ImageGroup | undefined {
  const all = htmlParts(source);
  // The structure without the white space between tags (a caption keeps all of its own).
  const parts = all
    .map((part, at) => ({ ...part, at }))
    .filter((p) => !(p.tag === '' && p.raw.trim() === ''));
  let at = 0;
  const options: ImagesOptions = {};
  let wrapped = false;
  if (parts[0]?.tag === 'div') {
    const attrs = parts[0].attrs;
    const align = attrs.get('align');
    if (align === 'left' || align === 'center' || align === 'right') options.align = align;
    if (attrs.get('data-full-width') === 'true') options.fullWidth = true;
    if (attrs.get('data-with-frame') === 'true') options.withFrame = true;
    if (parts.at(-1)?.tag !== '/div') return undefined;
    wrapped = true;
    at = 1;
  }
  const end = wrapped ? parts.length - 1 : parts.length;
  const images: RawImage[] = [];
  while (at < end) {
    const part = parts[at] as HtmlPart;
    if (part.tag === 'figure') {
      let close = at + 1;
      while (close < end && parts[close]?.tag !== '/figure') close++;
      if (close >= end) return undefined;
      const image = figureImage(parts.slice(at + 1, close), all);
      if (image === undefined) return undefined;
      images.push(image);
      at = close + 1;
    } else {
      const read = pictureOrImg(parts, at, end);
      // Unwrapped, only a drawing is a block of its own (an `<img>` is inline content).
      if (read === undefined || (!wrapped && !read.image.drawing)) return undefined;
      images.push({ ...read.image, caption: '' });
      at = read.next;
    }
  }
  if (images.length === 0) return undefined;
  // A drawing stands alone.
  if (images.some((i) => i.drawing) && (images.length > 1 || wrapped)) return undefined;
  return { options, images };
}

function figureImage(parts: (HtmlPart & { at: number })[], all: HtmlPart[]): RawImage | undefined {
  const read = pictureOrImg(parts, 0, parts.length);
  if (read === undefined) return undefined;
  let caption = '';
  if (read.next < parts.length) {
    if (parts[read.next]?.tag !== 'figcaption' || parts.at(-1)?.tag !== '/figcaption') {
      return undefined;
    }
    const from = (parts[read.next]?.at ?? 0) + 1;
    const to = parts.at(-1)?.at ?? from;
    caption = all
      .slice(from, to)
      .filter((p) => p.tag !== 'p' && p.tag !== '/p')
      .map((p) => p.raw)
      .join('')
      .trim();
  }
  return { ...read.image, caption };
}

function pictureOrImg(
  parts: HtmlPart[],
  at: number,
  end: number,
): { image: Omit<RawImage, 'caption'>; next: number } | undefined {
  const part = parts[at];
  if (part?.tag === 'img') return { image: imgOf(part, undefined), next: at + 1 };
  if (part?.tag !== 'picture') return undefined;
  let dark: string | undefined;
  let img: HtmlPart | undefined;
  let i = at + 1;
  for (; i < end; i++) {
    const p = parts[i] as HtmlPart;
    if (p.tag === '/picture') break;
    if (p.tag === 'source') {
      if (/prefers-color-scheme:\s*dark/i.test(p.attrs.get('media') ?? '')) {
        dark = p.attrs.get('srcset')?.trim();
      }
    } else if (p.tag === 'img' && img === undefined) img = p;
    else return undefined;
  }
  if (img === undefined || parts[i]?.tag !== '/picture') return undefined;
  return { image: imgOf(img, dark), next: i + 1 };
}

function imgOf(part: HtmlPart, dark: string | undefined): Omit<RawImage, 'caption'> {
  return {
    src: part.attrs.get('src') ?? '',
    dark,
    alt: part.attrs.get('alt') ?? '',
    width: part.attrs.get('width'),
    height: part.attrs.get('height'),
    drawing: /(^|\s)gitbook-drawing(\s|$)/.test(part.attrs.get('class') ?? ''),
  };
}

/** The parsed group as a block: `images`, or `drawing` for a drawing the revision has. */
export function imageGroupBlock(
  group: ImageGroup,
  links: PageLinks,
  captionOf: (html: string) => Inline[],
): Block {
  const [only] = group.images;
  if (only?.drawing === true) {
    const ref = fileRefOf(only.src, links);
    if (ref.kind === 'file') return voidBlock('drawing', { ref });
  }
  return imagesBlock(
    group.images.map((image) => ({
      ref: fileRefOf(image.src, links) as ImageRef,
      refDark: image.dark === undefined ? undefined : (fileRefOf(image.dark, links) as ImageRef),
      alt: image.alt,
      width: lengthOf(image.width),
      height: lengthOf(image.height),
      caption: image.caption === '' ? undefined : captionOf(image.caption),
    })),
    group.options,
  );
}

/** A paragraph of nothing but block-sized images (no `data-size`) is an `images` block. */
export function imagesOfInlines(nodes: Inline[]): Block | undefined {
  const shown = nodes.filter(
    (node) => !(node.object === 'text' && node.leaves.every((leaf) => leaf.text.trim() === '')),
  );
  if (
    shown.length === 0 ||
    !shown.every(
      (n) => n.object === 'inline' && n.type === 'inline-image' && n.data.size === undefined,
    )
  ) {
    return undefined;
  }
  return imagesBlock(
    (shown as InlineImage[]).map(({ data }) => ({
      ref: data.ref,
      refDark: data.refDark,
      alt: data.alt,
      caption:
        data.caption === undefined
          ? undefined
          : [{ object: 'text', leaves: [{ object: 'leaf', text: data.caption, marks: [] }] }],
    })),
  );
}

/** An inline `<img src alt data-size>` or `<picture>` read by the inline rule. */
export function inlineImageOf(
  image: { src: string; dark?: string | undefined; alt: string; size?: string | undefined },
  links: PageLinks,
): InlineImage {
  const data: InlineImage['data'] = { ref: fileRefOf(image.src, links) as ImageRef };
  if (image.dark !== undefined) data.refDark = fileRefOf(image.dark, links) as ImageRef;
  if (image.alt !== '') data.alt = image.alt;
  if (image.size === 'line' || image.size === 'original') data.size = image.size;
  return { object: 'inline', type: 'inline-image', isVoid: true, data };
}

// --- document → Markdown -------------------------------------------------------------------

const inverse = new WeakMap<ReadonlyMap<string, string>, Map<string, string>>();

/** A reference as the source GitBook writes: a revision file as its path from the page's file. */
export function srcOf(ref: ImageRef | undefined, links: PageLinks): string {
  if (ref === undefined) return '';
  if (ref.kind === 'url') return ref.url;
  const files = links.files;
  if (files === undefined) return ref.file;
  let paths = inverse.get(files);
  if (paths === undefined) {
    paths = new Map([...files].map(([path, id]) => [id, path]));
    inverse.set(files, paths);
  }
  const target = paths.get(ref.file);
  if (target === undefined) return ref.file;
  const from = (links.file ?? '').split('/').slice(0, -1);
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const path = [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
  // Read back to the same file (a `..` that climbs above the root would not).
  return links.file !== undefined && resolveRepoPath(links.file, path) === target ? path : target;
}

/** `<img …>`, in a `<picture>` when it has a dark variant. */
export function imgMarkdown(
  data: Record<string, unknown>,
  links: PageLinks,
  extra: string = '',
): string {
  const src = srcOf(data.ref as ImageRef, links);
  const width = lengthText(data.width);
  const height = lengthText(data.height);
  const img = `<img src="${encodeAttr(src)}" alt="${encodeAttr(String(data.alt ?? ''))}"${
    width === undefined ? '' : ` width="${width}"`
  }${height === undefined ? '' : ` height="${height}"`}${extra}>`;
  if (data.refDark === undefined) return img;
  const dark = srcOf(data.refDark as ImageRef, links);
  return `<picture><source srcset="${encodeAttr(dark)}" media="(prefers-color-scheme: dark)">${img}</picture>`;
}

/**
 * An `images` block as GitBook writes it: `<figure>`s (with `<figcaption><p>`), in a `<div>`
 * when there are several or the block has options; a drawing as its `<img class>`.
 */
export function imagesMarkdown(
  node: Block,
  links: PageLinks,
  captionMarkdown: (nodes: Inline[]) => string,
): string {
  if (node.type === 'drawing') {
    return `<img src="${encodeAttr(srcOf(node.data.ref as ImageRef, links))}" alt="" class="gitbook-drawing">`;
  }
  const figures = (node.nodes ?? []).map((image) => {
    const block = image as Block;
    const caption = block.fragments?.[0]?.nodes[0]?.nodes as Inline[] | undefined;
    const text = caption === undefined ? '' : captionMarkdown(caption);
    return `<figure>${imgMarkdown(block.data, links)}<figcaption>${
      text === '' ? '' : `<p>${text}</p>`
    }</figcaption></figure>`;
  });
  const data = node.data;
  const attrs = [
    typeof data.align === 'string' ? ` align="${encodeAttr(data.align)}"` : '',
    data.fullWidth === true ? ' data-full-width="true"' : '',
    data.withFrame === true ? ' data-with-frame="true"' : '',
  ].join('');
  return figures.length === 1 && attrs === ''
    ? (figures[0] ?? '')
    : `<div${attrs}>${figures.join('')}</div>`;
}

// --- document → HTML -----------------------------------------------------------------------

export interface ImageHtmlOptions {
  file?:
    | ((
        fileId: string,
      ) => { url: string; name: string; contentType: string; size: number } | undefined)
    | undefined;
}

/** An image reference as a URL the page may show, or undefined (an unknown file, a refused URL). */
export function imageUrl(ref: unknown, s: ImageHtmlOptions): SafeUrl | undefined {
  const r = ref as ImageRef | undefined;
  if (r?.kind === 'url' && typeof r.url === 'string') return attrUrl(r.url, true);
  if (r?.kind === 'file' && typeof r.file === 'string') {
    const file = s.file?.(r.file);
    return file === undefined ? undefined : attrUrl(file.url, true);
  }
  return undefined;
}

/**
 * `<img>`, or the alt text when it cannot be shown. An image with a dark variant is two, shown
 * by the page's theme as the logo is (site.css: `image-light`, `image-dark`).
 */
export function imgHtml(
  data: Record<string, unknown>,
  s: ImageHtmlOptions,
  className = '',
): SafeHtml {
  const src = imageUrl(data.ref, s);
  const alt = typeof data.alt === 'string' ? data.alt : '';
  if (src === undefined) return html`${alt}`;
  const caption = typeof data.caption === 'string' ? html` title="${data.caption}"` : '';
  const width = lengthText(data.width);
  const height = lengthText(data.height);
  const size = html`${width === undefined ? '' : html` width="${width}"`}${height === undefined ? '' : html` height="${height}"`}`;
  const dark = data.refDark === undefined ? undefined : imageUrl(data.refDark, s);
  const cls = (extra: string) => {
    const all = [className, extra].filter((c) => c !== '').join(' ');
    return all === '' ? '' : html` class="${all}"`;
  };
  const img = html`<img src="${src}" alt="${alt}"${caption}${size}${cls(dark === undefined ? '' : 'image-light')} loading="lazy">`;
  return dark === undefined
    ? img
    : html`${img}<img src="${dark}" alt="${alt}"${caption}${size}${cls('image-dark')} loading="lazy">`;
}

/** An `images` block: its figures in a `div.images`, with the block's alignment and frame. */
export function imagesHtml(
  node: Block,
  s: ImageHtmlOptions,
  captionHtml: (nodes: Inline[]) => SafeHtml,
): SafeHtml {
  if (node.type === 'drawing') {
    return html`<div class="images drawing"><figure>${imgHtml(node.data, s)}</figure></div>\n`;
  }
  const figures = (node.nodes ?? []).map((image) => {
    const block = image as Block;
    const caption = block.fragments?.[0]?.nodes[0]?.nodes as Inline[] | undefined;
    return html`<figure>${imgHtml(block.data, s)}${
      caption === undefined ? '' : html`<figcaption>${captionHtml(caption)}</figcaption>`
    }</figure>`;
  });
  const classes = ['images'];
  const align = node.data.align;
  if (align === 'left' || align === 'center' || align === 'right') classes.push(`images-${align}`);
  if (node.data.fullWidth === true) classes.push('full-width');
  if (node.data.withFrame === true) classes.push('images-frame');
  return html`<div class="${classes.join(' ')}">${figures}</div>\n`;
}
