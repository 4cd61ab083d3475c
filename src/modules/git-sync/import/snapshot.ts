import type { FormatWarning } from '../format/paths.js';

/**
 * A commit of a repository as the importer reads it: its tree and a way to read blobs. Made by
 * fetch.ts from the `git` command's object database, so nothing is ever read from a working tree
 * (no checkout: a symbolic link is a blob holding its target's name, never followed); or by
 * directory.ts from a folder's working tree (`livery preview`), with the same rules.
 */
export interface TreeEntry {
  path: string;
  /** Git's file mode: `100644`/`100755` files, `120000` symbolic links, `160000` submodules. */
  mode: string;
  oid: string;
  size: number;
}

export interface Snapshot {
  oid: string;
  message: string;
  entries: readonly TreeEntry[];
  /** What the reader could not read (a folder's unreadable file), reported with the import's. */
  warnings?: readonly FormatWarning[];
  /** The blobs' bytes, by oid; read in one stream, in the order asked. */
  read(oids: readonly string[]): Promise<Map<string, Buffer>>;
}
