import type { ChangeRequestRow } from '../../db/schema.js';
import { AppError, conflict } from '../../errors.js';
import { newId } from '../../ids.js';
import { type Conflict, mergeTrees } from './merge.js';
import type { ContentRepository, NewRevision, Revision } from './repository.js';
import type { Tree } from './tree.js';

/**
 * A space's revision history as merges need it: which pages each side of a change request
 * touched since their common base, and the two sides combined (docs/content.md, "Merging").
 */
export class RevisionHistory {
  constructor(private readonly repo: ContentRepository) {}

  /**
   * The change request's content combined with the space's: its own pages when the space has not
   * moved since its base, else a three-way merge of the pages each side touched since the base.
   */
  async combine(row: ChangeRequestRow, spaceRevision: string, action: string) {
    const ours = await this.revision(row.revision_id);
    const oursTouched = await this.touchedSince(row.revision_id, row.revision_initial);
    const base = baseOf(row);
    if (spaceRevision === base) return { tree: ours.pages, touched: oursTouched };
    const theirs = await this.revision(spaceRevision);
    const theirsTouched = await this.touchedSince(spaceRevision, base);
    const merged = mergeTrees({
      ours: ours.pages,
      oursTouched,
      theirs: theirs.pages,
      theirsTouched,
    });
    if (merged.conflicts !== undefined) throw conflicted(row, merged.conflicts, action);
    return { tree: merged.tree, touched: oursTouched };
  }

  /** Pages changed along the first-parent chain from `from` back to `until`. */
  async touchedSince(from: string, until: string): Promise<Set<string>> {
    const touched = new Set<string>();
    let id: string | undefined = from;
    while (id !== undefined && id !== until) {
      const revision: Revision = await this.revision(id);
      for (const page of revision.touched) touched.add(page);
      id = revision.parents[0];
    }
    return touched;
  }

  async revision(id: string): Promise<Revision> {
    const revision = await this.repo.revision(id);
    if (revision === undefined) throw new AppError(500, `Revision ${id} is missing`);
    return revision;
  }
}

/** The base a change request's changes are counted from: its last update, else its creation. */
export const baseOf = (row: ChangeRequestRow) =>
  row.revision_merged_ancestor ?? row.revision_initial;

export function newRevision(
  spaceId: string,
  type: NewRevision['type'],
  parents: string[],
  pages: Tree,
  touched: Iterable<string>,
  userId: string,
  at: string,
): NewRevision {
  return {
    id: newId(),
    spaceId,
    type,
    parents,
    pages,
    touched,
    createdBy: userId,
    createdAt: at,
  };
}

function conflicted(row: ChangeRequestRow, conflicts: Conflict[], action: string): AppError {
  const pages = conflicts
    .map((c) => `${JSON.stringify(c.title)} (${c.page}): ${c.reason}`)
    .join('; ');
  return conflict(
    `Change request ${row.number} cannot ${action === 'merge' ? 'be merged' : 'be updated'}: conflicting pages: ${pages}`,
  );
}
