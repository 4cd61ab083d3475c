import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildServices } from './app.js';
import {
  configForGitCli,
  gitExport,
  gitExportSite,
  gitImport,
  gitImportSite,
  gitLink,
  gitStatus,
  gitSync,
  gitUnlink,
} from './cli-git.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './errors.js';
import { runPreview } from './preview/command.js';

const USAGE = `Usage: npm run livery -- <command>

  preview <folder> [--port N]                      serve a folder (a space) on 127.0.0.1, read-only,
                                                   with a throwaway database; edits show live
                                                   (docs/preview.md; default port 4000)
  tokens create --user <userId> [--label <text>]   print a new API token for a user
  tokens revoke <tokenId>                          revoke a token (it stops working at once)
  tokens list [--user <userId>]                    list tokens (ids only, never secrets)
  orgs create --title <title> [--owner <name>]     new organization + owner (admin) + token
  orgs list                                        list organizations and their admins
  site-token-keys list                             keys that sign site tokens (ids, dates)
  site-token-keys rotate                           sign new site tokens with a new key; the
                                                   old one verifies its tokens until they expire
  git import <spaceId> <url|path> [--ref <ref>] [--dir <projectDirectory>]
                                                   import a GitBook-synced repository (a local
                                                   checkout by path, or a URL) and wait for it
  git export <spaceId> <url|path> [--ref <branch>] [--dir <projectDirectory>] [--message <text>]
                                                   write the space to a branch as GitBook's Git
                                                   Sync does (one commit), and wait for it
  git link <spaceId> <url|path> [--ref <branch>] [--dir <d>] [--priority git|livery]
           [--poll <seconds>] [--previews]         link the space to a branch (two-way sync);
                                                   prints the webhook's address and secret
  git sync <spaceId>                               sync a linked space now, and wait for it
  git unlink <spaceId>                             stop syncing (both sides keep what they have)
  git status <spaceId>                             the space's last Git Sync operation
  git import-site <siteId> <url|path> [--ref <ref>] [--dir <projectDirectory>]
                                                   import a whole site from its docs.yaml
                                                   (sections, variants, customization) and wait
  git export-site <siteId> <url|path> [--ref <branch>] [--dir <d>] [--message <text>]
                                                   write the whole site (docs.yaml, each space,
                                                   livery-customization.yaml) as one commit

Reads DATABASE_URL like the server (default sqlite:./data/livery.db).`;

type Services = ReturnType<typeof buildServices>;
type Print = (line: string) => void;

/** Runs one command; returns the process exit code. */
export async function runCli(args: string[], services: Services, print: Print): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      user: { type: 'string' },
      label: { type: 'string' },
      title: { type: 'string' },
      owner: { type: 'string' },
      ref: { type: 'string' },
      dir: { type: 'string' },
      message: { type: 'string' },
      priority: { type: 'string' },
      poll: { type: 'string' },
      previews: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [area, command, target] = positionals;
  const { identity } = services;

  if (area === 'tokens' && command === 'create' && values.user !== undefined) {
    const { id, token } = await identity.createToken(values.user, { label: values.label });
    print(`token id: ${id}`);
    print(`token:    ${token}`);
    print('The token is shown once; store it now.');
    return 0;
  }
  if (area === 'tokens' && command === 'revoke' && target !== undefined) {
    if (await identity.revokeToken(target)) {
      print(`revoked ${target}`);
      return 0;
    }
    print(`no active token with id ${target}`);
    return 1;
  }
  if (area === 'tokens' && command === 'list') {
    for (const t of await identity.listTokens(values.user)) {
      const state = t.revoked_at === null ? 'active' : `revoked ${t.revoked_at}`;
      print(`${t.id}  user ${t.user_id}  ${t.label ?? '-'}  created ${t.created_at}  ${state}`);
    }
    return 0;
  }
  if (area === 'orgs' && command === 'create' && values.title !== undefined) {
    if (values.title.length < 2 || values.title.length > 255) {
      print('--title must be 2 to 255 characters long');
      return 2;
    }
    const created = await identity.createOrganizationWithOwner({
      title: values.title,
      ownerName: values.owner ?? 'Owner',
    });
    print(`organization: ${created.organization.id}  ${created.organization.title}`);
    print(`owner user:   ${created.user.id}  (role admin)`);
    print(`token id:     ${created.tokenId}`);
    print(`token:        ${created.token}`);
    print('The token is shown once; store it now.');
    return 0;
  }
  if (area === 'site-token-keys' && command === 'list') {
    for (const k of await services.siteTokenKeys.list()) {
      print(
        `${k.id}  created ${k.createdAt}  ${k.retiredAt === null ? 'current' : `retired ${k.retiredAt}`}`,
      );
    }
    return 0;
  }
  if (area === 'site-token-keys' && command === 'rotate') {
    print(
      `new key ${await services.siteTokenKeys.rotate()}; the previous one verifies its tokens until they expire (at most 65 minutes)`,
    );
    return 0;
  }
  if (area === 'orgs' && command === 'list') {
    for (const o of await identity.listOrganizationsWithOwners()) {
      print(`${o.id}  ${o.title}  created ${o.created_at}  admin ${o.user_id ?? '-'}`);
    }
    return 0;
  }
  const source = positionals[3];
  if (area === 'git' && command === 'import' && target !== undefined && source !== undefined) {
    return gitImport(services, target, source, { ref: values.ref, dir: values.dir }, print);
  }
  if (area === 'git' && command === 'export' && target !== undefined && source !== undefined) {
    return gitExport(services, target, source, values, print);
  }
  if (area === 'git' && command === 'import-site' && target !== undefined && source !== undefined) {
    return gitImportSite(services, target, source, values, print);
  }
  if (area === 'git' && command === 'export-site' && target !== undefined && source !== undefined) {
    return gitExportSite(services, target, source, values, print);
  }
  if (area === 'git' && command === 'link' && target !== undefined && source !== undefined) {
    return gitLink(services, target, source, values, print);
  }
  if (area === 'git' && (command === 'sync' || command === 'unlink') && target !== undefined) {
    return command === 'sync'
      ? gitSync(services, target, print)
      : gitUnlink(services, target, print);
  }
  if (area === 'git' && command === 'status' && target !== undefined) {
    return gitStatus(services, target, print);
  }
  print(USAGE);
  return values.help ? 0 : 2;
}

async function main(): Promise<number> {
  // The preview has its own throwaway database: no DATABASE_URL, no migrations here.
  if (process.argv[2] === 'preview') {
    return runPreview(process.argv.slice(3), {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    });
  }
  const config = configForGitCli(process.argv.slice(2), loadConfig());
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await runCli(process.argv.slice(2), buildServices({ config, db }), (line) =>
      process.stdout.write(`${line}\n`),
    );
  } finally {
    await db.destroy();
  }
}

/** Runs the command line of this process and exits with its code (also bin/livery.js). */
export function runAsProgram(): void {
  main()
    .then((code) => process.exit(code))
    .catch((error: unknown) => {
      if (error instanceof ConfigError || error instanceof AppError) {
        process.stderr.write(`${error.message}\n`);
      } else if (error instanceof TypeError && 'code' in error) {
        process.stderr.write(`${error.message}\n\n${USAGE}\n`); // parseArgs: unknown option
      } else {
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      }
      process.exit(1);
    });
}

// Only when run as a program (tests import runCli).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAsProgram();
}
