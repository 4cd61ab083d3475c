import type { ThemeRegistration } from 'shiki/core';
import type { CodeTheme } from '../../../settings/vocabulary.js';

/**
 * The code themes of `styling.codeTheme`. Shiki ships every name but GitBook's own four
 * (`default-light`, `default-dark`, `monochrome-light`, `monochrome-dark`): Livery draws those
 * from the site's own color scales (theme/css.ts custom properties), so they match the site's
 * primary, tint and semantic colors, and follow the page's light or dark theme by themselves
 * (the `-light` and `-dark` names of one family are therefore the same theme here).
 * docs/published-site.md, "Code blocks".
 */

export const LIVERY_DEFAULT = 'livery-default';
export const LIVERY_MONOCHROME = 'livery-monochrome';

/** The Shiki theme that shows a `codeTheme` value. */
export function shikiThemeName(theme: CodeTheme): string {
  if (theme === 'default-light' || theme === 'default-dark') return LIVERY_DEFAULT;
  if (theme === 'monochrome-light' || theme === 'monochrome-dark') return LIVERY_MONOCHROME;
  return theme;
}

type Role =
  | 'comment'
  | 'keyword'
  | 'string'
  | 'constant'
  | 'function'
  | 'type'
  | 'tag'
  | 'attribute'
  | 'variable'
  | 'punctuation'
  | 'inserted'
  | 'deleted'
  | 'heading';

/** TextMate scopes of each role; a more specific scope wins over a shorter one, as in editors. */
const SCOPES: Readonly<Record<Role, string[]>> = {
  comment: ['comment', 'punctuation.definition.comment'],
  keyword: ['keyword', 'storage', 'keyword.control', 'variable.language'],
  string: ['string', 'string.regexp', 'constant.character.escape', 'markup.inline.raw'],
  constant: ['constant', 'constant.numeric', 'constant.language', 'support.constant'],
  function: ['entity.name.function', 'support.function', 'meta.function-call.generic'],
  type: ['entity.name.type', 'entity.name.class', 'support.type', 'support.class'],
  tag: ['entity.name.tag', 'meta.tag.sgml'],
  attribute: [
    'entity.other.attribute-name',
    'support.type.property-name',
    'meta.object-literal.key',
  ],
  variable: ['variable', 'variable.parameter', 'variable.other'],
  punctuation: ['punctuation', 'keyword.operator', 'meta.brace'],
  inserted: ['markup.inserted'],
  deleted: ['markup.deleted'],
  heading: ['markup.heading', 'entity.name.section'],
};

interface Style {
  foreground: string;
  fontStyle?: 'italic' | 'bold';
}

function theme(name: string, styles: Record<Role, Style>): ThemeRegistration {
  return {
    name,
    // Either type would do: the colors are custom properties that each page theme sets.
    type: 'light',
    colors: { 'editor.background': 'var(--tint-2)', 'editor.foreground': 'var(--tint-12)' },
    tokenColors: (Object.keys(SCOPES) as Role[]).map((role) => ({
      scope: SCOPES[role],
      settings: styles[role],
    })),
  };
}

const step = (scale: string, n: number) => `var(--${scale}-${n})`;

/** Colors from the site's scales, step 11 (text that reads on the step-2 background). */
export const LIVERY_THEMES: readonly ThemeRegistration[] = [
  theme(LIVERY_DEFAULT, {
    comment: { foreground: step('tint', 11), fontStyle: 'italic' },
    keyword: { foreground: step('danger', 11) },
    string: { foreground: step('success', 11) },
    constant: { foreground: step('warning', 11) },
    function: { foreground: step('primary', 11) },
    type: { foreground: step('primary', 11) },
    tag: { foreground: step('primary', 11) },
    attribute: { foreground: step('warning', 11) },
    variable: { foreground: step('tint', 12) },
    punctuation: { foreground: step('tint', 11) },
    inserted: { foreground: step('success', 11) },
    deleted: { foreground: step('danger', 11) },
    heading: { foreground: step('primary', 11), fontStyle: 'bold' },
  }),
  theme(LIVERY_MONOCHROME, {
    comment: { foreground: step('tint', 10), fontStyle: 'italic' },
    keyword: { foreground: step('tint', 12), fontStyle: 'bold' },
    string: { foreground: step('tint', 11) },
    constant: { foreground: step('tint', 12) },
    function: { foreground: step('tint', 12) },
    type: { foreground: step('tint', 12) },
    tag: { foreground: step('tint', 12), fontStyle: 'bold' },
    attribute: { foreground: step('tint', 11) },
    variable: { foreground: step('tint', 12) },
    punctuation: { foreground: step('tint', 11) },
    inserted: { foreground: step('tint', 12) },
    deleted: { foreground: step('tint', 10) },
    heading: { foreground: step('tint', 12), fontStyle: 'bold' },
  }),
];
