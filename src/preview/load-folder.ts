import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { parseDocument } from 'yaml';
import type { buildServices } from '../app.js';
import type { ContentLimits } from '../config.js';
import { GITBOOK_YAML, lineAt } from '../modules/git-sync/format/gitbook-yaml.js';
import { DirectoryReader } from '../modules/git-sync/import/directory.js';
import { ImportFailed, importCommit } from '../modules/git-sync/import/run.js';

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

/**
 * Loads a folder into the preview's space: the one step a `docs.yaml` site importer plugs into
 * (`loadFolder`'s first branch). Each load reads the working tree (DirectoryReader) and runs
 * Git Sync's importer on it, so the preview shows what an import of the same files would;
 * unchanged files are neither parsed nor stored again (the importer's caches), and a folder
 * whose every file is unchanged costs one directory walk.
 */
export class FolderLoader {
  private readonly reader: DirectoryReader;
  private last: { oid: string; problems: Problem[] } | undefined;

  constructor(
    readonly folder: string,
    private readonly target: {
      services: Services;
      spaceId: string;
      limits: ContentLimits;
      log: FastifyBaseLogger;
    },
  ) {
    this.reader = new DirectoryReader(folder);
  }

  /** docs/preview.md, "What it reads". */
  async load(): Promise<LoadOutcome> {
    const siteFile = SITE_FILES.find((name) => existsSync(join(this.folder, name)));
    if (siteFile !== undefined) {
      // No site importer yet: the folder's root is read as one space (docs/preview.md).
      const outcome = await this.loadSpace();
      outcome.notices.unshift(
        `${siteFile}: this folder describes a whole site, which Livery cannot import yet; its root is previewed as one space`,
      );
      return outcome;
    }
    return this.loadSpace();
  }

  private async loadSpace(): Promise<LoadOutcome> {
    const snapshot = await this.reader.snapshot();
    const { services, spaceId } = this.target;
    // A .gitbook.yaml that is not YAML (often a save halfway through an edit) would make the
    // import fall back to GitBook's defaults (another root, other files): the last good content
    // stays instead, once there is one.
    const config = snapshot.entries.find((e) => e.path === GITBOOK_YAML);
    if (config !== undefined && this.last !== undefined) {
      const text = (await snapshot.read([config.oid])).get(config.oid)?.toString('utf8') ?? '';
      const error = parseDocument(text, { prettyErrors: false, uniqueKeys: true }).errors[0];
      if (error !== undefined) {
        return {
          changed: false,
          kept: true,
          notices: [],
          problems: [
            {
              severity: 'error',
              file: GITBOOK_YAML,
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
        projectDirectory: '',
        actor: null,
        lastCommit: this.last?.oid ?? null,
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
      if (outcome.kind === 'unchanged' && this.last !== undefined) {
        return { changed: false, kept: false, notices: [], problems: this.last.problems };
      }
      const problems = warnings.map((w): Problem => ({ severity: 'warning', ...w }));
      this.last = { oid: outcome.commit, problems };
      return { changed: true, kept: false, notices: [], problems };
    } catch (error) {
      if (!(error instanceof ImportFailed)) throw error;
      return {
        changed: false,
        kept: this.last !== undefined,
        notices: [],
        problems: [
          { severity: 'error', file: '.', message: error.message },
          ...error.warnings.map((w): Problem => ({ severity: 'warning', ...w })),
        ],
      };
    }
  }
}

const firstLine = (text: string) => text.split('\n')[0] ?? text;
