import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import {
  buildLivery,
  compareTargets,
  dropSchema,
  postgresTarget,
  schemaUrl,
  seed,
  startLivery,
  stop,
  TOKEN,
} from './lib.js';

/**
 * `npm run bench:lifecycle`: the site-lifecycle operations (issue 4) against the customization
 * GET of the same site, in the same run and the same rounds (ratios, not absolute times):
 *   baseline      GET …/site-spaces/{id}/customization (the hot read `npm run bench` measures);
 *   getSite       GET …/sites/{id} (the site with its site-space count);
 *   siteSpaces    GET …/site-spaces?limit=20 (18 variants, each with its space);
 *   auth          GET …/publishing/auth;
 *   shareLinks    GET …/share-links (10 links);
 *   publish       POST …/publish and …/unpublish alternating: every request a durable write
 *                 and a history row;
 *   visibility    PATCH …/sites/{id} alternating public/unlisted: the same, through the PATCH.
 * On SQLite and, when reachable, PostgreSQL (as `npm run bench`).
 */

const KINDS = [
  'baseline',
  'getSite',
  'siteSpaces',
  'auth',
  'shareLinks',
  'publish',
  'visibility',
] as const;
type Kind = (typeof KINDS)[number];
let sent = 0;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'livery-bench-lifecycle-'));
  const children: ChildProcess[] = [];
  buildLivery();
  const postgres = await postgresTarget();
  let schema: string | undefined;
  try {
    const backends: { name: string; url: string }[] = [
      { name: 'sqlite', url: `sqlite:${join(dir, 'livery.db')}` },
    ];
    if (postgres.ok) {
      const fresh = schemaUrl(postgres.url, 'benchlc');
      schema = fresh.schema;
      backends.push({ name: 'postgres', url: fresh.url });
    } else {
      process.stdout.write(`!! PostgreSQL NOT MEASURED: ${postgres.reason}\n`);
      if (postgres.explicit) process.exitCode = 1;
    }
    const targets: {
      name: string;
      backend: string;
      kind: Kind;
      options: autocannon.Options;
      pid?: number;
    }[] = [];
    for (const backend of backends) {
      const { base, child } = await startLivery(
        children,
        backend.url,
        join(dir, `${backend.name}.log`),
      );
      const { getUrl } = await seed(base, 16);
      const siteUrl = getUrl.slice(0, getUrl.indexOf('/site-spaces/'));
      for (let i = 0; i < 10; i++)
        await call(`${siteUrl}/share-links`, 'POST', { name: `link ${i}` });
      for (const kind of KINDS) {
        targets.push({
          name: `${kind} ${backend.name}`,
          backend: backend.name,
          kind,
          options: optionsOf(kind, getUrl, siteUrl),
          ...(child.pid === undefined ? {} : { pid: child.pid }),
        });
      }
    }
    await compareTargets('Site-lifecycle benchmark', targets);
  } finally {
    for (const child of children) await stop(child);
    if (schema !== undefined && postgres.ok) await dropSchema(postgres.url, schema);
    rmSync(dir, { recursive: true, force: true });
  }
}

function optionsOf(kind: Kind, getUrl: string, siteUrl: string): autocannon.Options {
  const headers = { authorization: `Bearer ${TOKEN}` };
  const json = { ...headers, 'content-type': 'application/json' };
  const path = new URL(siteUrl).pathname;
  switch (kind) {
    case 'baseline':
      return { url: getUrl, headers };
    case 'getSite':
      return { url: siteUrl, headers };
    case 'siteSpaces':
      return { url: `${siteUrl}/site-spaces?limit=20`, headers };
    case 'auth':
      return { url: `${siteUrl}/publishing/auth`, headers };
    case 'shareLinks':
      return { url: `${siteUrl}/share-links`, headers };
    case 'publish':
      return {
        url: siteUrl,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => ({
              ...request,
              path: `${path}/${++sent % 2 === 0 ? 'publish' : 'unpublish'}`,
            }),
          },
        ],
      };
    case 'visibility':
      return {
        url: siteUrl,
        requests: [
          {
            method: 'PATCH',
            path,
            headers: json,
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ visibility: ++sent % 2 === 0 ? 'public' : 'unlisted' }),
            }),
          },
        ],
      };
  }
}

async function call(url: string, method: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
}

await main();
