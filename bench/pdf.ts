import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

/**
 * `npm run bench:pdf` (docs/BENCHMARKS.md, "PDF export"): the PDF of a 500-page space
 * (bench/pdf-fixture.ts) by each candidate, each in a fresh process pinned to CPU 0 (taskset,
 * when there are two CPUs), measured from here: wall time, and the peak memory of the whole
 * process tree (Chromium's processes included), as the sum of RSS and of PSS (RSS counts pages
 * shared between Chromium's processes once per process; PSS shares them out). The baseline
 * makes the same documents and prints nothing, in the same run. CPU time (user + system, all
 * processes of the tree) is the steadiest figure on a shared machine: wall time waits for CPU 0. Targets (issue 30): ≤ 60 s and
 * RSS < 400 MiB for 500 pages. BENCH_PDF_PAGES=… changes the count; BENCH_PDF_KINDS=pdfkit,… the
 * candidates.
 */
const PAGES = Number(process.env.BENCH_PDF_PAGES ?? 500);
const KINDS = (process.env.BENCH_PDF_KINDS ?? 'baseline,pdfkit,chromium').split(',');
const pin =
  cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0 && process.env.BENCH_PIN !== '0';

function children(pid: number): number[] {
  const found = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) found.push(...children(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const TICK = 100; // clock ticks a second (USER_HZ)
/** CPU seconds seen per process (user + system): a process's last sample before it ends. */
const cpuSeen = new Map<number, number>();

/** RSS and PSS of a process tree, in MiB (and each process's CPU time, into cpuSeen). */
function treeMemory(pid: number): { rss: number; pss: number } {
  let rss = 0;
  let pss = 0;
  for (const p of children(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8').slice(0);
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuSeen.set(p, (Number(fields[11]) + Number(fields[12])) / TICK);
      const rollup = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return { rss: rss / 1024, pss: pss / 1024 };
}

async function measure(kind: string) {
  const out = `/tmp/livery-bench-${kind}.pdf`;
  // The V8 flags of `npm start` (docs/deploy.md, "Memory"): the server's heap as deployed.
  const args = [
    '--max-semi-space-size=2',
    '--heap-growing-percent=50',
    '--import',
    'tsx',
    'bench/pdf-candidate.ts',
    kind,
    String(PAGES),
    out,
  ];
  const command = pin ? 'taskset' : process.execPath;
  const start = performance.now();
  const child = spawn(command, pin ? ['-c', '0', process.execPath, ...args] : args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  let peak = { rss: 0, pss: 0 };
  cpuSeen.clear();
  const sampler = setInterval(() => {
    const now = treeMemory(child.pid ?? 0);
    peak = { rss: Math.max(peak.rss, now.rss), pss: Math.max(peak.pss, now.pss) };
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  const wall = (performance.now() - start) / 1000;
  const cpu = [...cpuSeen.values()].reduce((a, b) => a + b, 0);
  if (code !== 0) return { kind, failed: `exit ${code}` };
  const report = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { seconds: number };
  const sheets =
    kind === 'baseline' ? 0 : (readFileSync(out, 'latin1').match(/\/Type \/Page\b/g) ?? []).length;
  return {
    kind,
    wall,
    cpu,
    inside: report.seconds,
    peak,
    bytes: kind === 'baseline' ? 0 : statSync(out).size,
    sheets,
  };
}

process.stdout.write(
  `PDF of ${PAGES} pages; ${pin ? 'each candidate pinned to CPU 0 (taskset)' : 'NOT PINNED'}; memory sampled every 100 ms over the process tree\n`,
);
const results = [];
for (const kind of KINDS) {
  const result = await measure(kind);
  results.push(result);
  if ('failed' in result) {
    process.stdout.write(`${kind}: failed (${result.failed})\n`);
    continue;
  }
  const verdict =
    kind === 'baseline'
      ? ''
      : ` → ${result.wall <= 60 ? 'meets' : 'MISSES'} ≤ 60 s, ${result.peak.rss < 400 ? 'meets' : 'MISSES'} RSS < 400 MiB`;
  process.stdout.write(
    `${kind.padEnd(9)} ${result.wall.toFixed(1).padStart(6)} s (in process ${result.inside.toFixed(1)} s, CPU ${result.cpu.toFixed(1)} s)  peak RSS ${result.peak.rss.toFixed(0).padStart(5)} MiB  PSS ${result.peak.pss.toFixed(0).padStart(5)} MiB  ${(result.bytes / 2 ** 20).toFixed(1)} MiB, ${result.sheets} sheets${verdict}\n`,
  );
}
const base = results.find((r) => r.kind === 'baseline');
if (base !== undefined && base.wall !== undefined && base.peak !== undefined) {
  for (const r of results) {
    if (r.kind === 'baseline' || r.wall === undefined || r.peak === undefined) continue;
    process.stdout.write(
      `${r.kind}: ${(r.wall / base.wall).toFixed(2)}× the baseline's time, +${(r.peak.rss - base.peak.rss).toFixed(0)} MiB RSS over it\n`,
    );
  }
}
