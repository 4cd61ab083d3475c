import { HOSTILE_ENV, measureStalls, seedHostile, stallReport } from './hostile.js';
import { machine, placement, TOKEN, withBackends } from './lib.js';

/**
 * `npm run bench:stall`: the hostile pages of issue 25 (bench/hostile.ts) served by a fresh Livery
 * (`npm start`'s command, pinned like every benchmark server) on SQLite and on PostgreSQL, each
 * page's first view and its document read while a prober measures how long the server's event
 * loop stands still, against an ordinary page in the same run. One server at a time: the other,
 * pinned to the same CPU, would add its own work to the stall measured (a SQLite run measured
 * 54–80 ms with the PostgreSQL server running beside it, 32 ms without). Prints a table per
 * backend.
 */
process.stdout.write(`Stall benchmark: ${placement()}, ${machine()}\n`);
await withBackends(
  'benchst',
  HOSTILE_ENV,
  async (servers) => {
    for (const { base, backend } of servers) {
      const stalls = await measureStalls(base, await seedHostile(base), `Bearer ${TOKEN}`);
      process.stdout.write(`${stallReport(backend, stalls)}\n`);
      if (stalls.some((s) => s.status !== 200)) process.exitCode = 1;
    }
  },
  { oneAtATime: true },
);
