import type { Json, JsonObject } from '../schema/paths.js';
import type { EditorTarget, Loaded } from '../state/editor.js';
import { api } from './client.js';

/**
 * The customization calls of the editor and the preview: read the site's settings and a variant's
 * stored override, write them with If-Match, render a page with draft settings, and list the pages
 * a preview can show. Each write answers the new `Loaded` the editor starts again from.
 */

const part = encodeURIComponent;
const siteUrl = (t: EditorTarget) => `/v1/orgs/${part(t.organizationId)}/sites/${part(t.siteId)}`;
const variantUrl = (t: EditorTarget, siteSpaceId: string) =>
  `${siteUrl(t)}/site-spaces/${part(siteSpaceId)}/customization`;

export async function fetchLoaded(target: EditorTarget): Promise<Loaded> {
  const site = api.get<JsonObject>(`${siteUrl(target)}/customization`);
  if (target.siteSpaceId === undefined) {
    const answer = await site;
    return { etag: answer.etag ?? '', settings: answer.body };
  }
  const [siteAnswer, overrideAnswer] = await Promise.all([
    site,
    api.get<{ override: JsonObject }>(`${variantUrl(target, target.siteSpaceId)}/override`),
  ]);
  return {
    etag: overrideAnswer.etag ?? '',
    settings: overrideAnswer.body.override,
    site: siteAnswer.body,
  };
}

/** PUT the site's full settings; answers what the server stored. */
export async function putSite(target: EditorTarget, body: Json, etag: string): Promise<Loaded> {
  const answer = await api.put<JsonObject>(`${siteUrl(target)}/customization`, body, {
    ifMatch: etag,
  });
  if (answer.etag === undefined) return fetchLoaded(target);
  return { etag: answer.etag, settings: answer.body };
}

/** PATCH a variant's override; the answer is the effective settings, so the override is re-read. */
export async function patchVariant(
  target: EditorTarget,
  body: Json,
  etag: string,
): Promise<Loaded> {
  await api.patch(variantUrl(target, variantOf(target)), body, { ifMatch: etag });
  return fetchLoaded(target);
}

/** DELETE a variant's override: every field inherits the site's value again. */
export async function deleteOverride(target: EditorTarget, etag: string): Promise<Loaded> {
  await api.delete(variantUrl(target, variantOf(target)), { ifMatch: etag });
  return fetchLoaded(target);
}

function variantOf(target: EditorTarget): string {
  if (target.siteSpaceId === undefined) throw new TypeError('not a variant');
  return target.siteSpaceId;
}

/** Body of POST …/preview (docs/published-site.md). */
export interface PreviewInput {
  siteSpaceId?: string;
  pagePath?: string;
  customization?: Json;
  site?: Json;
}

export async function renderPreview(
  target: EditorTarget,
  input: PreviewInput,
  signal: AbortSignal,
): Promise<string> {
  const answer = await api.post<string>(`${siteUrl(target)}/preview`, input, {
    text: true,
    signal,
  });
  return answer.body;
}

export interface PreviewPage {
  path: string;
  title: string;
  depth: number;
}

interface RevisionPage {
  type?: string;
  title?: string;
  path?: string;
  pages?: RevisionPage[];
}

/** What the preview needs of a site-space (the shell's list has more). */
export interface SiteSpaceRef {
  id: string;
  default: boolean;
  space: { id: string };
}

/** The site-space a target shows: the variant, or the site's default one. */
export const siteSpaceOf = (target: EditorTarget, list: readonly SiteSpaceRef[]) =>
  list.find((item) =>
    target.siteSpaceId === undefined ? item.default : item.id === target.siteSpaceId,
  );

/** The documents of the variant (the site's default one for the site editor), in tree order. */
export async function fetchPreviewPages(
  target: EditorTarget,
  known?: readonly SiteSpaceRef[],
): Promise<PreviewPage[]> {
  const list =
    known ??
    (
      await api.get<{ items: SiteSpaceRef[] }>(
        `${siteUrl(target)}/site-spaces${target.siteSpaceId === undefined ? '?default=true' : '?limit=1000'}`,
      )
    ).body.items;
  const siteSpace = siteSpaceOf(target, list);
  if (siteSpace === undefined) return [];
  const tree = await api.get<{ pages: RevisionPage[] }>(
    `/v1/spaces/${part(siteSpace.space.id)}/content/pages`,
  );
  const pages: PreviewPage[] = [];
  const visit = (list: RevisionPage[], depth: number) => {
    for (const page of list) {
      if (page.type === 'document' && page.path !== undefined) {
        pages.push({ path: page.path, title: page.title ?? page.path, depth });
      }
      visit(page.pages ?? [], page.type === 'group' ? depth : depth + 1);
    }
  };
  visit(tree.body.pages, 0);
  return pages;
}
