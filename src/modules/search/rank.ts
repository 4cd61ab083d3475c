import type { Section } from './sections.js';
import type { Field, IndexedPage, SpaceIndex } from './space-index.js';
import { wordsMatching } from './space-index.js';
import { firstMatch, type Query } from './text.js';

/**
 * Ranking (docs/search.md). A page matches when every term of the query occurs in it (title,
 * description, headings or text; the last term as a prefix while the reader types). Pages are
 * ordered by how many terms they have in their title, then in a heading or the description,
 * then by term frequency, then in reading order. Weights are powers apart wider than the
 * number of terms (at most 16), so one title match outranks any number of heading matches.
 */
const TITLE = 10_000;
const HEADING = 100;
const MAX_FREQUENCY_BONUS = 99;
/** Sections given with each page: the best ones first. */
export const MAX_SECTIONS = 3;
/** The length of a section's excerpt around its first match. */
export const EXCERPT_CHARS = 160;

export interface SectionHit {
  section: Section;
  score: number;
  /** The section's text around its first match. */
  body: string;
}

export interface PageHit {
  page: IndexedPage;
  /** Position of the page in the space's reading order, the last tie-break. */
  order: number;
  score: number;
  /** Every term is in the page's own fields (title, description). */
  onPageFields: boolean;
  /** Where each term occurs in the page, for its sections (sectionsOf). */
  terms: TermInPage[];
}

export interface TermInPage {
  best: Field;
  frequency: number;
  /** Per section: occurrences in its heading and in its text. */
  sections: Map<number, { heading: number; body: number }>;
}

const RANK: Readonly<Record<Field, number>> = { title: 3, heading: 2, description: 2, body: 1 };

export function searchIndex(index: SpaceIndex, query: Query): PageHit[] {
  if (query.terms.length === 0) return [];
  let matched: Map<number, TermInPage[]> | undefined;
  for (const [t, term] of query.terms.entries()) {
    const prefix = query.prefixLast && t === query.terms.length - 1;
    const found = new Map<number, TermInPage>();
    for (const word of wordsMatching(index, term, prefix)) {
      for (const posting of index.postings.get(word) ?? []) {
        if (matched !== undefined && !matched.has(posting.page)) continue;
        let stats = found.get(posting.page);
        if (stats === undefined) {
          stats = { best: posting.field, frequency: 0, sections: new Map() };
          found.set(posting.page, stats);
        }
        if (RANK[posting.field] > RANK[stats.best]) stats.best = posting.field;
        stats.frequency += posting.count;
        if (posting.section >= 0) {
          const counts = stats.sections.get(posting.section) ?? { heading: 0, body: 0 };
          if (posting.field === 'heading') counts.heading += posting.count;
          else counts.body += posting.count;
          stats.sections.set(posting.section, counts);
        }
      }
    }
    const next = new Map<number, TermInPage[]>();
    for (const [page, stats] of found) next.set(page, [...(matched?.get(page) ?? []), stats]);
    matched = next; // pages missing a term drop out here: all terms must match
  }
  const hits: PageHit[] = [];
  for (const [order, terms] of matched ?? []) {
    const page = index.pages[order] as IndexedPage;
    hits.push({
      page,
      order,
      score: pageScore(terms),
      onPageFields: terms.every((t) => t.best === 'title' || t.best === 'description'),
      terms,
    });
  }
  return hits.sort(byRank);
}

export const byRank = (a: PageHit, b: PageHit) => b.score - a.score || a.order - b.order;

function pageScore(terms: TermInPage[]): number {
  let score = 1;
  let frequency = 0;
  for (const term of terms) {
    if (term.best === 'title') score += TITLE;
    else if (term.best === 'heading' || term.best === 'description') score += HEADING;
    frequency += Math.log2(1 + term.frequency);
  }
  return score + Math.min(MAX_FREQUENCY_BONUS, frequency);
}

/**
 * The sections of a page found that hold a term, best first (terms in the heading, then
 * frequency, then order); a page that matched on its title alone shows its first section with
 * text, as a preview. Computed only for the results shown: excerpts cost more than ranking.
 */
export function sectionHits({ page, terms }: PageHit, query: Query): SectionHit[] {
  const scores = new Map<number, number>();
  for (const term of terms) {
    for (const [s, counts] of term.sections) {
      const gained = (counts.heading > 0 ? HEADING : 0) + Math.log2(1 + counts.body);
      scores.set(s, (scores.get(s) ?? 1) + gained);
    }
  }
  let ranked = [...scores].sort(([a, x], [b, y]) => y - x || a - b).slice(0, MAX_SECTIONS);
  if (ranked.length === 0) {
    const first = page.sections.findIndex((section) => section.text !== '');
    if (first !== -1) ranked = [[first, 0]];
  }
  return ranked.map(([s, score]) => {
    const section = page.sections[s] as Section;
    return { section, score, body: excerpt(section.text, query) };
  });
}

/**
 * About EXCERPT_CHARS of `text` around the first term found in it, cut at word boundaries, with
 * `…` where it was cut; the start of the text when no term is in it.
 */
export function excerpt(text: string, query: Query): string {
  if (text.length <= EXCERPT_CHARS) return text;
  const matchAt = Math.max(0, firstMatch(text, query));
  let start = Math.max(0, matchAt - Math.floor(EXCERPT_CHARS / 4));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space === -1 || space > matchAt ? start : space + 1;
  }
  let end = Math.min(text.length, start + EXCERPT_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > matchAt) end = space;
  }
  const cut = text.slice(start, end).trim();
  return `${start > 0 ? '…' : ''}${cut}${end < text.length ? '…' : ''}`;
}
