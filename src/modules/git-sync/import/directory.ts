import { createHash } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { FormatWarning as Warning } from '../format/paths.js';
import type { Snapshot, TreeEntry } from './snapshot.js';

/**
 * A folder's working tree as the importer reads a commit (`livery preview`, docs/preview.md):
 * every file below it, saved edits included, whether or not it is a Git repository. Beside
 * fetch.ts's reader of Git objects, so that both go through the one importer (run.ts) with its
 * parsing, page and file mapping and limits.
 *
 * Safety, as for a commit, nothing is read outside the folder: a symbolic link is followed only
 * when its target, resolved, is inside the folder (a link that escapes it, or dangles, is listed
 * as a link, which the importer refuses with a warning), and files are opened by their resolved
 * path with O_NOFOLLOW. `.git` and `node_modules` directories are not read (a commit never holds
 * the first; the second is a dependency folder, never a space's content).
 *
 * Each file's oid is Git's blob id of its bytes, so the importer's caches (a page parsed once,
 * a file stored once) work as with commits. Hashes are kept by the file's stat (inode, size,
 * mtime, ctime) between snapshots; a file changed within a second of its hashing is hashed again
 * (Git's "racy" rule: a second write in the same clock tick leaves the stat unchanged).
 */
export class DirectoryReader {
  private readonly hashes = new Map<string, { stat: string; oid: string; at: number }>();

  constructor(readonly folder: string) {}

  async snapshot(): Promise<Snapshot> {
    const root = await realpath(this.folder);
    const entries: TreeEntry[] = [];
    const where = new Map<string, string>();
    const warnings: Warning[] = [];
    const seen = new Set<string>([root]);
    const kept = new Set<string>();
    const walk = async (dir: string, prefix: string): Promise<void> => {
      let children: Dirent[];
      try {
        children = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        warnings.push({
          file: prefix || '.',
          message: `the folder cannot be read (${codeOf(error)})`,
        });
        return;
      }
      children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const child of children) {
        if (child.name === '.git' || child.name === 'node_modules') continue;
        const path = prefix === '' ? child.name : `${prefix}/${child.name}`;
        let real = join(dir, child.name);
        if (child.isSymbolicLink()) {
          const target = await realpath(real).catch(() => undefined);
          if (target === undefined || !(target === root || target.startsWith(`${root}${sep}`))) {
            // Outside the folder, or nowhere: the importer's "symbolic link, not followed".
            entries.push({ path, mode: '120000', oid: linkOid(path), size: 0 });
            continue;
          }
          real = target;
        } else if (!child.isDirectory() && !child.isFile()) continue;
        const facts = await stat(real, { bigint: true }).catch(() => undefined);
        if (facts === undefined) continue; // gone meanwhile: the next change event reads again
        if (facts.isDirectory()) {
          if (seen.has(real)) continue; // a link back up: each directory once
          seen.add(real);
          await walk(real, path);
        } else if (facts.isFile()) {
          const key = `${facts.ino}:${facts.size}:${facts.mtimeNs}:${facts.ctimeNs}`;
          const oid = await this.oidOf(real, key, Number(facts.mtimeMs)).catch((error) => {
            warnings.push({ file: path, message: `the file cannot be read (${codeOf(error)})` });
            return undefined;
          });
          if (oid === undefined) continue;
          kept.add(real);
          entries.push({ path, mode: '100644', oid, size: Number(facts.size) });
          where.set(oid, real);
        }
      }
    };
    await walk(root, '');
    for (const path of this.hashes.keys()) if (!kept.has(path)) this.hashes.delete(path);
    const tree = createHash('sha1');
    for (const e of entries) tree.update(`${e.mode} ${e.path}\0${e.oid}\n`);
    return {
      oid: tree.digest('hex'),
      message: `Working tree of ${relative(process.cwd(), root) || '.'}`,
      entries,
      warnings,
      read: async (oids) => {
        const out = new Map<string, Buffer>();
        for (const oid of oids) {
          const path = where.get(oid);
          if (path === undefined || out.has(oid)) continue;
          const bytes = await readNoFollow(path).catch(() => undefined);
          if (bytes !== undefined) out.set(oid, bytes);
        }
        return out;
      },
    };
  }

  private async oidOf(path: string, stat: string, mtimeMs: number): Promise<string> {
    const known = this.hashes.get(path);
    if (known !== undefined && known.stat === stat && known.at - mtimeMs > 1000) return known.oid;
    const bytes = await readNoFollow(path);
    const oid = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    this.hashes.set(path, { stat, oid, at: Date.now() });
    return oid;
  }
}

async function readNoFollow(path: string): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** A link's stand-in oid (its bytes are never read). */
const linkOid = (path: string) => createHash('sha1').update(`link\0${path}`).digest('hex');

const codeOf = (error: unknown) =>
  (error as { code?: unknown } | undefined)?.code?.toString() ?? 'unreadable';
