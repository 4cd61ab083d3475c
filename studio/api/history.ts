/** Customization history of a site or a variant (docs/history.md): revisions, compare, restore. */
import type { EditorTarget, Json } from '../state/editor';
import { api } from './client';
import type { List } from './sites';

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: Json;
}

export interface RevisionSummary {
  number: number;
  createdAt: string;
  actor: { user: string; token?: string } | null;
  operation: 'put' | 'patch' | 'delete' | 'restore';
  etag: string;
  changes: PatchOperation[];
  restoredFrom?: number;
}

export interface Revision extends RevisionSummary {
  /** The stored document after the change: site settings, a variant's override, or null (no override). */
  settings: Json;
}

/** …/customization/revisions of the site, or of the variant when the target names one. */
export function revisionsPath(target: EditorTarget): string {
  const site = `/v1/orgs/${encodeURIComponent(target.organizationId)}/sites/${encodeURIComponent(target.siteId)}`;
  const variant =
    target.siteSpaceId === undefined
      ? ''
      : `/site-spaces/${encodeURIComponent(target.siteSpaceId)}`;
  return `${site}${variant}/customization/revisions`;
}

/** Newest first. */
export const listRevisions = async (target: EditorTarget, limit = 100) =>
  (await listRevisionPage(target, undefined, limit)).items;

/** One page of revisions, newest first; `next` names the page of older ones, if any. */
export async function listRevisionPage(
  target: EditorTarget,
  page?: string,
  limit = HISTORY_PAGE,
): Promise<{ items: RevisionSummary[]; next: string | undefined }> {
  const query = `limit=${limit}${page === undefined ? '' : `&page=${encodeURIComponent(page)}`}`;
  const { body } = await api.get<List<RevisionSummary>>(`${revisionsPath(target)}?${query}`);
  return { items: body.items, next: body.next?.page };
}

/** Revisions per page of the history panel. */
export const HISTORY_PAGE = 50;

export const getRevision = async (target: EditorTarget, number: number) =>
  (await api.get<Revision>(`${revisionsPath(target)}/${number}`)).body;

/** The JSON Patch from revision `from`'s document to `to`'s (0: the defaults, or no override). */
export const compareRevisions = async (target: EditorTarget, from: number, to: number) =>
  (
    await api.get<{ changes: PatchOperation[] }>(
      `${revisionsPath(target)}/compare?from=${from}&to=${to}`,
    )
  ).body.changes;

/** Makes revision `number` current again; a stale `etag` is a 412. The caller re-reads the editor's state. */
export async function restoreRevision(
  target: EditorTarget,
  number: number,
  etag: string,
): Promise<undefined> {
  await api.post<Json>(`${revisionsPath(target)}/${number}/restore`, undefined, { ifMatch: etag });
  return undefined;
}
