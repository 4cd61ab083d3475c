import {
  createHighlighterCore,
  type GrammarState,
  type HighlighterCore,
  type ThemedToken,
} from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import { bundledLanguages } from 'shiki/langs';
import { bundledThemes } from 'shiki/themes';
import { BoundedCache } from '../../../bounded-cache.js';
import { html, joinHtml, type SafeHtml } from '../../../html/safe-html.js';
import type { Settings } from '../../../settings/settings-schema.js';
import { codeBlocks } from '../rendering/markdown.js';
import { LIVERY_THEMES, shikiThemeName } from './code-themes.js';

/**
 * Syntax highlighting of fenced code on the published site, by Shiki (the grammars and themes
 * of VS Code, shipped inside the npm packages: nothing is fetched). Shiki runs on its JavaScript
 * regex engine: no WebAssembly to compile at start, less memory than the Oniguruma build
 * (docs/BENCHMARKS.md has the numbers). Nothing is loaded until a page has code: then the
 * highlighter, and only the grammars and themes that page needs, once per process.
 *
 * A page's blocks are highlighted before it is rendered (`pageHighlighter`), on a worker thread
 * (published/rendering/page-body.ts), within a time budget; rendering (documents/to-html.ts) then takes each
 * block's HTML. A block whose language is unknown shows as plain text in the theme's colors.
 */

export type CodeThemes = Settings['styling']['codeTheme']['default'];

/**
 * Bounds on the work of one page, whose Markdown any member may write. Shiki takes ~7 µs a
 * character on ordinary TypeScript, but up to ~120 µs on hostile lines (long runs of `${` or
 * `(((`), and more than linear time on long lines: longer blocks, and longer lines, are shown
 * as plain text. docs/BENCHMARKS.md has the measurements.
 */
export const MAX_HIGHLIGHTED_CHARS = 20_000;
const MAX_LINE = 400;
/** Once a page's highlighting (loading its grammars too) has taken this long, the rest is plain. */
export const PAGE_BUDGET_MS = 1000;
const PLAIN = 'text';

let highlighter: Promise<HighlighterCore> | undefined;
/** The highlighter once created: `highlight` is synchronous. */
let ready: HighlighterCore | undefined;
/** What has been loaded, or is being loaded, by name. */
const loading = new Map<string, Promise<void>>();

function shiki(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [...LIVERY_THEMES],
    langs: [],
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  }).then(
    (core) => {
      ready = core;
      return core;
    },
    (error: unknown) => {
      highlighter = undefined; // the next page tries again
      throw error;
    },
  );
  return highlighter;
}

/**
 * The grammar of a fence's info string (` ```ts title="x" `): its first word, lowercased, when
 * Shiki has a grammar by that name or alias; else plain text. Own keys only: `constructor` or
 * `__proto__` are not languages.
 */
export function languageOf(info: string): string {
  const word = info.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
  return Object.hasOwn(bundledLanguages, word) ? word : PLAIN;
}

/** Loads what highlighting these languages in these themes needs (each thing once). */
export async function prepare(languages: Iterable<string>, themes: CodeThemes): Promise<void> {
  const core = await shiki();
  const jobs: Promise<void>[] = [];
  for (const name of new Set([themes.light, themes.dark].map(shikiThemeName))) {
    if (Object.hasOwn(bundledThemes, name)) {
      jobs.push(once(`theme:${name}`, () => core.loadTheme(bundledThemes[name as never])));
    }
  }
  for (const language of new Set(languages)) {
    if (language === PLAIN || !Object.hasOwn(bundledLanguages, language)) continue;
    jobs.push(
      once(`lang:${language}`, () => core.loadLanguage(bundledLanguages[language as never])),
    );
  }
  await Promise.all(jobs);
}

function once(key: string, load: () => Promise<void>): Promise<void> {
  let job = loading.get(key);
  if (job === undefined) {
    job = load();
    // A failed load is tried again by the next page, not remembered.
    job.catch(() => loading.delete(key));
    loading.set(key, job);
  }
  return job;
}

/** Time a page has spent highlighting: once over its budget, the page's later lines are plain. */
export interface Budget {
  spentMs: number;
}

/** A code block's highlighted HTML, or undefined to render it plain (markdown.ts). */
export type Highlight = (code: string, info: string) => string | undefined;

/**
 * A page's highlighter: loads the grammars and code themes its code blocks need, one language at
 * a time, then highlights its blocks, all within the page's budget (loading a grammar can cost
 * more than highlighting with it: a page with a block in each of 241 languages took seconds to
 * load them all). Once the budget is spent, the languages not loaded yet and the lines not
 * highlighted yet are plain. It runs on a worker thread (published/rendering/page-body.ts), so the time it
 * takes holds no request up. The answer is synchronous: the page's blocks as HTML, for
 * to-html.ts while it renders. Highlighting is decoration: should Shiki fail to load, the page
 * renders with its code plain.
 */
export async function pageHighlighter(
  source: string | undefined | readonly { code: string; info: string }[],
  themes: CodeThemes,
  now: () => number = () => performance.now(),
  budgetMs = PAGE_BUDGET_MS,
): Promise<Highlight> {
  // A page's code blocks (its document's: page-body.ts), or those of a Markdown text.
  const found =
    source === undefined ? [] : typeof source === 'string' ? codeBlocks(source) : source;
  if (found.length === 0) return () => undefined;
  const started = now();
  const loaded = await prepare([], themes).then(
    () => true,
    () => false,
  );
  if (!loaded) return () => undefined;
  for (const language of new Set(found.map((block) => languageOf(block.info)))) {
    if (now() - started >= budgetMs) break;
    await prepare([language], themes).catch(() => {}); // a grammar that fails to load: plain
  }
  const budget: Budget = { spentMs: now() - started };
  const html = new Map<string, string | undefined>();
  for (const { code, info } of found) {
    const key = `${info}\u0000${code}`;
    if (!html.has(key)) html.set(key, highlight(code, info, themes, budget, now, budgetMs));
  }
  return (code, info) => html.get(`${info}\u0000${code}`);
}

/**
 * A code block as highlighted HTML (`<pre class="shiki">`, both themes' colors as custom
 * properties on each token: site.css picks the one of the page's theme), or undefined when the
 * highlighter or a theme is not loaded (`prepare` first). A language not loaded, or a block over
 * the size limit, is plain text in the theme's colors. Synchronous: for one block whose cost is
 * known (tests, benchmarks); pages go through `pageHighlighter`.
 */
export function highlight(
  code: string,
  info: string,
  themes: CodeThemes,
  budget: Budget = { spentMs: 0 },
  now: () => number = () => performance.now(),
  budgetMs = PAGE_BUDGET_MS,
): string | undefined {
  const core = ready;
  if (core === undefined) return undefined;
  const pair = { light: shikiThemeName(themes.light), dark: shikiThemeName(themes.dark) };
  const loadedThemes = core.getLoadedThemes();
  if (!loadedThemes.includes(pair.light) || !loadedThemes.includes(pair.dark)) return undefined;
  let lang = code.length > MAX_HIGHLIGHTED_CHARS ? PLAIN : languageOf(info);
  if (lang !== PLAIN && !core.getLoadedLanguages().includes(lang)) lang = PLAIN;
  const options = {
    themes: pair,
    defaultColor: false,
    tokenizeMaxLineLength: MAX_LINE,
    // No time limit per line (Shiki's is 500 ms): a line cut short by the clock is colored
    // wrongly to its end, and the first lines of a grammar are slow while its rules compile, so
    // the result would depend on the machine's load, and be cached. The budget bounds it.
    tokenizeTimeLimit: 0,
  } as const;
  // Highlighted blocks are kept: a settings change re-renders every page of a site, and a
  // preview renders each time, but a block's HTML depends only on these (Livery's own themes
  // are custom properties, the same for every site).
  const key = `${pair.light}\u0000${pair.dark}\u0000${lang}\u0000${code}`;
  const kept = blocks.get(key);
  if (kept !== undefined) return kept;
  const root = core.codeToTokens('', { ...options, lang: PLAIN });
  const lines = code.replace(/\n$/, '').split('\n');
  const rows: SafeHtml[] = [];
  let state: GrammarState | undefined;
  let cut = false;
  while (rows.length < lines.length) {
    const start = rows.length;
    cut = lang !== PLAIN && budget.spentMs >= budgetMs;
    if (lang === PLAIN || cut) {
      // One line at a time: a spread of a long block's lines into push() overflows the stack.
      for (let i = start; i < lines.length; i++) {
        const line = lines[i] as string;
        rows.push(line === '' ? NOTHING : html`<span>${line}</span>`);
      }
      break;
    }
    let end = start + 1;
    for (let size = lines[start]?.length ?? 0; end < lines.length; end++) {
      size += (lines[end]?.length ?? 0) + 1;
      if (size > CHUNK_CHARS) break;
    }
    const began = now();
    const chunk = core.codeToTokens(lines.slice(start, end).join('\n'), {
      ...options,
      lang,
      ...(state === undefined ? {} : { grammarState: state }),
    });
    budget.spentMs += now() - began;
    state = chunk.grammarState;
    for (const line of chunk.tokens) rows.push(lineHtml(line));
  }
  const body = joinHtml(
    rows.map((line) => html`<span class="line">${line}</span>`),
    NEWLINE,
  );
  // Kept and carried as text: documents/to-html.ts takes it back as markup (highlightedCode).
  const block =
    html`<pre class="shiki ${root.themeName ?? ''}" style="${String(root.rootStyle ?? '')}" tabindex="0"><code>${body}</code></pre>`
      .html;
  if (!cut) blocks.set(key, block, block.length + code.length);
  return block;
}

/** Highlighted blocks, by themes, language and code (about 15 bytes of HTML a character of code). */
const blocks = new BoundedCache<string>(16 * 1024 * 1024);

/** Lines are tokenized in chunks of about this many characters, the budget checked between. */
const CHUNK_CHARS = 2000;

/** A line's tokens as spans, neighbours of the same style merged (as Shiki's own HTML does). */
const NOTHING = html``;
const NEWLINE = html`\n`;

function lineHtml(tokens: ThemedToken[]): SafeHtml {
  const runs: { style: string; text: string }[] = [];
  for (const token of tokens) {
    const style = Object.entries(token.htmlStyle ?? {})
      .map(([name, value]) => `${name}:${value}`)
      .join(';');
    const last = runs.at(-1);
    if (last !== undefined && last.style === style) last.text += token.content;
    else runs.push({ style, text: token.content });
  }
  return html`${runs.map(({ style, text }) =>
    style === '' ? html`<span>${text}</span>` : html`<span style="${style}">${text}</span>`,
  )}`;
}
