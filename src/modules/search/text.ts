/**
 * How search compares words (docs/search.md): case- and accent-insensitive, so `uber`, `Über`
 * and `ÜBER` are one word. Text is folded per character (compatibility decomposition, marks
 * dropped, lower-cased, a few letters with no decomposition spelled out), then cut into tokens:
 * runs of letters and digits.
 */

/** Letters NFKD does not decompose, spelled the way a reader without them types them. */
const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
  // Lower-casing a whole text makes a final sigma ς, one character at a time σ: one word.
  ς: 'σ',
};
const SPELLED_CHARS = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'gu');

const MARK = /\p{M}/gu;
const ASCII = /^\p{ASCII}*$/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const TOKEN = /[\p{L}\p{N}]+/gu;

/** The folded form of one character (a code point): '' for a mark, maybe several letters. */
export function foldChar(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 128) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : char;
  const folded = char.normalize('NFKD').replace(MARK, '').toLowerCase();
  let out = '';
  for (const c of folded) out += SPELLED[c] ?? c;
  return out;
}

/** The folded form of a text: as foldChar of each character, in one pass for speed. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARK, '')
    .toLowerCase()
    .replace(SPELLED_CHARS, (c) => SPELLED[c] ?? c);
}

/** The words of a text, folded, in order (repeats kept: they are the term frequency). */
export function tokenize(text: string): string[] {
  return fold(text).match(TOKEN) ?? [];
}

export interface Query {
  /** Folded terms, in order, without repeats. */
  terms: string[];
  /**
   * The last term also matches longer words (`inst` finds `install`), as a search box answers
   * while the reader types; not when the query ends with a space (the word is complete).
   */
  prefixLast: boolean;
}

/** Caps the work a query makes: its terms beyond this are ignored. */
export const MAX_TERMS = 16;

export function parseQuery(text: string): Query {
  const terms = [...new Set(tokenize(text))].slice(0, MAX_TERMS);
  const last = [...text].at(-1);
  return { terms, prefixLast: last !== undefined && WORD_CHAR.test(last) };
}

/**
 * Where in `text` the first word a term of `query` matches begins, or -1. The text is folded in
 * one pass to find the match; only then is the match traced back to the original text, chunk by
 * chunk and, in its chunk, character by character. (Folding every character of a long section to
 * keep the offsets of all of them took seconds a query on long non-ASCII pages.) Folding
 * commutes with cutting a text between two code points, so the folded lengths of the chunks
 * add up to the folded text (test/unit/search-logic.test.ts checks it as a property).
 */
export function firstMatch(text: string, query: Query): number {
  const ascii = ASCII.test(text);
  const folded = ascii ? text.toLowerCase() : fold(text);
  let at = -1;
  query.terms.forEach((term, t) => {
    const found = findWord(folded, term, query.prefixLast && t === query.terms.length - 1);
    if (found !== -1 && (at === -1 || found < at)) at = found;
  });
  return at === -1 || ascii ? at : originOf(text, at);
}

/** Original characters folded a chunk at a time when tracing a match back (a few µs a chunk). */
const CHUNK = 2048;

/** The index in `text` of the character whose folded form holds `foldedAt`. */
export function originOf(text: string, foldedAt: number): number {
  let start = 0;
  let foldedStart = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK);
    const code = text.charCodeAt(end);
    if (code >= 0xdc00 && code <= 0xdfff) end++; // never between the halves of a pair
    const chunk = text.slice(start, end);
    const length = fold(chunk).length;
    if (foldedStart + length > foldedAt) {
      let index = start;
      let position = foldedStart;
      for (const char of chunk) {
        position += foldChar(char).length;
        if (position > foldedAt) return index;
        index += char.length;
      }
      return index;
    }
    foldedStart += length;
    start = end;
  }
  return text.length;
}

/** Whether the folded text has `term` at the start of a word (a whole word unless `prefix`). */
export function findWord(folded: string, term: string, prefix: boolean, from = 0): number {
  for (let at = folded.indexOf(term, from); at !== -1; at = folded.indexOf(term, at + 1)) {
    const before = at === 0 ? '' : folded[at - 1];
    const after = folded[at + term.length];
    const starts = before === '' || before === undefined || !WORD_CHAR.test(before);
    const ends = prefix || after === undefined || !WORD_CHAR.test(after);
    if (starts && ends) return at;
  }
  return -1;
}
