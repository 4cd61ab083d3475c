import { BoundedCache } from '../../bounded-cache.js';
import type { SiteRow } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { Urls } from '../../urls.js';
import type { ContentService } from '../content/service.js';
import type { PublishedVariant } from '../published/repository.js';
import type { SitesService } from '../sites/service.js';
import { byRank, type PageHit, searchIndex, sectionHits } from './rank.js';
import type {
  SearchPageResult,
  SearchResults,
  SearchSiteBody,
  SearchSpaceResult,
} from './schemas.js';
import { variantsInScope } from './scope.js';
import { buildIndex, type SpaceIndex } from './space-index.js';
import { parseQuery, type Query } from './text.js';

/** Indexes kept, by their estimated size: revisions never change, so an index never goes stale. */
const INDEX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_RESULTS = 20;

/** A page found, with the variant it was found in. */
export interface VariantHit {
  variant: PublishedVariant;
  hit: PageHit;
}

/**
 * Full-text search of a site's published content (docs/search.md): `searchSiteContent` for API
 * clients and GitBook's renderer, and the search box of Livery's own published site.
 */
export class SearchService {
  private readonly indexes = new BoundedCache<SpaceIndex>(INDEX_BYTES);

  constructor(
    private readonly deps: {
      sites: SitesService;
      content: ContentService;
      variantsOf: (siteId: string) => Promise<readonly PublishedVariant[]>;
      urls: Urls;
    },
  ) {}

  /** `POST /v1/orgs/{org}/sites/{site}/search`: the site must be published (else 404). */
  async searchSite(
    organizationId: string,
    siteId: string,
    body: SearchSiteBody,
    list: { page?: string | undefined; limit?: number | undefined },
  ): Promise<SearchResults> {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    requirePublished(site);
    if (body.query.trim() === '') throw badRequest('body.query: must not be empty');
    const offset = decodeOffset(list.page);
    const limit = list.limit ?? DEFAULT_RESULTS;
    const variants = variantsInScope(await this.deps.variantsOf(site.id), body);
    const { query, hits } = await this.search(variants, body.query);
    const shown = hits.slice(offset, offset + limit);
    const results: SearchResults = {
      items: this.grouped(shown, offset, query),
      count: hits.length,
    };
    if (offset + limit < hits.length) results.next = { page: encodeOffset(offset + limit) };
    return results;
  }

  /** The pages of `variants` matching `text`, ranked across variants (a space searched once). */
  async search(
    variants: readonly PublishedVariant[],
    text: string,
  ): Promise<{ query: Query; hits: VariantHit[] }> {
    const query = parseQuery(text);
    if (query.terms.length === 0) return { query, hits: [] };
    const seen = new Set<string>();
    const found: (VariantHit & { position: number })[] = [];
    for (const [position, variant] of variants.entries()) {
      if (seen.has(variant.spaceId)) continue;
      seen.add(variant.spaceId);
      const index = await this.indexOf(variant.spaceId);
      for (const hit of searchIndex(index, query)) found.push({ variant, hit, position });
    }
    found.sort((a, b) => byRank(a.hit, b.hit) || a.position - b.position);
    return { query, hits: found.map(({ variant, hit }) => ({ variant, hit })) };
  }

  /** The index of the space's current revision, built on first use. */
  private async indexOf(spaceId: string): Promise<SpaceIndex> {
    const revision = await this.deps.content.revisionFor(spaceId, { kind: 'space' });
    const key = `${spaceId}\u0000${revision.id}`;
    const cached = this.indexes.get(key);
    if (cached !== undefined) return cached;
    const index = buildIndex(revision.pages);
    this.indexes.set(key, index, index.bytes);
    return index;
  }

  /** One page of results as GitBook's list: grouped by space in rank order, ranks kept. */
  private grouped(hits: readonly VariantHit[], offset: number, query: Query): SearchSpaceResult[] {
    const spaces = new Map<string, SearchSpaceResult>();
    hits.forEach(({ variant, hit }, i) => {
      let space = spaces.get(variant.spaceId);
      if (space === undefined) {
        space = {
          type: 'space',
          id: variant.spaceId,
          title: variant.spaceTitle,
          score: hit.score,
          pages: [],
        };
        spaces.set(variant.spaceId, space);
      }
      space.pages.push(this.pageResult(variant.spaceId, hit, offset + i + 1, query));
    });
    return [...spaces.values()];
  }

  private pageResult(spaceId: string, hit: PageHit, rank: number, query: Query): SearchPageResult {
    const { page } = hit;
    const app = `${this.deps.urls.space(spaceId)}/content/page/${page.id}`;
    return {
      id: page.id,
      title: page.title,
      description: page.description,
      path: page.path,
      score: hit.score,
      rank,
      resultType: hit.onPageFields ? 'page' : 'section',
      sections: sectionHits(hit, query).map(({ section, score, body }) => {
        const anchor = section.anchor === '' ? '' : `#${section.anchor}`;
        return {
          id: section.anchor === '' ? page.id : section.anchor,
          title: section.title,
          path: `${page.path}${anchor}`,
          score,
          resultType: score > 0 ? 'section' : 'page',
          body,
          urls: { app: `${app}${anchor}` },
        };
      }),
      ancestors: page.ancestors.map((title) => ({ title })),
      urls: { app },
    };
  }
}

function requirePublished(site: SiteRow): void {
  if (site.published !== 1) {
    throw new AppError(
      404,
      `The site ${JSON.stringify(site.id)} is not published: only published sites are searched`,
    );
  }
}

/** Cursors are positions in the ranked results: a later page of a changed site may shift. */
const encodeOffset = (offset: number) => Buffer.from(`o${offset}`).toString('base64url');

function decodeOffset(page: string | undefined): number {
  if (page === undefined) return 0;
  const match = /^o(\d{1,9})$/.exec(Buffer.from(page, 'base64url').toString('utf8'));
  if (match === null)
    throw badRequest('querystring.page is not a page cursor returned by this search');
  return Number(match[1]);
}
