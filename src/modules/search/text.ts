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
 * A text folded with, for each character of the folded form, the index of the character it
 * came from in the original: a match found in the folded text maps back to the original.
 */
export function foldWithOffsets(text: string): { folded: string; origin: number[] | undefined } {
  // ASCII folds character for character: the offsets are the identity (`origin` undefined).
  if (ASCII.test(text)) return { folded: text.toLowerCase(), origin: undefined };
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const f = foldChar(char);
    folded += f;
    for (let i = 0; i < f.length; i++) origin.push(index);
    index += char.length;
  }
  return { folded, origin };
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
