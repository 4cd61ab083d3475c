import type { FoundPage } from './search-thread.js';

/**
 * Searching many spaces in parts (service.ts): the search thread keeps its indexes within a
 * memory bound (search-thread.ts), so the spaces of a query whose indexes would not fit together
 * (a large organization) are searched a part at a time, each part's best pages merged here into
 * the one ranking a single search would have given (docs/search.md, "Where it runs").
 */

/** Consecutive runs of `sizes` whose sum stays within `budget` (an item over it is alone). */
export function partsOf(
  sizes: readonly number[],
  budget: number,
): { first: number; end: number }[] {
  const parts: { first: number; end: number }[] = [];
  let first = 0;
  let sum = 0;
  sizes.forEach((size, i) => {
    if (i > first && sum + size > budget) {
      parts.push({ first, end: i });
      first = i;
      sum = 0;
    }
    sum += size;
  });
  if (sizes.length > first) parts.push({ first, end: sizes.length });
  return parts;
}

/** The ranking's order (rank.ts byRank, then the spaces' order), over every part. */
const byRank = (a: FoundPage, b: FoundPage) =>
  b.score - a.score || a.order - b.order || a.space - b.space;

/**
 * Each part's answer (its first `offset + limit` pages, numbered within the part) merged: the
 * pages `offset` to `offset + limit` of the whole ranking, numbered across parts, and the count.
 */
export function mergeParts(
  answers: readonly { first: number; count: number; pages: readonly FoundPage[] }[],
  offset: number,
  limit: number,
): { count: number; pages: FoundPage[] } {
  let count = 0;
  const pages: FoundPage[] = [];
  for (const answer of answers) {
    count += answer.count;
    for (const page of answer.pages) pages.push({ ...page, space: answer.first + page.space });
  }
  return { count, pages: pages.sort(byRank).slice(offset, offset + limit) };
}
