import { pageHref } from '../published/navigation.js';
import { variantBase } from '../published/page-builder.js';
import type { PublishedVariant } from '../published/repository.js';
import { sectionHits } from './rank.js';
import type { SearchService } from './service.js';

/**
 * The answer of the search box of Livery's own published site (`GET /s/{site}/@livery/search`):
 * the same search as searchSiteContent, in the variant the visitor reads, with the addresses
 * the page links to (`page#anchor`) made here, as the site's pages make theirs.
 */
export const BOX_RESULTS = 10;

export interface BoxResult {
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
  const { query, hits } = await search.search([site.variant], text);
  const base = variantBase(site.root, site.variant);
  const results = hits.slice(0, BOX_RESULTS).map(({ hit }): BoxResult => {
    const href = pageHref(base, hit.page.path);
    const result: BoxResult = { title: hit.page.title, href, ancestors: hit.page.ancestors };
    const best = sectionHits(hit, query)[0];
    if (best !== undefined && (best.section.title !== '' || best.body !== '')) {
      const anchor =
        best.section.anchor === '' ? '' : `#${encodeURIComponent(best.section.anchor)}`;
      result.section = { title: best.section.title, body: best.body, href: `${href}${anchor}` };
    }
    return result;
  });
  return { results };
}
