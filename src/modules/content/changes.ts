import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { slugify, uniqueSlug } from '../../slug.js';
import {
  cloneTree,
  findById,
  type LinkTarget,
  type Located,
  type PageType,
  type StoredPage,
  slugProblem,
  subtreeIds,
  type Tree,
} from './tree.js';

/** One entry of `updateChangeRequestContent`'s `changes` (GitBook 0.202, plus `type`/`target`). */
export interface PageChange {
  operation: 'insert_page' | 'update_page' | 'delete_page';
  page?: string;
  title?: string;
  slug?: string;
  emoji?: string;
  description?: string;
  hidden?: boolean;
  document?: { markdown?: string; document?: unknown };
  into?: string | null;
  at?: number;
  type?: PageType;
  target?: LinkTarget;
}

export interface AppliedChanges {
  tree: Tree;
  /** Every page the list inserted, changed, moved or deleted (merges compare these). */
  touched: Set<string>;
}

/**
 * Applies a change list to a copy of `tree`, in order, all or nothing: the first bad change
 * throws (400, or 409 for a slug already taken) naming `changes[i]`, and nothing is kept.
 */
export function applyChanges(
  tree: Tree,
  changes: readonly PageChange[],
  at: string,
  makeId: () => string = newId,
): AppliedChanges {
  const state = { tree: cloneTree(tree), touched: new Set<string>(), deletedBy: new Map() };
  for (const [index, change] of changes.entries()) {
    try {
      if (change.operation === 'insert_page') insertPage(state, change, at, makeId);
      else if (change.operation === 'update_page') updatePage(state, change, at);
      else deletePage(state, change, index);
    } catch (error) {
      if (error instanceof ChangeProblem) {
        throw new AppError(error.status, `changes[${index}]${error.field}: ${error.message}`);
      }
      throw error;
    }
  }
  return { tree: state.tree, touched: state.touched };
}

interface State {
  tree: Tree;
  touched: Set<string>;
  /** Page id → index of the change that deleted it, for a later change naming that page. */
  deletedBy: Map<string, number>;
}

class ChangeProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

function insertPage(state: State, change: PageChange, at: string, makeId: () => string): void {
  const type = change.type ?? 'document';
  const markdown = documentMarkdown(change, type);
  if (type === 'document' && change.document === undefined) {
    throw new ChangeProblem(
      '.document',
      'is required to insert a document page ({"markdown": "…"})',
    );
  }
  const parent =
    change.into === undefined || change.into === null
      ? undefined
      : requirePage(state, change.into, '.into');
  const siblings = parent === undefined ? state.tree : parent.page.pages;
  checkPlacement(type, parent?.page);
  const title = change.title ?? leadingHeading(markdown) ?? 'Untitled';
  const page: StoredPage = { id: makeId(), type, title, createdAt: at, updatedAt: at, pages: [] };
  if (type !== 'link') page.slug = chooseSlug(change.slug, title, siblings, undefined);
  if (markdown !== undefined) page.markdown = markdown;
  setOptional(page, change);
  if (type === 'link') page.target = requireTarget(state, change.target);
  siblings.splice(position(change.at, siblings.length), 0, page);
  state.touched.add(page.id);
}

function updatePage(state: State, change: PageChange, at: string): void {
  if (change.page === undefined) throw new ChangeProblem('.page', 'is required for update_page');
  if (change.type !== undefined)
    throw new ChangeProblem('.type', 'cannot be changed; delete the page and insert a new one');
  const found = requirePage(state, change.page, '.page');
  const { page } = found;
  const markdown = documentMarkdown(change, page.type);
  if (change.title !== undefined) page.title = change.title;
  if (markdown !== undefined) page.markdown = markdown;
  setOptional(page, change);
  if (change.target !== undefined) {
    if (page.type !== 'link') throw new ChangeProblem('.target', 'only link pages have a target');
    page.target = requireTarget(state, change.target);
  }
  let siblings = found.siblings;
  if (change.into !== undefined || change.at !== undefined) {
    found.siblings.splice(found.index, 1);
    siblings =
      change.into === undefined ? found.siblings : destination(state, change.into, page, found);
    const wanted = change.into === undefined ? change.at : (change.at ?? siblings.length);
    siblings.splice(position(wanted, siblings.length), 0, page);
  }
  if (page.type !== 'link' && (change.slug !== undefined || siblings !== found.siblings)) {
    page.slug = chooseSlug(
      change.slug ?? page.slug,
      page.title,
      siblings,
      page,
      change.slug === undefined ? '.into' : '.slug',
    );
  }
  page.updatedAt = at;
  state.touched.add(page.id);
}

function deletePage(state: State, change: PageChange, index: number): void {
  if (change.page === undefined) throw new ChangeProblem('.page', 'is required for delete_page');
  const found = requirePage(state, change.page, '.page');
  found.siblings.splice(found.index, 1);
  for (const id of subtreeIds(found.page)) {
    state.touched.add(id);
    state.deletedBy.set(id, index);
  }
}

/** The new parent's children for a move; a page cannot go into itself or its descendants. */
function destination(
  state: State,
  into: string | null,
  page: StoredPage,
  found: Located,
): StoredPage[] {
  if (into === null) {
    checkPlacement(page.type, undefined);
    return state.tree;
  }
  if (subtreeIds(page).includes(into)) {
    found.siblings.splice(found.index, 0, page); // restore before reporting, for clarity only
    throw new ChangeProblem(
      '.into',
      `cannot move page ${JSON.stringify(page.id)} into itself or one of its descendants`,
    );
  }
  const parent = requirePage(state, into, '.into');
  checkPlacement(page.type, parent.page);
  return parent.page.pages;
}

function requirePage(state: State, id: string, field: string): Located {
  const found = findById(state.tree, id);
  if (found !== undefined) return found;
  const deleter = state.deletedBy.get(id);
  throw new ChangeProblem(
    field,
    deleter === undefined
      ? `no page ${JSON.stringify(id)} in this change request`
      : `page ${JSON.stringify(id)} was deleted by changes[${deleter}] earlier in this list`,
  );
}

/** GitBook's tree: groups only at the top level; links hold no pages. */
function checkPlacement(type: PageType, parent: StoredPage | undefined): void {
  if (parent === undefined) return;
  if (type === 'group')
    throw new ChangeProblem('.into', 'group pages can only be at the top level');
  if (parent.type === 'link') throw new ChangeProblem('.into', 'a link page cannot contain pages');
}

function chooseSlug(
  explicit: string | undefined,
  title: string,
  siblings: StoredPage[],
  self: StoredPage | undefined,
  field = '.slug',
): string {
  const taken = new Map<string, StoredPage>();
  for (const sibling of siblings) {
    if (sibling !== self && sibling.slug !== undefined)
      taken.set(sibling.slug.normalize('NFC'), sibling);
  }
  if (explicit === undefined) return uniqueSlug(slugify(title, 'page'), new Set(taken.keys()));
  const problem = slugProblem(explicit);
  if (problem !== undefined) throw new ChangeProblem(field, problem);
  const holder = taken.get(explicit.normalize('NFC'));
  if (holder !== undefined) {
    throw new ChangeProblem(
      field,
      `${JSON.stringify(explicit)} is already the slug of page ${JSON.stringify(holder.id)} (${JSON.stringify(holder.title)}) in the same parent${field === '.into' ? '; send a new slug with the move' : ''}`,
      409,
    );
  }
  return explicit.normalize('NFC');
}

function documentMarkdown(change: PageChange, type: PageType): string | undefined {
  const { document } = change;
  if (document === undefined) return undefined;
  if (type !== 'document') throw new ChangeProblem('.document', `${type} pages have no document`);
  if (document.document !== undefined) {
    throw new ChangeProblem(
      '.document',
      'Livery stores Markdown documents: send {"markdown": "…"}',
    );
  }
  return document.markdown ?? '';
}

function setOptional(page: StoredPage, change: PageChange): void {
  if (change.emoji !== undefined) {
    if (change.emoji === '') delete page.emoji;
    else page.emoji = change.emoji;
  }
  if (change.description !== undefined) {
    if (change.description === '') delete page.description;
    else page.description = change.description;
  }
  if (change.hidden !== undefined) page.hidden = change.hidden;
}

function requireTarget(state: State, target: LinkTarget | undefined): LinkTarget {
  if (target === undefined) throw new ChangeProblem('.target', 'is required for a link page');
  if (target.kind === 'url') {
    if (target.url === undefined || !/^https?:\/\//i.test(target.url)) {
      throw new ChangeProblem('.target.url', 'must be an http(s) URL');
    }
    return { kind: 'url', url: target.url };
  }
  if (target.page === undefined)
    throw new ChangeProblem('.target.page', 'is required for a page link');
  requirePage(state, target.page, '.target.page');
  return { kind: 'page', page: target.page };
}

/** `at` counts among the siblings, from 0; past the end means at the end. */
function position(at: number | undefined, length: number): number {
  return at === undefined ? length : Math.min(at, length);
}

/** A Markdown document's leading `# Heading`, GitBook's fallback for a missing title. */
function leadingHeading(markdown: string | undefined): string | undefined {
  const match =
    markdown === undefined
      ? null
      : /^\s*#\s+(.+?)\s*#*\s*$/m.exec(
          markdown.split('\n').find((line) => line.trim() !== '') ?? '',
        );
  return match?.[1];
}
