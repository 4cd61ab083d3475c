import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { buildServices } from './app.js';
import type { Config } from './config.js';

type Services = ReturnType<typeof buildServices>;
type Print = (line: string) => void;

/**
 * `git import <space> <url|path>`: a local checkout given by path is the operator's own (they
 * run the CLI against the database), so its directory is allowed for this run, whatever
 * GIT_LOCAL_DIRS says (docs/git-sync.md, "From the command line").
 */
export function configForGitCli(args: readonly string[], config: Config): Config {
  const [area, command, , source] = args.filter((a) => !a.startsWith('--'));
  if (area !== 'git' || command !== 'import' || source === undefined) return config;
  const path = source.startsWith('file://') ? new URL(source).pathname : source;
  if (!(isAbsolute(path) || path.startsWith('.')) || !existsSync(path)) return config;
  const dir = dirname(realpathSync(resolve(path)));
  return Object.freeze({
    ...config,
    gitSync: Object.freeze({ ...config.gitSync, localDirs: [...config.gitSync.localDirs, dir] }),
  });
}

/** Imports and waits for the end: 0 on success, 1 otherwise, with the reason and warnings. */
export async function gitImport(
  services: Services,
  spaceId: string,
  source: string,
  options: { ref?: string | undefined; dir?: string | undefined },
  print: Print,
): Promise<number> {
  const url =
    source.startsWith('.') || source.startsWith('/') ? realpathSync(resolve(source)) : source;
  await services.spaces.currentRevisionId(spaceId); // 404 for an unknown space
  await services.gitSync.startImport(
    spaceId,
    {
      url,
      ref: options.ref ?? 'HEAD',
      ...(options.dir === undefined ? {} : { repoProjectDirectory: options.dir }),
    },
    null,
  );
  print(`importing ${source} into space ${spaceId}…`);
  for (;;) {
    const state = await services.gitSync.stateOf(spaceId);
    if (state !== undefined && state.operation.state !== 'running') return printState(state, print);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function gitStatus(
  services: Services,
  spaceId: string,
  print: Print,
): Promise<number> {
  const state = await services.gitSync.stateOf(spaceId);
  if (state === undefined) {
    print(`space ${spaceId} has never been imported from Git`);
    return 1;
  }
  return printState(state, print);
}

function printState(
  state: NonNullable<Awaited<ReturnType<Services['gitSync']['stateOf']>>>,
  print: Print,
): number {
  const { operation } = state;
  print(`${operation.direction} ${operation.state}: ${state.url}`);
  print(
    `started ${operation.startedAt}${operation.endedAt === undefined ? '' : `, ended ${operation.endedAt}`}`,
  );
  if (operation.error !== undefined) print(`error: ${operation.error}`);
  for (const w of state.warnings)
    print(`warning: ${w.file}${w.line === undefined ? '' : `:${w.line}`}: ${w.message}`);
  return operation.state === 'success' || operation.state === 'running' ? 0 : 1;
}
