import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import {
  type CodeThemes,
  pageHighlighter,
} from '../src/modules/published/highlighting/code-highlight.js';
import { renderMarkdown } from '../src/modules/published/rendering/markdown.js';
import { CODE_PAGE } from './code-page.js';

/**
 * `npm run bench:code`: what syntax highlighting costs one process (docs/BENCHMARKS.md, "Code
 * highlighting"), in this process: Shiki's start with the first page's grammars and themes, a
 * page of code rendered with and without highlighting, memory, and the worst hostile page.
 * Run with `node --expose-gc` (the script does) for heap figures after collection.
 */
const PAGE = CODE_PAGE;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const memory = () => {
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
};
const time = async (what: string, run: () => unknown, repeat = 1) => {
  const start = performance.now();
  for (let i = 0; i < repeat; i++) await run();
  const ms = (performance.now() - start) / repeat;
  process.stdout.write(`${what}: ${ms.toFixed(2)} ms\n`);
  return ms;
};

let edits = 0;
/** The page, each block changed (a comment line) unless `same`: highlighted blocks are kept. */
async function renderCodePage(themes: CodeThemes, same = false) {
  const page = same ? PAGE : PAGE.replaceAll('\n```\n', `\n// edit ${++edits}\n\`\`\`\n`);
  return renderMarkdown(page, { highlight: await pageHighlighter(page, themes) });
}

async function main() {
  const github: CodeThemes = { light: 'github-light', dark: 'github-dark' };
  const livery: CodeThemes = { light: 'default-light', dark: 'default-dark' };
  process.stdout.write(`page: ${PAGE.length} characters, 3 blocks (ts, sh, json), 64 lines\n`);
  const before = memory();
  await time('first page with code in a fresh process (Shiki, 3 grammars, 2 themes)', () =>
    renderCodePage(github),
  );
  const afterFirst = memory();
  await time(
    '  the page with its code changed, highlighted (no block kept)',
    () => renderCodePage(github),
    20,
  );
  await renderCodePage(github, true);
  await time(
    '  the same page again, its blocks kept (a re-render after a settings change)',
    () => renderCodePage(github, true),
    20,
  );
  await time('  the same page, no highlighting', () => renderMarkdown(PAGE), 20);
  await time('  first page in Livery’s default theme (one more theme)', () =>
    renderCodePage(livery),
  );
  await time('  in Livery’s default theme, code changed', () => renderCodePage(livery), 20);
  const html = await renderCodePage(github);
  process.stdout.write(
    `  HTML: ${html.length} bytes highlighted, ${renderMarkdown(PAGE).length} plain\n`,
  );
  const afterAll = memory();
  process.stdout.write(
    `memory: heap +${mib(afterFirst.heapUsed - before.heapUsed)} after the first page (RSS +${mib(afterFirst.rss - before.rss)}); ` +
      `heap +${mib(afterAll.heapUsed - before.heapUsed)} after all (RSS +${mib(afterAll.rss - before.rss)})\n`,
  );
  const hostile = Array.from(
    { length: 10 },
    (_, i) => `\`\`\`c\n// ${i}\n${`${'[['.repeat(199)}\n`.repeat(49)}\`\`\`\n`,
  ).join('\n');
  await pageHighlighter('```c\n;\n```\n', github); // the grammar loaded, as for any C page
  // The highlighting runs a chunk at a time: the longest the event loop is held is one chunk.
  const stalls = monitorEventLoopDelay({ resolution: 1 });
  stalls.enable();
  await time('worst hostile page measured (10 blocks of C, lines of 398 "[")', async () =>
    renderMarkdown(hostile, { highlight: await pageHighlighter(hostile, github) }),
  );
  stalls.disable();
  process.stdout.write(
    `  longest event-loop stall meanwhile: ${(stalls.max / 1e6).toFixed(1)} ms (the page budget: 1000 ms of highlighting)\n`,
  );
}

await main();
