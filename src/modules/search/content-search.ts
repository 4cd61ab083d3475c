import { badRequest } from '../../errors.js';
import type { SpacesService } from '../spaces/service.js';
import { decodeOffset, encodeOffset } from './cursor.js';
import type { SearchPageResult, SearchResults } from './schemas.js';
import { DEFAULT_RESULTS, type SearchService } from './service.js';

export interface ContentQuery {
  query: string;
  page?: string | undefined;
  limit?: number | undefined;
}

/**
 * `searchSpaceContent` and `searchOrganizationContent` (docs/search.md, "Searching a space or an
 * organization"): the site search's index and ranking over a space's, or every space of an
 * organization's, **current revision**, published or not: what a member reads in the space (the
 * access hook has checked the caller's role in the space's organization). Hidden pages are left
 * out, as from the site search: it is the same index.
 */
export class ContentSearchService {
  constructor(
    private readonly search: SearchService,
    private readonly spaces: Pick<SpacesService, 'allInOrganization'>,
  ) {}

  /** The space's pages found, one ranked list (GitBook's `SearchPageResult` items). */
  async searchSpace(
    spaceId: string,
    input: ContentQuery,
  ): Promise<{ items: SearchPageResult[]; next?: { page: string }; count: number }> {
    const { text, offset, limit } = parse(input);
    const space = { spaceId, spaceTitle: '' };
    const { count, hits } = await this.search.search([space], text, offset, limit);
    const items = hits.map(({ page }, i) => this.search.pageResult(spaceId, page, offset + i + 1));
    return withNext({ items, count }, offset, limit);
  }

  /** The organization's pages found, grouped by space in rank order (`SearchSpaceResult`). */
  async searchOrganization(organizationId: string, input: ContentQuery): Promise<SearchResults> {
    const { text, offset, limit } = parse(input);
    const spaces = (await this.spaces.allInOrganization(organizationId)).map(({ id, title }) => ({
      spaceId: id,
      spaceTitle: title,
    }));
    const { count, hits } = await this.search.search(spaces, text, offset, limit);
    return withNext({ items: this.search.grouped(hits, offset), count }, offset, limit);
  }
}

function parse(input: ContentQuery): { text: string; offset: number; limit: number } {
  if (input.query.trim() === '') throw badRequest('querystring.query: must not be empty');
  return {
    text: input.query,
    offset: decodeOffset(input.page),
    limit: input.limit ?? DEFAULT_RESULTS,
  };
}

function withNext<T extends { count: number; next?: { page: string } }>(
  list: T,
  offset: number,
  limit: number,
): T {
  if (offset + limit < list.count) list.next = { page: encodeOffset(offset + limit) };
  return list;
}
