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
  if (
    area !== 'git' ||
    !['import', 'export', 'link', 'import-site', 'export-site'].includes(command ?? '') ||
    source === undefined
  )
    return config;
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
  const repository = repositoryOf(source, options, 'HEAD'); // a missing path fails first
  await services.spaces.currentRevisionId(spaceId); // 404 for an unknown space
  await services.gitSync.startImport(spaceId, repository, null);
  print(`importing ${source} into space ${spaceId}…`);
  return waitForEnd(services, spaceId, print);
}

/** Waits for the space's operation to end, then prints it: 0 on success, 1 otherwise. */
async function waitForEnd(services: Services, spaceId: string, print: Print): Promise<number> {
  for (;;) {
    const state = await services.gitSync.stateOf(spaceId);
    if (state !== undefined && state.operation.state !== 'running') return printState(state, print);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const urlOf = (source: string) =>
  source.startsWith('.') || source.startsWith('/') ? realpathSync(resolve(source)) : source;

/** The repository of a command: its URL (a local path made absolute), ref and directory. */
const repositoryOf = (
  source: string,
  options: { ref?: string | undefined; dir?: string | undefined },
  defaultRef: string,
) => ({
  url: urlOf(source),
  ref: options.ref ?? defaultRef,
  ...(options.dir === undefined ? {} : { repoProjectDirectory: options.dir }),
});

interface GitOptions {
  ref?: string | undefined;
  dir?: string | undefined;
  message?: string | undefined;
  priority?: string | undefined;
  poll?: string | undefined;
  previews?: boolean | undefined;
}

/** `git export`: one commit on the branch (none when nothing changed), then the state. */
export async function gitExport(
  services: Services,
  spaceId: string,
  source: string,
  options: GitOptions,
  print: Print,
): Promise<number> {
  await services.gitExport.startExport(
    spaceId,
    {
      ...repositoryOf(source, options, 'refs/heads/main'),
      commitMessage: options.message ?? 'Export from Livery',
    },
    null,
  );
  print(`exporting space ${spaceId} to ${source}…`);
  return waitForEnd(services, spaceId, print);
}

/** `git link`: the link, its webhook, and its first sync's end. */
export async function gitLink(
  services: Services,
  spaceId: string,
  source: string,
  options: GitOptions,
  print: Print,
): Promise<number> {
  if (
    options.priority !== undefined &&
    options.priority !== 'git' &&
    options.priority !== 'livery'
  ) {
    print('--priority must be git or livery');
    return 2;
  }
  const poll = options.poll === undefined ? undefined : Number(options.poll);
  if (poll !== undefined && !(Number.isInteger(poll) && poll >= 0 && poll <= 86_400)) {
    print('--poll must be a whole number of seconds from 0 to 86400');
    return 2;
  }
  await services.spaces.currentRevisionId(spaceId);
  const link = await services.gitLinks.link(
    spaceId,
    {
      ...repositoryOf(source, options, 'main'),
      ...(options.priority === undefined ? {} : { priority: options.priority }),
      ...(poll === undefined ? {} : { pollIntervalSeconds: poll }),
      ...(options.previews === true ? { previewExternalBranches: true } : {}),
    },
    null,
  );
  print(`linked space ${spaceId} to ${link.url} (${link.ref}, priority ${link.priority})`);
  print(`webhook:        ${link.webhook.url}`);
  print(`webhook secret: ${link.webhook.secret ?? ''}  (shown once)`);
  return waitForEnd(services, spaceId, print);
}

export async function gitSync(services: Services, spaceId: string, print: Print): Promise<number> {
  await services.gitLinks.syncNow(spaceId);
  print(`syncing space ${spaceId}…`);
  return waitForEnd(services, spaceId, print);
}

export async function gitUnlink(
  services: Services,
  spaceId: string,
  print: Print,
): Promise<number> {
  await services.gitLinks.unlink(spaceId);
  print(`space ${spaceId} is no longer linked`);
  return 0;
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

/** `git import-site <site> <url|path>`: the whole site from its docs.yaml, and the end. */
export async function gitImportSite(
  services: Services,
  siteId: string,
  source: string,
  options: GitOptions,
  print: Print,
): Promise<number> {
  const { organizationId, actor } = await services.siteGitSync.cliContext(siteId);
  await services.siteGitSync.startImport(
    organizationId,
    siteId,
    repositoryOf(source, options, 'HEAD'),
    actor,
  );
  print(`importing site ${siteId} from ${source}…`);
  return waitForSite(services, siteId, print);
}

/** `git export-site <site> <url|path>`: docs.yaml, the spaces and the customization, one commit. */
export async function gitExportSite(
  services: Services,
  siteId: string,
  source: string,
  options: GitOptions,
  print: Print,
): Promise<number> {
  const { organizationId } = await services.siteGitSync.cliContext(siteId);
  await services.siteGitSync.startExport(organizationId, siteId, {
    ...repositoryOf(source, options, 'refs/heads/main'),
    commitMessage: options.message ?? 'Export from Livery',
  });
  print(`exporting site ${siteId} to ${source}…`);
  return waitForSite(services, siteId, print);
}

async function waitForSite(services: Services, siteId: string, print: Print): Promise<number> {
  for (;;) {
    const state = await services.siteGitSync.stateOf(siteId);
    if (state !== undefined && state.operation.state !== 'running') {
      const code = printState(state, print);
      if (state.commit !== undefined) print(`commit ${state.commit}`);
      return code;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
