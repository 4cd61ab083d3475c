import { BoundedCache } from '../../../bounded-cache.js';
import type { Db } from '../../../db/database.js';
import { AppError } from '../../../errors.js';
import type { StoredPage, Tree } from '../tree.js';
import { batches } from './batches.js';
import { type EncodedTree, type PageRecord, remember } from './encode.js';
import { type PageNode, parseNode } from './node.js';

/** Parsed nodes kept, by the length of their JSON. */
const NODE_CACHE_BYTES = 8 * 1024 * 1024;
/** Bodies kept, by length. Mostly the same strings as the cached revisions' pages hold. */
const BODY_CACHE_BYTES = 32 * 1024 * 1024;
/** Bodies per insert statement, past the first: bounded by size as well as by count. */
const INSERT_BYTES = 4 * 1024 * 1024;

export interface ReadTree {
  tree: Tree;
  /** An estimate of its size in memory (nodes' JSON and Markdown), for the revisions cache. */
  bytes: number;
}

/**
 * Pages as nodes and bodies in the database (docs/content.md, "Storage"). Both are immutable and
 * keyed by the hash of their content, so the caches here never go stale, in this process or any
 * other: reading a revision fetches only the nodes and bodies that are not cached yet (after an
 * edit, the edited page and its ancestors), a level of the tree at a time. Rows belong to a space
 * (`space_id`) and go with it.
 */
export class PageStore {
  private readonly nodes = new BoundedCache<PageNode>(NODE_CACHE_BYTES);
  private readonly bodies = new BoundedCache<string>(BODY_CACHE_BYTES);

  /**
   * The tree whose top-level pages are the nodes `roots` (a revision's `page_nodes`). Nodes are
   * fetched a tree level at a time; each level's bodies are fetched while the next level's nodes
   * are (on PostgreSQL, on other connections of the pool).
   */
  async read(db: Db, spaceId: string, roots: readonly string[], what: string): Promise<ReadTree> {
    const nodes = new Map<string, PageNode>();
    const bodies = new Map<string, string>();
    const pending: Promise<void>[] = [];
    try {
      for (let level = roots; level.length > 0; ) {
        await this.fetchNodes(db, spaceId, level, nodes);
        const levelBodies = level.flatMap((hash) => nodes.get(hash)?.body ?? []);
        const fetching = this.fetchBodies(db, spaceId, levelBodies, bodies);
        fetching.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
        pending.push(fetching);
        level = level.flatMap((hash) => nodes.get(hash)?.pages ?? []);
      }
    } finally {
      await Promise.allSettled(pending);
    }
    await Promise.all(pending);

    const index = new Map<string, PageRecord>();
    let bytes = 0;
    const build = (hash: string): StoredPage => {
      const node = nodes.get(hash);
      if (node === undefined) throw missing(what, 'page node', hash);
      const page = { ...node.fields } as StoredPage;
      if (node.fields.target !== undefined) page.target = { ...node.fields.target };
      const markdown = node.body === undefined ? undefined : bodies.get(node.body);
      if (node.body !== undefined) {
        if (markdown === undefined) throw missing(what, 'page body', node.body);
        page.markdown = markdown;
      }
      page.pages = node.pages.map(build);
      index.set(page.id, { ...node, node: hash, markdown });
      bytes += node.size + (markdown?.length ?? 0);
      return page;
    };
    const tree = roots.map(build);
    remember(tree, index);
    return { tree, bytes };
  }

  /**
   * Inserts the nodes and bodies `encoded` names as new, inside the caller's transaction (the
   * revision's). Another process may have inserted some of them meanwhile (the same Markdown
   * written twice): content-addressed rows are identical, so a conflict is nothing to do.
   */
  async write(trx: Db, spaceId: string, encoded: EncodedTree): Promise<void> {
    const bodies = [...encoded.bodies];
    for (const batch of batches(bodies, ([, markdown]) => markdown.length, INSERT_BYTES)) {
      await trx
        .insertInto('page_bodies')
        .values(batch.map(([hash, markdown]) => ({ space_id: spaceId, hash, markdown })))
        .onConflict((oc) => oc.columns(['space_id', 'hash']).doNothing())
        .execute();
    }
    for (const batch of batches([...encoded.nodes])) {
      await trx
        .insertInto('page_nodes')
        .values(batch.map(([hash, node]) => ({ space_id: spaceId, hash, node })))
        .onConflict((oc) => oc.columns(['space_id', 'hash']).doNothing())
        .execute();
    }
  }

  /** After the commit of `encoded`'s revision: its new nodes and bodies are cached. */
  written(encoded: EncodedTree): void {
    for (const [hash, markdown] of encoded.bodies) this.bodies.set(hash, markdown, markdown.length);
    for (const record of encoded.index.values()) {
      if (!encoded.nodes.has(record.node)) continue;
      const { fields, body, pages, size } = record;
      this.nodes.set(record.node, Object.freeze({ fields, body, pages, size }), size);
    }
  }

  private async fetchNodes(
    db: Db,
    spaceId: string,
    hashes: readonly string[],
    into: Map<string, PageNode>,
  ): Promise<void> {
    const missing: string[] = [];
    for (const hash of new Set(hashes)) {
      const cached = this.nodes.get(hash);
      if (cached === undefined) missing.push(hash);
      else into.set(hash, cached);
    }
    await inParallel(batches(missing), async (batch) => {
      const rows = await db
        .selectFrom('page_nodes')
        .select(['hash', 'node'])
        .where('space_id', '=', spaceId)
        .where('hash', 'in', batch)
        .execute();
      for (const row of rows) {
        const node = parseNode(row.node);
        into.set(row.hash, node);
        this.nodes.set(row.hash, node, row.node.length);
      }
    });
  }

  private async fetchBodies(
    db: Db,
    spaceId: string,
    hashes: readonly string[],
    into: Map<string, string>,
  ): Promise<void> {
    const missing: string[] = [];
    for (const hash of new Set(hashes)) {
      const cached = this.bodies.get(hash);
      if (cached === undefined) missing.push(hash);
      else into.set(hash, cached);
    }
    await inParallel(batches(missing), async (batch) => {
      const rows = await db
        .selectFrom('page_bodies')
        .select(['hash', 'markdown'])
        .where('space_id', '=', spaceId)
        .where('hash', 'in', batch)
        .execute();
      for (const row of rows) {
        into.set(row.hash, row.markdown);
        this.bodies.set(row.hash, row.markdown, row.markdown.length);
      }
    });
  }
}

/** Lookups of one read in flight at once: a cold read of a huge space leaves the pool to others. */
const LOOKUPS_IN_FLIGHT = 4;

/** Runs `each` over the items, at most LOOKUPS_IN_FLIGHT at a time (SQLite runs them in turn). */
async function inParallel<T>(items: Iterable<T>, each: (item: T) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  const worker = async () => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) await each(next.value);
  };
  await Promise.all(Array.from({ length: LOOKUPS_IN_FLIGHT }, worker));
}

const missing = (what: string, kind: string, hash: string) =>
  new AppError(500, `${what}: ${kind} ${hash} is missing from the database`);
