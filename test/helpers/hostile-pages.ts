import { bundledLanguagesInfo } from 'shiki/langs';

/**
 * The hostile pages of issue 25, at the sizes it measured them (each stalled a server before
 * the work moved to worker threads): test/http/stall.test.ts serves them, `npm run bench:stall`
 * measures them. Past the default content limits: whoever stores them raises PAGE_MAX_BYTES and
 * PAGE_MAX_BLOCKS, as an operator may.
 */
export const HOSTILE_PAGES = {
  // 480 KB of emphasis: unresponsive for over two minutes (16 KB: 9–12 s).
  emphasis: '*a* '.repeat(120_000),
  // One block in each of Shiki's 241 languages: 3.5–7.3 s to render.
  languages: bundledLanguagesInfo
    .map((l) => `\`\`\`${l.id}\nx = 1 // ${l.id}\n\`\`\`\n`)
    .join('\n'),
  // 80,000 rows: page 1.7–4.8 s, its document up to 8 s.
  table: `| a | b |\n|---|---|\n${'| x | y |\n'.repeat(80_000)}`,
  // 120,000 headings: up to 5.6 s.
  headings: Array.from({ length: 120_000 }, (_, i) => `## H${i % 97}`).join('\n'),
  // ~2,500 highlighted code blocks: /healthz waited 1.3–2.3 s.
  'code-blocks': Array.from(
    { length: 2_500 },
    (_, i) => `\`\`\`ts\nconst v${i} = f(${i});\n\`\`\`\n`,
  ).join('\n'),
} as const;

/** Twelve long non-ASCII pages, a search term at the end of each: one search stalled 2.0–2.5 s. */
export const LONG_PAGES = Array.from(
  { length: 12 },
  () => `${'Über die Straße ging ein Mädchen. '.repeat(6000)}Zielwort.`,
);

/** The limits raised for them. */
export const HOSTILE_LIMITS = {
  PAGE_MAX_BYTES: String(16 * 1024 * 1024),
  PAGE_MAX_BLOCKS: '10000000',
};
