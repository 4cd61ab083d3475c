import { parseHex, toHex } from './colors.js';

/**
 * The one way a value from settings reaches CSS (the theme stylesheet, linked or inline in a
 * preview): texts as CSS strings, colors rewritten from their parsed channels, numbers as
 * integers. Nothing from settings is written into CSS as it was typed, so no value can end a
 * declaration, a rule or the stylesheet (test/browser/published-hostile-strings.test.ts tries).
 * Keywords (corners, link style) come from fixed tables keyed by the schema's enumerations.
 */

/**
 * A CSS string literal that means exactly `text`: every character other than letters, digits
 * and plain URL punctuation is written as a hexadecimal escape (`"` is `\22 `, `\` is `\5c `,
 * `<` is `\3c `, a newline `\a `), so the text can neither end the string nor the stylesheet, nor
 * spell `</style>` when the CSS is inline in a page. Font family names and font URLs.
 */
export function cssString(text: string): string {
  const escaped = text.replace(
    /[^A-Za-z0-9 _\-.,:/?&=%+~!$'()*;@#[\]]/gu,
    (char) => `\\${(char.codePointAt(0) ?? 0).toString(16)} `,
  );
  return `"${escaped}"`;
}

/** A color as `#rrggbb`, written from its parsed channels (parseHex refuses anything else). */
export const cssColor = (color: string): string => toHex(parseHex(color));

/** An integer (a font weight); anything else is refused. */
export function cssInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer for CSS: ${value}`);
  return String(value);
}
