import { createHash } from 'node:crypto';
import { contentTypeOf, imageDimensions } from '../../files/file-types.js';
import type { StoredFile } from '../../files/repository.js';
import { isLfsPointer } from '../git-command.js';
import type { Warning } from './build-tree.js';
import type { TreeEntry } from './snapshot.js';

/**
 * Which files of the space's root become revision files (docs/git-sync.md, "Files"): everything
 * under `.gitbook/assets/`, and every other non-Markdown file a page or include names (a link,
 * `src`, `url` or `href` resolving to it). Found by a scan of each page's text for paths, not a
 * parse: a path that only looks referenced (in a code sample) is imported too, which costs a
 * file, never a broken page.
 */
const REFERENCE =
  /\]\(\s*<([^>\n]+)>|\]\(\s*([^)\s]+)|\b(?:src|url|href|srcset)\s*=\s*"([^"\n]+)"/g;

export function referencedPaths(
  pageFile: string,
  markdown: string,
  resolve: (from: string, target: string) => string | undefined,
): Set<string> {
  const found = new Set<string>();
  for (const match of markdown.matchAll(REFERENCE)) {
    const raw = match[1] ?? match[2] ?? match[3];
    if (raw === undefined || /^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(raw)) continue;
    const path = resolve(pageFile, raw.split(/[?#]/)[0] ?? '');
    if (path !== undefined && path !== '') found.add(path);
  }
  return found;
}

export interface FileCandidate {
  /** Path in the space's root. */
  path: string;
  entry: TreeEntry;
}

/**
 * The revision files: each candidate read (in batches, so memory holds one batch), hashed and
 * stored; a file whose blob the space's previous files had is not read again.
 */
export async function importFiles(input: {
  candidates: readonly FileCandidate[];
  previous: readonly StoredFile[];
  maxBytes: number;
  maxFiles: number;
  read: (oids: readonly string[]) => Promise<Map<string, Buffer>>;
  /** Stores a batch's bytes (a few transactions, not one per file). */
  store: (blobs: readonly { hash: string; data: Buffer }[]) => Promise<void>;
  newId: () => string;
  warnings: Warning[];
  /** The path of each candidate in the repository, for warnings. */
  repoPath: (path: string) => string;
}): Promise<StoredFile[]> {
  const byPath = new Map(input.previous.map((file) => [file.path, file]));
  const byOid = new Map(input.previous.filter((f) => f.oid !== undefined).map((f) => [f.oid, f]));
  const out: StoredFile[] = [];
  const toRead: FileCandidate[] = [];
  for (const candidate of input.candidates) {
    if (candidate.entry.size > input.maxBytes) {
      input.warnings.push({
        file: input.repoPath(candidate.path),
        message: `the file is ${candidate.entry.size} bytes, over FILE_MAX_BYTES (${input.maxBytes}): not imported`,
      });
      continue;
    }
    if (out.length + toRead.length >= input.maxFiles) {
      input.warnings.push({
        file: input.repoPath(candidate.path),
        message: `the space has SPACE_MAX_FILES (${input.maxFiles}) files already: not imported`,
      });
      continue;
    }
    const known = byOid.get(candidate.entry.oid);
    if (known !== undefined) {
      const id = byPath.get(candidate.path)?.id ?? input.newId();
      out.push(fileRecord(candidate, id, input.repoPath(candidate.path), known));
    } else toRead.push(candidate);
  }
  // Batches of at most 32 MiB of blobs.
  let batch: FileCandidate[] = [];
  let bytes = 0;
  const flush = async () => {
    const blobs = await input.read(batch.map((c) => c.entry.oid));
    const hashes = new Map<string, string>();
    for (const [oid, data] of blobs) {
      hashes.set(oid, createHash('sha256').update(data).digest('base64url'));
    }
    await input.store(
      [...blobs]
        .filter(([, data]) => !isLfsPointer(data))
        .map(([oid, data]) => ({ hash: hashes.get(oid) ?? '', data })),
    );
    for (const candidate of batch) {
      const data = blobs.get(candidate.entry.oid);
      const hash = hashes.get(candidate.entry.oid);
      if (data === undefined || hash === undefined) continue;
      if (isLfsPointer(data)) {
        input.warnings.push({
          file: input.repoPath(candidate.path),
          message: 'a Git LFS pointer (Livery does not fetch LFS objects): not imported',
        });
        continue;
      }
      const contentType = contentTypeOf(candidate.path);
      const size = imageDimensions(data, contentType);
      out.push(
        fileRecord(
          candidate,
          byPath.get(candidate.path)?.id ?? input.newId(),
          input.repoPath(candidate.path),
          {
            hash,
            size: data.length,
            contentType,
            ...(size === undefined ? {} : size),
          },
        ),
      );
    }
    batch = [];
    bytes = 0;
  };
  for (const candidate of toRead) {
    batch.push(candidate);
    bytes += candidate.entry.size;
    if (bytes > 32 * 1024 * 1024 || batch.length >= 256) await flush();
  }
  if (batch.length > 0) await flush();
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function fileRecord(
  candidate: FileCandidate,
  id: string,
  gitPath: string,
  facts: Pick<StoredFile, 'hash' | 'size' | 'contentType'> & { width?: number; height?: number },
): StoredFile {
  return {
    id,
    name: candidate.path.split('/').at(-1) ?? candidate.path,
    path: candidate.path,
    contentType: facts.contentType,
    size: facts.size,
    hash: facts.hash,
    oid: candidate.entry.oid,
    gitPath,
    ...(facts.width === undefined || facts.height === undefined
      ? {}
      : { width: facts.width, height: facts.height }),
  };
}
