import { BoundedCache } from '../../../bounded-cache.js';
import type { Db } from '../../../db/database.js';
import type { RevisionRow } from '../../../db/schema.js';
import type { Tree } from '../tree.js';
import { type EncodedTree, encodeTree, indexOf, remember, type TreeIndex } from './encode.js';
import { PageStore } from './page-store.js';

/** A revision, parsed. Revisions never change, so parsed ones are kept (see `revisions`). */
export interface Revision {
  id: string;
  spaceId: string;
  type: RevisionRow['type'];
  parents: string[];
  mergedFrom: string | null;
  pages: Tree;
  touched: ReadonlySet<string>;
  createdAt: string;
  /** The commit it was imported from (docs/git-sync.md). */
  git?: GitCommit;
  /** Imported without becoming the space's current revision (`standalone`). */
  standalone?: boolean;
  /** Its files and reusable contents (content_sets hashes), when it has any. */
  files?: string;
  reusableContents?: string;
  /** `.gitbook.yaml`'s redirects: old path → page id. */
  redirects?: Readonly<Record<string, string>>;
}

/** GitBook's GitSyncCommit. */
export interface GitCommit {
  oid: string;
  message: string;
  createdByGitBook: boolean;
  url?: string;
  ref?: string;
}

export interface NewRevision {
  id: string;
  spaceId: string;
  type: RevisionRow['type'];
  parents: string[];
  mergedFrom?: string;
  pages: Tree;
  touched: Iterable<string>;
  createdBy: string | null;
  createdAt: string;
  git?: GitCommit;
  standalone?: boolean;
  /**
   * Its files and reusable contents; absent: those of its first parent (an edit keeps the files
   * its revision had), null: none.
   */
  files?: string | null;
  reusableContents?: string | null;
  redirects?: Readonly<Record<string, string>> | null;
}

/** A new revision ready to be inserted: its row, and its pages as nodes and bodies. */
export interface PreparedRevision {
  revision: Revision;
  row: RevisionRow;
  encoded: EncodedTree;
}

/** Parsed revisions kept, by the size of their pages (nodes and Markdown): trees can be large. */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Revisions in the database (docs/content.md, "Storage"): a row of metadata and the node hashes
 * of the top-level pages; the pages themselves are nodes and bodies shared between revisions
 * (page-store.ts). Writing one is prepare → insert (inside the caller's transaction) → committed.
 */
export class RevisionStore {
  /** Parsed revisions by id. */
  private readonly revisions = new BoundedCache<Revision>(CACHE_BYTES);
  private readonly pages = new PageStore();

  constructor(private readonly db: Db) {}

  async read(id: string): Promise<Revision | undefined> {
    const cached = this.revisions.get(id);
    if (cached !== undefined) return cached;
    const row = await this.db
      .selectFrom('revisions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const roots = JSON.parse(row.page_nodes) as string[];
    const { tree, bytes } = await this.pages.read(this.db, row.space_id, roots, `Revision ${id}`);
    const revision = parsed(row, tree);
    this.revisions.set(id, revision, bytes + row.touched.length);
    return revision;
  }

  /**
   * The revision's row and its pages as nodes and bodies, each page compared with the same page
   * of the revision's parents: only what differs is serialized and hashed (encode.ts). Done
   * before the transaction, which then only inserts (SQLite has one connection for everyone).
   */
  async prepare(revision: NewRevision): Promise<PreparedRevision> {
    const priors: TreeIndex[] = [];
    let first: Revision | undefined;
    for (const parent of revision.parents) {
      const stored = await this.read(parent);
      first ??= stored;
      const index = stored === undefined ? undefined : indexOf(stored.pages);
      if (index !== undefined) priors.push(index);
    }
    const encoded = encodeTree(revision.pages, priors);
    const row: RevisionRow = {
      id: revision.id,
      space_id: revision.spaceId,
      type: revision.type,
      parents: JSON.stringify(revision.parents),
      merged_from: revision.mergedFrom ?? null,
      page_nodes: JSON.stringify(encoded.roots),
      touched: JSON.stringify([...revision.touched]),
      created_by: revision.createdBy,
      created_at: revision.createdAt,
      // `standalone` rides in the commit's JSON (Livery's own key, never shown).
      git:
        revision.git === undefined
          ? null
          : JSON.stringify(
              revision.standalone === true ? { ...revision.git, standalone: true } : revision.git,
            ),
      files: revision.files === undefined ? (first?.files ?? null) : revision.files,
      reusable_contents:
        revision.reusableContents === undefined
          ? (first?.reusableContents ?? null)
          : revision.reusableContents,
      redirects:
        revision.redirects === undefined
          ? first?.redirects === undefined
            ? null
            : JSON.stringify(first.redirects)
          : revision.redirects === null
            ? null
            : JSON.stringify(revision.redirects),
    };
    return { revision: parsed(row, revision.pages), row, encoded };
  }

  /** Inserts the revision, with the nodes and bodies its parents did not have. */
  async insert(trx: Db, { row, encoded }: PreparedRevision): Promise<void> {
    await this.pages.write(trx, row.space_id, encoded);
    await trx.insertInto('revisions').values(row).execute();
  }

  /**
   * After the commit: the revision is kept as if read, so that reading it (the next edit starts
   * from it) costs nothing; its new nodes and bodies are cached.
   */
  committed({ revision, encoded }: PreparedRevision): void {
    this.pages.written(encoded);
    remember(revision.pages, encoded.index);
    this.revisions.set(revision.id, revision, encoded.bytes + revision.touched.size * 24);
  }
}

function parsed(row: RevisionRow, pages: Tree): Revision {
  return {
    id: row.id,
    spaceId: row.space_id,
    type: row.type,
    parents: JSON.parse(row.parents) as string[],
    mergedFrom: row.merged_from,
    pages,
    touched: new Set(JSON.parse(row.touched) as string[]),
    createdAt: row.created_at,
    ...(row.git === null ? {} : gitOf(row.git)),
    ...(row.files === null ? {} : { files: row.files }),
    ...(row.reusable_contents === null ? {} : { reusableContents: row.reusable_contents }),
    ...(row.redirects === null
      ? {}
      : { redirects: JSON.parse(row.redirects) as Record<string, string> }),
  };
}

function gitOf(json: string): { git: GitCommit; standalone?: true } {
  const { standalone, ...git } = JSON.parse(json) as GitCommit & { standalone?: boolean };
  return standalone === true ? { git, standalone: true } : { git };
}
