import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Db, openDatabase } from '../../src/db/database.js';
import type { TestContext } from './app.js';
import type { TestRepo } from './git-repo.js';

/** What the Git Sync tests need of an app: its requests (with the owner's token). */
export interface Requester {
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  orgId: string;
}

/** The Git Sync state of a space (getSpaceGitInfo's answer). */
// biome-ignore lint/suspicious/noExplicitAny: the answer is checked field by field
export type GitInfo = Record<string, any>;

/** Every answer of the Git Sync tests: never a 5xx, whatever the repository holds. */
export function no5xx(res: LightMyRequestResponse, what: string): LightMyRequestResponse {
  assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body.slice(0, 500)}`);
  return res;
}

export async function newSpace(t: Requester, title = 'Docs'): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/v1/orgs/${t.orgId}/spaces`,
    payload: { title },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

export function queueImport(
  t: Requester,
  spaceId: string,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: `/v1/spaces/${spaceId}/git/import`, payload: body });
}

export async function gitInfo(t: Requester, spaceId: string): Promise<GitInfo> {
  const info = no5xx(await t.request({ url: `/v1/spaces/${spaceId}/git/info` }), 'git/info');
  assert.equal(info.statusCode, 200, info.body);
  return info.json();
}

/** Polls getSpaceGitInfo until the operation is no longer `running`; the final GitSyncState. */
export async function waitEnded(t: Requester, spaceId: string): Promise<GitInfo> {
  for (let i = 0; i < 1200; i++) {
    const state = await gitInfo(t, spaceId);
    if (state.operation.state !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the import never ended');
}

/** Imports, then waits for the operation to end; the final GitSyncState. */
export async function importAndWait(
  t: Requester,
  spaceId: string,
  body: Record<string, unknown>,
): Promise<GitInfo> {
  const queued = no5xx(await queueImport(t, spaceId, body), 'importGitRepository');
  assert.equal(queued.statusCode, 204, queued.body);
  return waitEnded(t, spaceId);
}

// biome-ignore lint/suspicious/noExplicitAny: revisions are read field by field
export async function currentRevision(t: Requester, spaceId: string): Promise<Record<string, any>> {
  const res = await t.request({ url: `/v1/spaces/${spaceId}/content` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Every page of a revision's tree, depth first. */
// biome-ignore lint/suspicious/noExplicitAny: revision pages as answered
export function allPages(pages: any[]): any[] {
  return pages.flatMap((page) => [page, ...allPages(page.pages ?? [])]);
}

/** The warnings of a state as `file:line message` lines, for assertion messages. */
export function describeWarnings(state: GitInfo): string {
  return (state.warnings as { file: string; line?: number; message: string }[])
    .map((w) => `${w.file}${w.line === undefined ? '' : `:${w.line}`} ${w.message}`)
    .join('\n');
}

/** The warning about `file` (and `line` when given), asserted to exist. */
export function warningAbout(
  state: GitInfo,
  file: string,
  pattern: RegExp,
  line?: number,
): { file: string; line?: number; message: string } {
  const found = (state.warnings as { file: string; line?: number; message: string }[]).find(
    (w) => w.file === file && pattern.test(w.message) && (line === undefined || w.line === line),
  );
  assert.ok(
    found,
    `a warning about ${file}${line === undefined ? '' : `:${line}`} matching ${pattern} in:\n${describeWarnings(state)}`,
  );
  return found;
}

/**
 * Holds `git fetch` from `repo` until released, with no timing: the source repository's
 * `objects/info/alternates` becomes a named pipe, whose open() blocks git (upload-pack) until a
 * writer comes. Release puts an empty regular file in its place and opens the pipe once for
 * writing, which lets the blocked reader through (it reads nothing: no alternates).
 */
export function stall(repo: TestRepo): () => void {
  return stallGitDir(join(repo.dir, '.git'), repo.root);
}

/** stall() for any git directory (a bare remote's), parking its pipe under `scratch`. */
export function stallGitDir(gitDir: string, scratch: string): () => void {
  const path = join(gitDir, 'objects', 'info', 'alternates');
  mkdirSync(join(gitDir, 'objects', 'info'), { recursive: true });
  rmSync(path, { force: true });
  execFileSync('mkfifo', [path]);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const parked = mkdtempSync(join(scratch, 'fifo-'));
    const fifo = join(parked, 'alternates');
    renameSync(path, fifo);
    writeFileSync(path, '');
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody was reading it (git did not get that far, or was stopped).
    }
    rmSync(parked, { recursive: true, force: true });
  };
}

/**
 * Whether a git process is held by `stall(repo)` right now (blocked opening the pipe). Asking
 * lets that one process through when there is one: use it to check that none is left.
 */
export function heldReader(repo: TestRepo): boolean {
  try {
    const path = join(repo.dir, '.git', 'objects', 'info', 'alternates');
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch {
    return false; // ENXIO: no reader (or no pipe any more)
  }
}

export interface SecondApp extends Requester {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

/**
 * Another server on the same database as `t` (a second process of a deployment, or the same
 * server after a restart): its own services, owner and lease, the same organization and tokens.
 */
export async function appOnSameDatabase(
  t: TestContext,
  env: Record<string, string> = {},
): Promise<SecondApp> {
  const config = loadConfig({
    DATABASE_URL: t.databaseUrl,
    LOG_LEVEL: 'silent',
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    BASE_URL: 'http://livery.test',
    SECRET_KEY: t.config.gitSync.secretKey.value ?? '',
    ...env,
  });
  const db = openDatabase(config.database);
  const app = await buildApp({ config, db });
  await app.ready();
  return {
    app,
    db,
    orgId: t.orgId,
    request: (options) =>
      app.inject({
        ...options,
        headers: { authorization: `Bearer ${t.token}`, ...(options.headers ?? {}) },
      }),
    close: async () => {
      await app.close();
      await db.destroy();
    },
  };
}

/** Edits a space through a merged change request: `changes` as updateChangeRequestContent takes them. */
export async function mergeEdit(
  t: Requester,
  spaceId: string,
  changes: unknown[],
  subject = 'An edit',
) {
  const cr = await t.request({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/change-requests`,
    payload: { subject },
  });
  assert.equal(cr.statusCode, 201, cr.body);
  const id = cr.json().id;
  const edit = await t.request({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/change-requests/${id}/content`,
    payload: { changes },
  });
  assert.equal(edit.statusCode, 200, edit.body);
  const merge = await t.request({
    method: 'POST',
    url: `/v1/spaces/${spaceId}/change-requests/${id}/merge`,
  });
  assert.equal(merge.statusCode, 200, merge.body);
  return cr.json().number as number;
}
