import type { Tree } from '../content/tree.js';
import { type Section, sectionsOf } from './sections.js';
import { tokenize } from './text.js';

/**
 * The search index of one revision of a space: its readable pages (documents not hidden, nor
 * below a hidden page), cut into sections, and an inverted index from each word to where it
 * occurs. Built once per revision (revisions never change) on the search thread and kept there
 * (search-thread.ts).
 */

export interface IndexedPage {
  id: string;
  title: string;
  description: string;
  path: string;
  /** Titles of the pages above, top-level first. */
  ancestors: string[];
  sections: Section[];
}

/** Where a word occurs: the page's own fields, or one section's heading or text. */
export type Field = 'title' | 'description' | 'heading' | 'body';

export interface Posting {
  page: number;
  /** The section, for a heading or body; -1 for the page's fields. */
  section: number;
  field: Field;
  count: number;
}

export interface SpaceIndex {
  pages: IndexedPage[];
  /** Every word of the space, sorted, for prefix look-ups. */
  words: string[];
  postings: Map<string, Posting[]>;
  /** An estimate of its size in memory, for the cache's bound. */
  bytes: number;
}

/** A page to index: what the index keeps of it, and its body. */
export interface IndexInput {
  id: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
  markdown: string;
}

/**
 * The pages of a revision a reader can reach, in reading order: documents not hidden nor below a
 * hidden page. Made on the request thread (a walk of the tree), indexed on the search thread.
 */
export function readablePages(tree: Tree): IndexInput[] {
  const pages: IndexInput[] = [];
  const visit = (level: Tree, parentPath: string, ancestors: string[]) => {
    for (const page of level) {
      if (page.hidden === true || page.type === 'link') continue;
      const path = page.slug === undefined ? parentPath : join(parentPath, page.slug);
      if (page.type === 'document') {
        pages.push({
          id: page.id,
          title: page.title,
          description: page.description ?? '',
          path,
          ancestors,
          markdown: page.markdown ?? '',
        });
      }
      visit(page.pages, path, [...ancestors, page.title]);
    }
  };
  visit(tree, '', []);
  return pages;
}

export function buildIndex(input: readonly IndexInput[]): SpaceIndex {
  const pages: IndexedPage[] = input.map(({ markdown, ...page }) => ({
    ...page,
    sections: sectionsOf(markdown, page.title),
  }));

  const postings = new Map<string, Posting[]>();
  let bytes = 0;
  const add = (text: string, page: number, section: number, field: Field) => {
    bytes += text.length * 4;
    const counts = new Map<string, number>();
    for (const word of tokenize(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, count] of counts) {
      let list = postings.get(word);
      if (list === undefined) {
        list = [];
        postings.set(word, list);
      }
      list.push({ page, section, field, count });
      bytes += 32;
    }
  };
  pages.forEach((page, p) => {
    add(page.title, p, -1, 'title');
    add(page.description, p, -1, 'description');
    page.sections.forEach((section, s) => {
      add(section.title, p, s, 'heading');
      add(section.text, p, s, 'body');
    });
  });
  const words = [...postings.keys()].sort();
  for (const word of words) bytes += word.length * 2 + 48;
  return { pages, words, postings, bytes };
}

const join = (parent: string, slug: string) => (parent === '' ? slug : `${parent}/${slug}`);

/** The words of the index that `term` matches: itself, or every word it begins when `prefix`. */
export function wordsMatching(index: SpaceIndex, term: string, prefix: boolean): string[] {
  if (!prefix) return index.postings.has(term) ? [term] : [];
  const { words } = index;
  let low = 0;
  let high = words.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((words[mid] as string) < term) low = mid + 1;
    else high = mid;
  }
  const found: string[] = [];
  for (let i = low; i < words.length && (words[i] as string).startsWith(term); i++) {
    found.push(words[i] as string);
  }
  return found;
}
