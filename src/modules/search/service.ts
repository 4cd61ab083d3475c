import type { SiteRow } from '../../db/schema.js';
import { AppError, badRequest } from '../../errors.js';
import type { Urls } from '../../urls.js';
import type { Workers } from '../../workers/index.js';
import type { ContentService } from '../content/service.js';
import type { Revision } from '../content/storage/revisions.js';
import type { Tree } from '../content/tree.js';
import type { PublishedVariant } from '../published/repository.js';
import type { SitesService } from '../sites/service.js';
import { decodeOffset, encodeOffset } from './cursor.js';
import { mergeParts, partsOf } from './merge.js';
import type {
  SearchPageResult,
  SearchResults,
  SearchSiteBody,
  SearchSpaceResult,
} from './schemas.js';
import { variantsInScope } from './scope.js';
import type { FoundPage } from './search-thread.js';
import { type IndexInput, readablePages } from './space-index.js';
import { parseQuery } from './text.js';

export const DEFAULT_RESULTS = 20;

/** What a search covers: a space, and the title its results give it. */
export interface SearchedSpace {
  spaceId: string;
  spaceTitle: string;
}

/** A page found, with the space (a site's variant, for a site) it was found in. */
export interface SpaceHit<S extends SearchedSpace = PublishedVariant> {
  variant: S;
  page: FoundPage;
}

/** Markdown sent to the search thread per batch: each hand-over is a short copy. */
const BATCH_CHARS = 4 * 1024 * 1024;
/** A query waits this long for the search thread; building an index, longer. */
const QUERY_MS = 10_000;
const INDEX_MS = 120_000;
/**
 * The estimated index size searched at once: half of what the search thread keeps
 * (search-thread.ts), so that a part's indexes stay while it is searched, with room for others.
 */
const PART_BYTES = 32 * 1024 * 1024;
/** An index is about five times the size of its Markdown (docs/search.md). */
const INDEX_PER_CHAR = 5;
const estimates = new WeakMap<Revision, number>();

/** The estimated size of a revision's index, by its Markdown (kept: revisions never change). */
function indexEstimate(revision: Revision): number {
  let bytes = estimates.get(revision);
  if (bytes === undefined) {
    bytes = 0;
    const visit = (pages: Tree) => {
      for (const page of pages) {
        bytes = (bytes as number) + (page.markdown?.length ?? 0) * INDEX_PER_CHAR;
        visit(page.pages);
      }
    };
    visit(revision.pages);
    estimates.set(revision, bytes);
  }
  return bytes;
}

/**
 * Full-text search of a site's published content (docs/search.md): `searchSiteContent` for API
 * clients and GitBook's renderer, and the search box of Livery's own published site. The indexes
 * and the ranking live on the search thread (search-thread.ts); this side says which spaces,
 * sends a space's pages when the thread has no index of them, and shapes the answer.
 */
export class SearchService {
  /** Indexes being sent to the search thread, by key: concurrent queries wait for one. */
  private readonly sending = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      sites: SitesService;
      content: ContentService;
      variantsOf: (siteId: string) => Promise<readonly PublishedVariant[]>;
      urls: Urls;
      workers: Workers;
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
    const { count, hits } = await this.search(variants, body.query, offset, limit);
    const results: SearchResults = { items: this.grouped(hits, offset), count };
    if (offset + limit < count) results.next = { page: encodeOffset(offset + limit) };
    return results;
  }

  /**
   * The pages of `spaces` matching `text`, ranked across them (a space given twice, as by two
   * variants, is searched once), `limit` of them from `offset`, and how many there are. Spaces
   * whose indexes would not fit in the search thread's memory together are searched in parts
   * (merge.ts), one part after the other, with the same ranking.
   */
  async search<S extends SearchedSpace>(
    spaces: readonly S[],
    text: string,
    offset = 0,
    limit = DEFAULT_RESULTS,
  ): Promise<{ count: number; hits: SpaceHit<S>[] }> {
    if (parseQuery(text).terms.length === 0) return { count: 0, hits: [] };
    const searched: S[] = [];
    for (const space of spaces) {
      if (!searched.some((s) => s.spaceId === space.spaceId)) searched.push(space);
    }
    const revisions = await Promise.all(
      searched.map((s) => this.deps.content.revisionFor(s.spaceId, { kind: 'space' })),
    );
    const parts = partsOf(revisions.map(indexEstimate), PART_BYTES);
    let found: { count: number; pages: FoundPage[] };
    if (parts.length === 1) found = await this.find(revisions, text, offset, limit);
    else {
      const answers = [];
      for (const { first, end } of parts) {
        const part = await this.find(revisions.slice(first, end), text, 0, offset + limit);
        answers.push({ first, ...part });
      }
      found = mergeParts(answers, offset, limit);
    }
    const hits = found.pages.map((page) => ({ variant: searched[page.space] as S, page }));
    return { count: found.count, hits };
  }

  /** One search thread query over `revisions`, sending the indexes it lacks. */
  private async find(
    revisions: readonly Revision[],
    text: string,
    offset: number,
    limit: number,
  ): Promise<{ count: number; pages: FoundPage[] }> {
    const keys = revisions.map((revision) => `${revision.spaceId}\u0000${revision.id}`);
    // A thread that restarted between sending and asking lacks the index again: send it again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await this.deps.workers.search.run(
        'find',
        { keys, text, offset, limit },
        QUERY_MS,
      );
      if ('pages' in answer) return answer;
      await Promise.all(
        answer.missing.map((key) => {
          const revision = revisions[keys.indexOf(key)];
          return revision === undefined ? undefined : this.send(key, readablePages(revision.pages));
        }),
      );
    }
    throw new AppError(503, 'The search is restarting; please try again in a few seconds', {
      'retry-after': '5',
    });
  }

  /** A space's pages to the search thread, in batches (one send per key at a time). */
  private send(key: string, pages: IndexInput[]): Promise<void> {
    let sending = this.sending.get(key);
    if (sending === undefined) {
      sending = this.sendBatches(key, pages).finally(() => this.sending.delete(key));
      this.sending.set(key, sending);
    }
    return sending;
  }

  private async sendBatches(key: string, pages: IndexInput[]): Promise<void> {
    const batches: IndexInput[][] = [[]];
    let size = 0;
    for (const page of pages) {
      if (size > BATCH_CHARS) {
        batches.push([]);
        size = 0;
      }
      (batches.at(-1) as IndexInput[]).push(page);
      size += page.markdown.length;
    }
    for (const [batch, batchPages] of batches.entries()) {
      const input = { key, batch, batches: batches.length, pages: batchPages };
      // False: the thread restarted meanwhile; the next query finds the index missing again.
      if (!(await this.deps.workers.search.run('addPages', input, INDEX_MS))) return;
    }
  }

  /** One page of results as GitBook's list: grouped by space in rank order, ranks kept. */
  grouped(hits: readonly SpaceHit<SearchedSpace>[], offset: number): SearchSpaceResult[] {
    const spaces = new Map<string, SearchSpaceResult>();
    hits.forEach(({ variant, page }, i) => {
      let space = spaces.get(variant.spaceId);
      if (space === undefined) {
        space = {
          type: 'space',
          id: variant.spaceId,
          title: variant.spaceTitle,
          score: page.score,
          pages: [],
        };
        spaces.set(variant.spaceId, space);
      }
      space.pages.push(this.pageResult(variant.spaceId, page, offset + i + 1));
    });
    return [...spaces.values()];
  }

  pageResult(spaceId: string, page: FoundPage, rank: number): SearchPageResult {
    const app = `${this.deps.urls.space(spaceId)}/content/page/${page.id}`;
    return {
      id: page.id,
      title: page.title,
      description: page.description,
      path: page.path,
      score: page.score,
      rank,
      resultType: page.onPageFields ? 'page' : 'section',
      sections: page.sections.map(({ anchor, title, score, body }) => {
        const hash = anchor === '' ? '' : `#${anchor}`;
        return {
          id: anchor === '' ? page.id : anchor,
          title,
          path: `${page.path}${hash}`,
          score,
          resultType: score > 0 ? 'section' : 'page',
          body,
          urls: { app: `${app}${hash}` },
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
