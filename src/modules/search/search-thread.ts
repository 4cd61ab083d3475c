import { BoundedCache } from '../../bounded-cache.js';
import { byRank, type PageHit, searchIndex, sectionHits } from './rank.js';
import { buildIndex, type IndexInput, type SpaceIndex } from './space-index.js';
import { parseQuery } from './text.js';

/**
 * The search, on its worker thread (workers/search-tasks.ts): the indexes of the spaces searched
 * lately, kept here (by space and revision: a revision never changes, so an index never goes
 * stale), the ranking across spaces, and the excerpts of the results shown. The request thread
 * sends a query and gets back only the results; a space whose index this thread lacks is
 * reported missing, and the request thread sends its pages (`addPages`, in batches) before
 * asking again.
 */

/** Indexes kept, by their estimated size. */
const INDEX_BYTES = 64 * 1024 * 1024;
const indexes = new BoundedCache<SpaceIndex>(INDEX_BYTES);
/** Batches of an index being sent, by its key. */
const arriving = new Map<string, IndexInput[][]>();

export interface PagesBatch {
  /** The index's key: space and revision. */
  key: string;
  /** This batch's number, from 0, and how many there are. */
  batch: number;
  batches: number;
  pages: IndexInput[];
}

/** One batch of a space's pages; the last one builds the index. False: batches went missing
 * (this thread restarted meanwhile), send them all again. */
export function addPages({ key, batch, batches, pages }: PagesBatch): boolean {
  const received = batch === 0 ? [] : arriving.get(key);
  if (received === undefined || received.length !== batch) {
    arriving.delete(key);
    return false;
  }
  received.push(pages);
  if (received.length < batches) {
    arriving.set(key, received);
    return true;
  }
  arriving.delete(key);
  const index = buildIndex(received.flat());
  indexes.set(key, index, index.bytes);
  return true;
}

export interface FindInput {
  /** The indexes to search, in the order their variants are shown (the last tie-break). */
  keys: string[];
  text: string;
  offset: number;
  limit: number;
}

export interface FoundSection {
  anchor: string;
  title: string;
  score: number;
  body: string;
}

export interface FoundPage {
  /** Which of `keys` it was found in. */
  space: number;
  /** Its position in its space's reading order: the ranking's tie-break (merge.ts). */
  order: number;
  id: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
  score: number;
  /** Every term is in the page's own fields (title, description). */
  onPageFields: boolean;
  sections: FoundSection[];
}

export type FindAnswer = { missing: string[] } | { count: number; pages: FoundPage[] };

/** The pages matching `text` in every index, ranked; sections and excerpts for those shown. */
export function find({ keys, text, offset, limit }: FindInput): FindAnswer {
  const missing = keys.filter((key) => indexes.get(key) === undefined);
  if (missing.length > 0) return { missing };
  const query = parseQuery(text);
  if (query.terms.length === 0) return { count: 0, pages: [] };
  const found: { hit: PageHit; space: number }[] = [];
  keys.forEach((key, space) => {
    for (const hit of searchIndex(indexes.get(key) as SpaceIndex, query))
      found.push({ hit, space });
  });
  found.sort((a, b) => byRank(a.hit, b.hit) || a.space - b.space);
  const pages = found.slice(offset, offset + limit).map(({ hit, space }): FoundPage => {
    const { id, title, description, path, ancestors } = hit.page;
    const sections = sectionHits(hit, query).map(({ section, score, body }) => ({
      anchor: section.anchor,
      title: section.title,
      score,
      body,
    }));
    return {
      space,
      order: hit.order,
      id,
      title,
      description,
      path,
      ancestors,
      score: hit.score,
      onPageFields: hit.onPageFields,
      sections,
    };
  });
  return { count: found.length, pages };
}
