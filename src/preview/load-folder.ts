import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { parseDocument } from 'yaml';
import type { buildServices } from '../app.js';
import type { ContentLimits } from '../config.js';
import type { Db } from '../db/database.js';
import { GITBOOK_YAML, lineAt } from '../modules/git-sync/format/gitbook-yaml.js';
import { isInside, join } from '../modules/git-sync/format/paths.js';
import { DirectoryReader } from '../modules/git-sync/import/directory.js';
import { ImportFailed, importCommit } from '../modules/git-sync/import/run.js';
import type { Snapshot } from '../modules/git-sync/import/snapshot.js';
import { SiteLoader } from './load-site.js';
import type { PreviewSite } from './site.js';

type Services = ReturnType<typeof buildServices>;

/** Something wrong in the folder, as the terminal and the page's banner show it. */
export interface Problem {
  severity: 'error' | 'warning';
  /** The file's path in the folder. */
  file: string;
  line?: number;
  message: string;
}

export interface LoadOutcome {
  /** Whether what the site shows changed. */
  changed: boolean;
  /** An error kept the last good content in place. */
  kept: boolean;
  problems: Problem[];
  /** Notices for the terminal only (what kind of folder this is). */
  notices: string[];
}

/** GitBook's two names for a whole site's description (reference §1.3). */
export const SITE_FILES = ['docs.yaml', 'gitbook-docs.yaml'] as const;

export interface LoadTarget {
  services: Services;
  db: Db;
  site: PreviewSite;
  limits: ContentLimits;
  log: FastifyBaseLogger;
}

/**
 * Loads a folder into the preview's site (docs/preview.md, "What it reads"). Each load reads the
 * working tree once (DirectoryReader: one Snapshot, as a commit is for an import); a folder with
 * docs.yaml is a whole site (load-site.ts), any other folder one space. Either way each space is
 * imported by Git Sync's importer (`importSpace`), so the preview shows what an import of the
 * same files would; unchanged files are neither parsed nor stored again (the importer's caches),
 * and a space whose files are all unchanged is not imported at all.
 */
export class FolderLoader {
  private readonly reader: DirectoryReader;
  /** Per space: the last good import (its files' digest) and its warnings. */
  private readonly last = new Map<string, { oid: string; problems: Problem[] }>();
  private readonly site: SiteLoader;

  constructor(
    readonly folder: string,
    private readonly target: LoadTarget,
  ) {
    this.reader = new DirectoryReader(folder);
    this.site = new SiteLoader(target, (spaceId, directory, snapshot) =>
      this.importSpace(spaceId, directory, snapshot),
    );
  }

  /** Whether the folder, as it is now, describes a whole site. */
  async isSite(): Promise<boolean> {
    return siteFileIn(await this.reader.snapshot()) !== undefined;
  }

  async load(): Promise<LoadOutcome> {
    const snapshot = await this.reader.snapshot();
    if (this.site.active || siteFileIn(snapshot) !== undefined) return this.site.load(snapshot);
    const outcome = await this.importSpace(this.target.site.spaceId, '', snapshot);
    return { ...outcome, notices: [] };
  }

  /**
   * One space from `directory` of the snapshot ('' = the folder): the space import's importer,
   * given the snapshot as its commit. Only files under `directory` make the space's digest, so
   * a change elsewhere in the folder leaves the space as it is, without an import.
   */
  async importSpace(
    spaceId: string,
    directory: string,
    whole: Snapshot,
  ): Promise<Omit<LoadOutcome, 'notices'>> {
    const snapshot = directory === '' ? whole : withinDirectory(whole, directory);
    const { services } = this.target;
    const last = this.last.get(spaceId);
    // A .gitbook.yaml that is not YAML (often a save halfway through an edit) would make the
    // import fall back to GitBook's defaults (another root, other files): the last good content
    // stays instead, once there is one.
    const configPath = join(directory, GITBOOK_YAML);
    const config = snapshot.entries.find((e) => e.path === configPath);
    if (config !== undefined && last !== undefined) {
      const text = (await snapshot.read([config.oid])).get(config.oid)?.toString('utf8') ?? '';
      const error = parseDocument(text, { prettyErrors: false, uniqueKeys: true }).errors[0];
      if (error !== undefined) {
        return {
          changed: false,
          kept: true,
          problems: [
            {
              severity: 'error',
              file: configPath,
              line: lineAt(text, error.pos[0]),
              message: `invalid YAML (${error.code}: ${firstLine(error.message)}); the last good content is shown`,
            },
          ],
        };
      }
    }
    // Every warning, the table of contents' too, is what the import ends its operation with.
    let warnings: readonly { file: string; line?: number; message: string }[] = [];
    try {
      const outcome = await importCommit({
        spaceId,
        fetchUrl: this.folder,
        request: { url: this.folder, ref: 'working tree' },
        projectDirectory: directory,
        actor: null,
        lastCommit: last?.oid ?? null,
        signal: new AbortController().signal,
        spaces: services.spaces,
        content: services.contentRepository,
        files: services.filesRepository,
        source: { snapshot: async () => snapshot },
        limits: this.target.limits,
        log: this.target.log,
        end: async (_trx, all) => {
          warnings = all;
          return true;
        },
      });
      if (outcome.kind === 'unchanged' && last !== undefined) {
        return { changed: false, kept: false, problems: last.problems };
      }
      const problems = warnings.map((w): Problem => ({ severity: 'warning', ...w }));
      this.last.set(spaceId, { oid: outcome.commit, problems });
      return { changed: true, kept: false, problems };
    } catch (error) {
      if (!(error instanceof ImportFailed)) throw error;
      return {
        changed: false,
        kept: last !== undefined,
        problems: [
          { severity: 'error', file: directory === '' ? '.' : directory, message: error.message },
          ...error.warnings.map((w): Problem => ({ severity: 'warning', ...w })),
        ],
      };
    }
  }
}

/** The site file at the top of the folder, if any (docs.yaml first, as the site import). */
export function siteFileIn(snapshot: Snapshot): string | undefined {
  return SITE_FILES.find((name) => snapshot.entries.some((e) => e.path === name));
}

/**
 * The snapshot as one space's import sees it: every entry (the importer itself keeps to the
 * directory), with an oid that is the digest of the directory's files only, so that the
 * importer's "unchanged commit" answer holds for a space none of whose files changed. The
 * folder's unreadable files are reported once by the site, not by each space.
 */
function withinDirectory(snapshot: Snapshot, directory: string): Snapshot {
  const hash = createHash('sha1');
  for (const entry of snapshot.entries) {
    if (isInside(entry.path, directory)) hash.update(`${entry.mode} ${entry.oid} ${entry.path}\n`);
  }
  return {
    oid: hash.digest('hex'),
    message: snapshot.message,
    entries: snapshot.entries,
    read: (oids) => snapshot.read(oids),
  };
}

const firstLine = (text: string) => text.split('\n')[0] ?? text;
