import type { FastifyReply } from 'fastify';

/**
 * The response headers GitBook's renderer reads to cache what it fetches from the API
 * (docs/renderer-cache.md). It tags each cached answer with the tags of `x-gitbook-cache-tag`
 * (a comma-separated list, split on `,` without trimming: so no spaces) and, for documents, keeps
 * it as long as the `max-age` of `x-gitbook-cache-control` says. `POST /~gitbook/revalidate`
 * with a tag (notifier.ts) then drops every answer carrying it.
 */

/** Everything a reader sees of one site: its published view, settings, variants, access. */
export const siteTag = (siteId: string) => `site:${siteId}`;
/** Everything of one space: the space itself (its current revision) and what is read through it. */
export const spaceTag = (spaceId: string) => `space:${spaceId}`;

/** One year: what "forever" means to a cache. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * One day, what the renderer itself keeps such data for: mutable answers stay fresh because Livery
 * revalidates their tags on every change, not because they expire.
 */
const TAGGED = 'public, max-age=86400';

export interface RendererCache {
  /** Tags to invalidate the answer by (siteTag, spaceTag). */
  tags: string[];
  /**
   * An answer that never changes for the same URL (a revision by id and what is read in it).
   * Its tags still let a deleted space's answers be dropped.
   */
  immutable?: boolean;
}

/** Sets the renderer's cache headers on a successful read; call it once the answer is known. */
export function setRendererCache(reply: FastifyReply, { tags, immutable }: RendererCache) {
  const unique = [...new Set(tags)];
  if (unique.length > 0) reply.header('x-gitbook-cache-tag', unique.join(','));
  return reply.header('x-gitbook-cache-control', immutable === true ? IMMUTABLE : TAGGED);
}
