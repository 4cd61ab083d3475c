/**
 * `npm run bench:preview` (docs/BENCHMARKS.md, "livery preview"): `livery preview` on a generated
 * 500-page folder, started as a user starts it (`bin/livery.js`, the sources through tsx), each
 * round a new process:
 * - start: from spawning the process to the first page served (200 with the page's text);
 * - change: from a file saved to the events stream's new version, and to the page answering the
 *   new text over HTTP (what the open page's reload then fetches).
 * The floor beside them: the same launcher printing `--help` (node, tsx and the modules loaded,
 * nothing served). Targets (issue 29): first page within 5 s, a change within 1 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSiteAssets } from '../scripts/build-site-assets.js';
import { freePort, median, ROOT } from './lib.js';

const PAGES = Number(process.env.BENCH_PREVIEW_PAGES ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHANGES = Number(process.env.BENCH_PREVIEW_CHANGES ?? 5);

/** A space of `pages` pages: ten chapters (folders, summary groups), each page ~1.5 KB. */
function writeFolder(pages: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'livery-bench-preview-'));
  const summary = ['# Table of contents', '', '* [Introduction](README.md)', ''];
  writeFileSync(join(folder, 'README.md'), '# Introduction\n\nThe generated handbook.\n');
  const perChapter = Math.ceil(pages / 10);
  for (let i = 0; i < pages; i++) {
    const chapter = Math.floor(i / perChapter);
    if (i % perChapter === 0) {
      mkdirSync(join(folder, `chapter-${chapter}`), { recursive: true });
      summary.push(`## Chapter ${chapter}`, '');
    }
    const file = `chapter-${chapter}/page-${i}.md`;
    summary.push(`* [Page ${i}](${file})`);
    writeFileSync(join(folder, file), pageText(i, 'first'));
  }
  writeFileSync(join(folder, 'SUMMARY.md'), `${summary.join('\n')}\n`);
  return folder;
}

function pageText(i: number, marker: string): string {
  const paragraph =
    'Livery reads this page from the folder, as Git Sync reads it from a commit. '.repeat(4);
  return [
    `# Page ${i}`,
    '',
    `Marker: ${marker}.`,
    '',
    paragraph,
    '',
    '## Steps',
    '',
    '1. Open the folder.',
    '2. Edit a page.',
    '3. See it change.',
    '',
    '```js',
    `const page = ${i};`,
    'console.log(page);',
    '```',
    '',
    `| Column | Value |\n| --- | --- |\n| page | ${i} |`,
    '',
    paragraph,
    '',
  ].join('\n');
}

function spawnPreview(folder: string, port: number): ChildProcess {
  return spawn(process.execPath, ['bin/livery.js', 'preview', folder, '--port', String(port)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function get(url: string): Promise<{ status: number; text: string } | undefined> {
  try {
    const response = await fetch(url);
    return { status: response.status, text: await response.text() };
  } catch {
    return undefined; // not listening yet
  }
}

/** The versions of the preview's events stream, with when each came. */
async function follow(base: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/__livery/preview/events`, { signal: controller.signal });
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no events stream');
  const seen: { version: number; at: number }[] = [];
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      const at = performance.now();
      buffer += new TextDecoder().decode(value);
      for (const m of buffer.matchAll(/event: version\ndata: (\d+)\n\n/g)) {
        seen.push({ version: Number(m[1]), at });
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n\n') + 2);
    }
  })();
  return { seen, close: () => controller.abort() };
}

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string) {
  const end = performance.now() + 60_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > end) throw new Error(`gave up: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function helpFloor(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/livery.js', 'preview', '--help'], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  await once(child, 'exit');
  return performance.now() - started;
}

async function main(): Promise<void> {
  ensureSiteAssets();
  const folder = writeFolder(PAGES);
  const starts: number[] = [];
  const floors: number[] = [];
  const toEvent: number[] = [];
  const toPage: number[] = [];
  const imports: number[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      floors.push(await helpFloor());
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const started = performance.now();
      const child = spawnPreview(folder, port);
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += String(chunk);
      });
      child.stderr?.on('data', (chunk) => {
        out += String(chunk);
      });
      try {
        await until(async () => {
          const page = await get(`${base}/`);
          return page?.status === 200 && page.text.includes('The generated handbook.')
            ? true
            : undefined;
        }, `the first page:\n${out}`);
        const start = performance.now() - started;
        starts.push(start);
        const first = /updated in (\d+) ms/.exec(out);
        if (first?.[1] !== undefined) imports.push(Number(first[1]));
        const events = await follow(base);
        try {
          await until(() => events.seen[0], 'the current version');
          for (let c = 0; c < CHANGES; c++) {
            const i = (round * 97 + c * 131) % PAGES;
            const chapter = Math.floor(i / Math.ceil(PAGES / 10));
            const marker = `round-${round}-change-${c}`;
            const last = events.seen.at(-1)?.version ?? 0;
            const saved = performance.now();
            writeFileSync(join(folder, `chapter-${chapter}/page-${i}.md`), pageText(i, marker));
            const event = await until(
              () => events.seen.find((e) => e.version > last),
              'the new version',
            );
            toEvent.push(event.at - saved);
            await until(async () => {
              const page = await get(`${base}/chapter-${chapter}/page-${i}`);
              return page?.text.includes(`Marker: ${marker}.`) ? true : undefined;
            }, 'the new text');
            toPage.push(performance.now() - saved);
            await new Promise((r) => setTimeout(r, 200)); // one save at a time, as a person saves
          }
        } finally {
          events.close();
        }
        process.stdout.write(
          `round ${round}: first page ${Math.round(start)} ms (import ${first?.[1] ?? '?'} ms), changes ${toPage
            .slice(-CHANGES)
            .map((v) => Math.round(v))
            .join(', ')} ms\n`,
        );
      } finally {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const ms = (v: number) => `${Math.round(v)} ms`;
  const row = (name: string, values: number[], target: string) =>
    `| ${name} | ${ms(median(values))} | ${ms(Math.min(...values))}–${ms(Math.max(...values))} | ${target} |`;
  process.stdout.write(
    [
      '',
      `livery preview, ${PAGES}-page folder, ${ROUNDS} rounds × ${CHANGES} changes (node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, not pinned; load average at the end ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' ')})`,
      '',
      '| measure | median | range | target |',
      '| --- | --- | --- | --- |',
      row('start → first page served', starts, '≤ 5 s'),
      row('  of which: the folder imported (in the process)', imports, ''),
      row('  floor: `bin/livery.js preview --help`', floors, ''),
      row('save → events stream announces it', toEvent, ''),
      row('save → the page answers the new text', toPage, '≤ 1 s'),
      '',
    ].join('\n'),
  );
  const ok = median(starts) <= 5000 && median(toPage) <= 1000;
  process.stdout.write(ok ? 'targets met\n' : 'TARGETS MISSED\n');
}

await main();
