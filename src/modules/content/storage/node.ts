import { createHash } from 'node:crypto';
import type { StoredPage } from '../tree.js';

/**
 * How a page is stored (docs/content.md, "Storage"): its Markdown as a **body** keyed by the hash
 * of its text, and the rest as a **node** keyed by the hash of its canonical JSON: the page's
 * fields without its body and children, plus `body` (the body's hash) and `pages` (its children's
 * node hashes, in order). A node's hash therefore names its whole subtree (a Merkle tree): an
 * edit of one page makes a new body (if the Markdown changed), a new node for the page and one
 * for each of its ancestors; everything else is shared with the revision it came from.
 *
 * Migration 0015 holds a frozen copy of this serialization (it must never change: a node written
 * today and one written by the migration must get the same hash). test/http/content-storage.test.ts
 * checks that the two agree.
 */

/** A page's own fields: everything but its body and its children. */
export type PageFields = Omit<StoredPage, 'markdown' | 'pages'>;

/** A node as read from the database. Nodes are immutable: so is this (frozen). */
export interface PageNode {
  readonly fields: Readonly<PageFields>;
  /** The body's hash; undefined for pages without Markdown (groups, links). */
  readonly body: string | undefined;
  /** The children's node hashes, in order. */
  readonly pages: readonly string[];
  /** Length of the node's JSON (for cache sizes). */
  readonly size: number;
}

/** SHA-256 of the text's UTF-8, base64url (43 characters). */
export function hashOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

/**
 * JSON with every object's keys sorted and undefined values left out: one text per value,
 * whatever order its keys were set in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A node's stored text: canonical JSON of the fields, `body` and `pages`. */
export function nodeJson(
  fields: Readonly<PageFields>,
  body: string | undefined,
  pages: readonly string[],
): string {
  return canonicalJson({ ...fields, body, pages });
}

/** A node's text parsed; frozen, since nodes (and the cache that keeps them) never change. */
export function parseNode(json: string): PageNode {
  const { body, pages, ...fields } = JSON.parse(json) as PageFields & {
    body?: string;
    pages: string[];
  };
  if (fields.target !== undefined) Object.freeze(fields.target);
  return Object.freeze({
    fields: Object.freeze(fields),
    body,
    pages: Object.freeze(pages),
    size: json.length,
  });
}

/** A page's own fields, copied (a link's target too) and frozen. */
export function fieldsOf(page: StoredPage): Readonly<PageFields> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(page)) {
    if (key === 'markdown' || key === 'pages') continue;
    const value = page[key as keyof StoredPage];
    if (value === undefined) continue;
    fields[key] = typeof value === 'object' ? Object.freeze({ ...value }) : value;
  }
  return Object.freeze(fields) as unknown as PageFields;
}

/** Whether the page's own fields are exactly `fields` (undefined values count as absent). */
export function sameFields(page: StoredPage, fields: Readonly<PageFields>): boolean {
  let count = 0;
  for (const key of Object.keys(page)) {
    if (key === 'markdown' || key === 'pages') continue;
    const value = page[key as keyof StoredPage];
    if (value === undefined) continue;
    count += 1;
    const known = fields[key as keyof PageFields];
    if (value === known) continue;
    if (typeof value !== 'object' || typeof known !== 'object') return false;
    if (canonicalJson(value) !== canonicalJson(known)) return false;
  }
  return count === Object.keys(fields).length;
}
