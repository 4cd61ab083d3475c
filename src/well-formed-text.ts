/**
 * Text Livery accepts, stores and renders: well-formed Unicode without the NUL character.
 *
 * - NUL (U+0000): PostgreSQL cannot store it in a text value, nor even compare text with one.
 * - A lone surrogate (U+D800 to U+DFFF outside a pair): not Unicode at all. JSON carries one as
 *   the escape `\ud800`; PostgreSQL's driver would store U+FFFD in its place (and SQLite's the
 *   escape, through JSON documents), and `encodeURIComponent` throws on it.
 *
 * The HTTP layer refuses both wherever a client's text comes in (http/text-guard.ts); rendering
 * leaves out what was stored before that (settings/renderable.ts).
 */
export type TextProblem = 'nul' | 'lone-surrogate';

export function textProblem(text: string): TextProblem | undefined {
  if (text.includes('\u0000')) return 'nul';
  if (!text.isWellFormed()) return 'lone-surrogate';
  return undefined;
}

export const isWellFormedText = (text: string) => textProblem(text) === undefined;

/** `${where} must not contain …`, in the words of the validation messages (validation-errors.ts). */
export function textProblemMessage(where: string, problem: TextProblem): string {
  return problem === 'nul'
    ? `${where} must not contain the NUL character (U+0000)`
    : `${where} must not contain a lone surrogate (U+D800 to U+DFFF without its pair)`;
}

/**
 * `encodeURIComponent` that never throws: a lone surrogate (which it throws on) is encoded as
 * U+FFFD. For addresses made of stored text, where one bad character must not break a page.
 */
export const encodeSegment = (text: string) => encodeURIComponent(text.toWellFormed());
