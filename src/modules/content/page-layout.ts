import type { StoredPage } from './tree.js';

/**
 * Every document's layout: Livery has no per-page layout settings, so the options say what
 * Livery's published pages really show (docs/api.md, "Records: GitBook 0.202's fields"): the
 * title, description, table of contents (the sidebar) and pagination; no cover image (so none to
 * mask), no outline ("on this page"), no metadata (last update, contributors), no tags, no
 * visible anchor links on headings; the page menu, whose actions are the site's
 * `pageActions.items`.
 */
export const LAYOUT = {
  width: 'default',
  cover: false,
  coverSize: 'full',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: false,
  pagination: true,
  metadata: false,
  tags: false,
  actions: true,
  anchors: false,
} as const;

/** A document's layout options as GitBook's RevisionPageLayoutOptions. */
export function layoutOf(page: StoredPage): Readonly<Record<string, string | boolean>> {
  // An imported page's front matter sets some layout options (docs/git-sync.md).
  return page.layout === undefined ? LAYOUT : { ...LAYOUT, ...page.layout };
}
