import { encodeSegment } from '../../well-formed-text.js';
import type { SearchService } from '../search/service.js';
import { pageHref } from './rendering/navigation.js';
import { variantBase } from './rendering/page-builder.js';
import type { PublishedVariant } from './repository.js';

/**
 * The answer of the search box of Livery's own published site (`GET /s/{site}/@livery/search`):
 * the same search as searchSiteContent, in the variant the visitor reads, with the addresses
 * the page links to (`page#anchor`) made here, as the site's pages make theirs.
 */
export const BOX_RESULTS = 10;

export interface BoxResult {
  /** The page's id: site.js reports the result opened (a search_open_result event). */
  pageId: string;
  title: string;
  href: string;
  /** Titles of the pages above it. */
  ancestors: string[];
  /** The best matching section, when the match is in one. */
  section?: { title: string; body: string; href: string };
}

export async function searchBox(
  search: SearchService,
  site: { root: string; variant: PublishedVariant },
  text: string,
): Promise<{ results: BoxResult[] }> {
  const { hits } = await search.search([site.variant], text, 0, BOX_RESULTS);
  const base = variantBase(site.root, site.variant);
  const results = hits.map(({ page }): BoxResult => {
    const href = pageHref(base, page.path);
    const result: BoxResult = {
      pageId: page.id,
      title: page.title,
      href,
      ancestors: page.ancestors,
    };
    const best = page.sections[0];
    if (best !== undefined && (best.title !== '' || best.body !== '')) {
      const anchor = best.anchor === '' ? '' : `#${encodeSegment(best.anchor)}`;
      result.section = { title: best.title, body: best.body, href: `${href}${anchor}` };
    }
    return result;
  });
  return { results };
}
