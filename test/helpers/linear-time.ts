import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  documentToHtml,
  documentToMarkdown,
  markdownToDocument,
  withKeys,
} from '../../src/modules/documents/index.js';

/**
 * Parsing, rendering, folding, excerpting, indexing and highlighting are linear in their input
 * (issue 25): for each hostile shape, the work on 4n is at most 2.5² (6.25) times the work on n,
 * i.e. about 2.5 times per doubling. Quadratic work gives 16 times. A ratio of two measurements
 * in the same process, never a time limit: CPU time (process.cpuUsage, so other processes do not
 * count), the least of a few runs after a warm-up. Each case is one the issue found (or its
 * neighbour), and failed before its fix.
 */
export const MAX_RATIO = 6.25;

/** CPU time of one run of `work`, in ms: the least of 3 measures of enough runs to be read. */
export function cpuMs(work: () => unknown): number {
  // getrusage counts in ticks of a few ms: measure enough runs together to be well above one.
  const started = performance.now();
  work();
  const once = Math.max(performance.now() - started, 0.01);
  const runs = Math.max(1, Math.ceil(40 / once));
  let best = Number.POSITIVE_INFINITY;
  for (let measure = 0; measure < 3; measure++) {
    const before = process.cpuUsage();
    for (let run = 0; run < runs; run++) work();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000 / runs);
  }
  return best;
}

/**
 * `prepare(input)` outside the measure, `work(prepared)` measured, on n and on 4n. A collection
 * of garbage that falls in one measure and not the other can make a linear case look 7× slower
 * once: the pair is measured up to three times, and one ratio within bounds is enough (quadratic
 * work is 16× every time).
 */
export function assertLinear<T>(
  start: number,
  prepare: (n: number) => T,
  work: (input: T) => unknown,
  maxN = Number.POSITIVE_INFINITY,
) {
  // Small inputs live and die in the young generation, large ones fill the old one, and the
  // collector's share grows in between (a third of the time near 10 ms, for linear work): each
  // case starts at a size past that (as hostile pages are), and grows on a faster machine.
  let n = start;
  let small = prepare(n);
  // Warm first: a cold run (compiling) can pass 30 ms where the warm one takes 6 ms, and the
  // size would then stay too small to measure (a 10× ratio at 6 → 66 ms, on a busy machine).
  work(small);
  for (let grown = 0; grown < 3 && n * 2 <= maxN && cpuMs(() => work(small)) < 30; grown++) {
    n *= 2;
    small = prepare(n);
  }
  const large = prepare(4 * n);
  work(small); // warm-up: compiled code, caches
  work(large);
  const ratios: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const a = cpuMs(() => work(small));
    const b = cpuMs(() => work(large));
    if (b / a <= MAX_RATIO) return;
    ratios.push(`${(b / a).toFixed(1)}× (${a.toFixed(2)} → ${b.toFixed(2)} ms)`);
  }
  assert.fail(`n = ${n}: 4× the input took ${ratios.join(', ')} the time`);
}

/** A hostile Markdown shape: its name, the size it starts at, what else its marks or keys test. */
export type MarkdownCase = [
  string,
  number,
  (n: number) => string,
  /**
   * `maxN`: the size not to grow past. A page that is one text of megabytes spends its time
   * in the collector's large-object space, more than linearly, whatever the code does (one
   * `replaceAll` of a 12 MB string: 7× the time of 3 MB).
   */
  { marks?: true; keys?: true; maxN?: number },
];

/** The tests of each case: Markdown → document → HTML, and Markdown or keys when it says so. */
export function markdownCaseTests(cases: readonly MarkdownCase[]): void {
  for (const [name, n, make, also] of cases) {
    test(`${name}: Markdown → document`, () => {
      assertLinear(n, make, (markdown) => markdownToDocument(markdown), also.maxN);
    });
    test(`${name}: document → HTML`, () => {
      assertLinear(
        n,
        (k) => markdownToDocument(make(k)),
        (doc) => documentToHtml(doc),
        also.maxN,
      );
    });
    if (also.marks) {
      // Closing a run of marks looked for the white space at the end of all written so far.
      test(`${name}: document → Markdown`, () => {
        assertLinear(
          n,
          (k) => markdownToDocument(make(k)),
          (doc) => documentToMarkdown(doc),
          also.maxN,
        );
      });
    }
    if (also.keys) {
      test(`${name}: document with keys (the API's)`, () => {
        assertLinear(
          n,
          (k) => markdownToDocument(make(k)),
          (doc) => withKeys(doc),
          also.maxN,
        );
      });
    }
  }
}
