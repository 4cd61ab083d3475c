import { createRequire } from 'node:module';
import type Katex from 'katex';
import type MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { html, katexMath, type SafeHtml } from '../../../html/safe-html.js';
import type { Block, Inline, InlineMath } from '../model.js';

/**
 * GitBook's TeX: `$$f(x)$$` within text is an `inline-math`; alone in its paragraph, a `math`
 * block. The published site typesets both on the server with KaTeX (its stylesheet and fonts
 * are the site's own files: published/assets/assets.ts), so that a formula reads without script.
 */
export const inlineMath = (formula: string): InlineMath => ({
  object: 'inline',
  type: 'inline-math',
  isVoid: true,
  data: { formula },
});

export const mathBlock = (formula: string): Block => ({
  object: 'block',
  type: 'math',
  data: { formula },
  isVoid: true,
});

/** A paragraph of nothing but one formula (and spaces) as a `math` block, else undefined. */
export function mathBlockOf(nodes: readonly Inline[]): Block | undefined {
  let formula: string | undefined;
  for (const node of nodes) {
    if (node.object === 'text' && node.leaves.every((leaf) => leaf.text.trim() === '')) continue;
    if (node.object !== 'inline' || node.type !== 'inline-math' || formula !== undefined) {
      return undefined;
    }
    formula = node.data.formula;
  }
  return formula === undefined ? undefined : mathBlock(formula);
}

/** A paragraph of a formula where a container cannot hold a `math` block. */
export const mathParagraphNodes = (node: Block): Inline[] => [
  inlineMath(String(node.data.formula ?? '')),
];

const DOLLAR = 0x24;
/** Where, in an inline's source, no `$$` follows: a page of unclosed `$$` stays linear. */
const noClosing = new WeakMap<StateInline, number>();

function mathInline(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const src = state.src;
  if (src.charCodeAt(start) !== DOLLAR || src.charCodeAt(start + 1) !== DOLLAR) return false;
  const none = noClosing.get(state);
  if (none !== undefined && start >= none) return false;
  const end = src.indexOf('$$', start + 2);
  if (end === -1) {
    noClosing.set(state, start);
    return false;
  }
  if (end + 2 > state.posMax) return false;
  const formula = src.slice(start + 2, end).trim();
  if (formula === '') return false;
  if (!silent) state.push('math_inline', 'math', 0).content = formula;
  state.pos = end + 2;
  return true;
}

export function mathSyntax(md: MarkdownIt): void {
  md.inline.ruler.after('escape', 'math_inline', mathInline);
}

/**
 * KaTeX, loaded at the first formula: most pages have none, and every worker thread loads this
 * module (a worker with a small heap has no room for KaTeX it does not use).
 */
let katex: typeof Katex | undefined;
function katexModule(): typeof Katex {
  katex ??= createRequire(import.meta.url)('katex') as typeof Katex;
  return katex;
}

/**
 * A formula typeset by KaTeX, as markup (html/safe-html.ts `katexMath`): `trust` off (no
 * `\href`, `\url`, `\html…`), bounded sizes and macro expansion, errors shown as the source.
 */
export function mathHtml(formula: string, display: boolean): SafeHtml {
  const markup = katexModule().renderToString(formula, {
    displayMode: display,
    output: 'htmlAndMathml',
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    maxSize: 50,
    maxExpand: 1000,
  });
  return display
    ? html`<div class="math">${katexMath(markup)}</div>\n`
    : html`<span class="math-inline">${katexMath(markup)}</span>`;
}

/** Block and inline formulas alike: GitBook reads `$$…$$` alone in a paragraph as the block. */
export const mathMarkdown = (formula: string): string => `$$${formula}$$`;

/**
 * A formula block as GitBook writes it, on three lines: `$$`, the formula, `$$`. A formula with a
 * line that would end the paragraph or start another block (a blank line, `- `, `# `, `===`…) is
 * written on one line, where the paragraph keeps it.
 */
export function mathBlockMarkdown(formula: string): string {
  const safe = formula.split('\n').every((line) => !BLOCK_START.test(line));
  return safe ? `$$\n${formula}\n$$` : mathMarkdown(formula);
}

/** A line that is blank, or could start a block or a setext underline within a paragraph. */
const BLOCK_START = /^\s*$|^ {0,3}(?:[-+*#>=_|`~<]|\d{1,9}[.)]|\{%)/;
