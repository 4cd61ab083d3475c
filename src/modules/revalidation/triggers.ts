import type { FastifyRequest } from 'fastify';
import { siteTag, spaceTag } from './cache-headers.js';
import type { TagLookups } from './repository.js';

/** A write that changes what readers of a published site see. */
export interface Trigger {
  /** What changes, for docs/renderer-cache.md. */
  what: string;
  /**
   * It may change the language of the spaces the site shows (a space without its own language
   * takes the locale its variants agree on): their `space:` tags go too, for the spaces shown
   * before or after the write.
   */
  spaceLanguages?: true;
}

const SITE_WRITES: Readonly<Record<string, Trigger>> = {
  publishSite: { what: 'the site appears' },
  unpublishSite: { what: 'the site disappears' },
  updateSiteById: { what: 'title, basename, visibility, default variant' },
  deleteSiteById: { what: 'the site disappears', spaceLanguages: true },
  addSpaceToSite: { what: 'a new variant', spaceLanguages: true },
  updateSiteSpaceById: { what: 'a variant: path, hidden, the space shown', spaceLanguages: true },
  deleteSiteSpaceById: { what: 'a variant disappears', spaceLanguages: true },
  // The site's structure (docs/sites.md, "Sections"): the published view's `structure`.
  addSectionToSite: { what: 'a new section and its variant', spaceLanguages: true },
  updateSiteSectionById: { what: 'a section: title, path, default variant, draft, group' },
  deleteSiteSectionById: { what: 'a section and its variants disappear', spaceLanguages: true },
  moveSiteSection: { what: 'the order of the structure' },
  addSectionGroupToSite: { what: 'a new section group' },
  updateSiteSectionGroupById: { what: 'a section group' },
  deleteSiteSectionGroupById: { what: 'a section group disappears' },
  moveSiteSectionGroup: { what: 'the order of the structure' },
  addExternalLinkToSite: { what: 'a new external link' },
  updateSiteExternalLinkById: { what: 'an external link' },
  deleteSiteExternalLinkById: { what: 'an external link disappears' },
  sortSiteStructure: { what: 'the order of the structure' },
  moveSiteSpace: { what: 'the order of the variants, or their section' },
  duplicateSiteSpace: { what: 'a new variant, showing a new space', spaceLanguages: true },
  updateSiteCustomizationById: { what: "the site's settings", spaceLanguages: true },
  overrideSiteSpaceCustomizationById: { what: "a variant's settings", spaceLanguages: true },
  deleteSiteSpaceCustomizationById: { what: "a variant's settings", spaceLanguages: true },
  createSiteShareLink: { what: 'who may read the site' },
  updateSiteShareLinkById: { what: 'who may read the site' },
  deleteSiteShareLinkById: { what: 'who may read the site' },
  updateSitePublishingAuthById: { what: 'who may read the site (visitor authentication)' },
  regenerateSitePublishingAuthById: {
    what: "visitor tokens signed with the old key don't open it",
  },
};

/** Share links and visitor authentication also have a deprecated space-keyed form (sites/scope.ts). */
const SPACE_KEYED = [
  'createSiteShareLink',
  'updateSiteShareLinkById',
  'deleteSiteShareLinkById',
  'updateSitePublishingAuthById',
  'regenerateSitePublishingAuthById',
];

/**
 * The one table of writes after which Livery tells the renderer what to drop, by operationId.
 * After a 2xx answer to one of them, the tags come from the request's path: `siteId` →
 * `site:{siteId}` (and, with `spaceLanguages`, `space:{id}` of the site's spaces); `spaceId` →
 * `space:{spaceId}` and `site:{id}` of every site showing the space (their published views
 * name it). docs/renderer-cache.md lists it; test/http/revalidation.test.ts drives every row.
 */
export const INVALIDATING_WRITES: Readonly<Record<string, Trigger>> = {
  ...SITE_WRITES,
  ...Object.fromEntries(
    SPACE_KEYED.map((id) => [
      id.replace('Site', 'Space'),
      { what: `${SITE_WRITES[id]?.what} (deprecated space-keyed form)` },
    ]),
  ),
  mergeChangeRequest: { what: "the space's content: a new current revision" },
  updateSpaceById: { what: "the space's title, emoji, language (or deprecated visibility)" },
  deleteSpaceById: { what: 'the space disappears' },
};

const operationOf = (request: FastifyRequest) =>
  (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;

/** The trigger of a write request (any answer), if it is one. */
export function triggerOf(request: FastifyRequest): Trigger | undefined {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const operationId = operationOf(request);
  return operationId === undefined ? undefined : INVALIDATING_WRITES[operationId];
}

/**
 * The tags of a write, from its path and the current state of the database. A failed look-up
 * is logged and leaves out only what it would have found.
 */
export async function tagsOf(
  request: FastifyRequest,
  trigger: Trigger,
  lookups: TagLookups,
): Promise<string[]> {
  const { siteId, spaceId } = (request.params ?? {}) as { siteId?: string; spaceId?: string };
  const tags: string[] = [];
  const lookUp = async (find: () => Promise<string[]>, tag: (id: string) => string) => {
    try {
      for (const id of await find()) tags.push(tag(id));
    } catch (error) {
      request.log.error({ err: error }, 'renderer revalidation: a tag look-up failed');
    }
  };
  if (siteId !== undefined) {
    tags.push(siteTag(siteId));
    if (trigger.spaceLanguages) await lookUp(() => lookups.spacesShownBy(siteId), spaceTag);
  }
  if (spaceId !== undefined) {
    tags.push(spaceTag(spaceId));
    await lookUp(() => lookups.sitesShowing(spaceId), siteTag);
  }
  return tags;
}
