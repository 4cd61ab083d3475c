import { readdir, readFile, stat } from 'node:fs/promises';
import { join as joinFs } from 'node:path';
import { isInside, join, relativeTo } from '../git-sync/format/paths.js';
import type { Snapshot } from '../git-sync/import/snapshot.js';
import {
  CUSTOMIZATION_FILE,
  type CustomizationFile,
  readCustomizationFile,
} from '../git-sync/site/customization-file.js';
import { nodesOf, readSiteConfig, type SiteConfig } from '../git-sync/site/site-config.js';
import { siteFileOf } from '../git-sync/site/site-file.js';
import type { Violation } from '../git-sync/site/yaml-file.js';

/** Where a site's files are read from: a commit (an import) or a folder (`livery preview`). */
export interface SiteFiles {
  /** The names of the files directly in `dir` (a normal path, '' at the top). */
  namesIn(dir: string): Promise<Set<string>>;
  text(path: string): Promise<string | undefined>;
  /** Whether some file lies below `dir`. */
  hasFilesUnder(dir: string): Promise<boolean>;
}

export type LoadedSite =
  | {
      ok: true;
      config: SiteConfig;
      customization: CustomizationFile | undefined;
      /** Not failures: the file not read when both names exist. */
      warnings: Violation[];
    }
  | { ok: false; violations: Violation[] };

/**
 * Everything a site import reads before it changes anything: docs.yaml (or gitbook-docs.yaml)
 * at the top of `projectDirectory`, checked against every rule; the customization file next to
 * it; and each space node's directory, which must hold files (rule `directory-missing`: an
 * empty space is `content.directory: null`, not a directory that is not there).
 */
export async function loadSite(files: SiteFiles, projectDirectory: string): Promise<LoadedSite> {
  const names = await files.namesIn(projectDirectory);
  const choice = siteFileOf(names);
  if (choice === undefined) {
    const where = projectDirectory === '' ? 'the top of the repository' : `"${projectDirectory}"`;
    return {
      ok: false,
      violations: [
        {
          rule: 'site-file',
          file: join(projectDirectory, 'docs.yaml'),
          message: `no docs.yaml (nor gitbook-docs.yaml) at ${where}: a site import needs one`,
        },
      ],
    };
  }
  const warnings: Violation[] = [];
  if (choice.ignored !== undefined) {
    warnings.push({
      rule: 'site-file',
      file: join(projectDirectory, choice.ignored),
      message: `not read: ${choice.name} is there too, and it is the one read`,
    });
  }
  const file = join(projectDirectory, choice.name);
  const result = readSiteConfig((await files.text(file)) ?? '', file, projectDirectory);
  if (!result.ok) return result;
  const violations: Violation[] = [];
  for (const node of nodesOf(result.config.structure)) {
    if (node.type !== 'space' || node.repositoryDirectory === null) continue;
    if (!(await files.hasFilesUnder(node.repositoryDirectory))) {
      violations.push({
        rule: 'directory-missing',
        file,
        line: node.line,
        key: node.key,
        message: `content.directory ${JSON.stringify(node.directory)} has no files at this commit (null is the way to a variant not fed from this repository)`,
      });
    }
  }
  let customization: CustomizationFile | undefined;
  const customizationPath = join(projectDirectory, CUSTOMIZATION_FILE);
  const customizationText = names.has(CUSTOMIZATION_FILE)
    ? await files.text(customizationPath)
    : undefined;
  if (customizationText !== undefined) {
    const spaceKeys = new Set(
      [...nodesOf(result.config.structure)].filter((n) => n.type === 'space').map((n) => n.key),
    );
    const read = readCustomizationFile(customizationText, customizationPath, spaceKeys);
    if (read.ok) customization = read.customization;
    else violations.push(...read.violations);
  }
  if (violations.length > 0) return { ok: false, violations };
  return { ok: true, config: result.config, customization, warnings };
}

/** A commit's files (an import). */
export function snapshotFiles(snapshot: Snapshot): SiteFiles {
  const byPath = new Map(snapshot.entries.map((e) => [e.path, e]));
  return {
    async namesIn(dir) {
      const names = new Set<string>();
      for (const entry of snapshot.entries) {
        if (!isInside(entry.path, dir) || entry.path === dir) continue;
        const rest = relativeTo(entry.path, dir);
        if (!rest.includes('/')) names.add(rest);
      }
      return names;
    },
    async text(path) {
      const entry = byPath.get(path);
      if (entry === undefined || entry.mode === '160000' || entry.mode === '120000')
        return undefined;
      return (await snapshot.read([entry.oid])).get(entry.oid)?.toString('utf8');
    },
    async hasFilesUnder(dir) {
      return snapshot.entries.some((e) => isInside(e.path, dir) && e.path !== dir);
    },
  };
}

export function loadSiteFiles(snapshot: Snapshot, projectDirectory: string): Promise<LoadedSite> {
  return loadSite(snapshotFiles(snapshot), projectDirectory);
}

/**
 * A folder's files (`livery preview` of a working tree: no git). Paths are normal paths below
 * `root`; symbolic links are read as the files they point to, as an editor would.
 */
export function folderFiles(root: string): SiteFiles {
  const abs = (path: string) => (path === '' ? root : joinFs(root, ...path.split('/')));
  return {
    async namesIn(dir) {
      try {
        const entries = await readdir(abs(dir), { withFileTypes: true });
        return new Set(entries.filter((e) => !e.isDirectory()).map((e) => e.name));
      } catch {
        return new Set();
      }
    },
    async text(path) {
      try {
        return await readFile(abs(path), 'utf8');
      } catch {
        return undefined;
      }
    },
    async hasFilesUnder(dir) {
      try {
        if (!(await stat(abs(dir))).isDirectory()) return false;
        return (await readdir(abs(dir), { recursive: true })).length > 0;
      } catch {
        return false;
      }
    },
  };
}
