import { badRequest } from '../../errors.js';
import type { PublishedVariant } from '../published/repository.js';
import type { SearchSiteBody } from './schemas.js';

/**
 * Which of a site's variants a search covers (searchSiteContent's `scope`, or its deprecated
 * top-level form). Livery sites have no sections: their variants are alternatives of one
 * another (languages, versions), so "the current site-space and every section's default" is the
 * current variant alone, as GitBook's renderer itself assumes of a site without sections.
 */
export function variantsInScope(
  variants: readonly PublishedVariant[],
  body: SearchSiteBody,
): PublishedVariant[] {
  const { scope } = body;
  const legacy = (['mode', 'siteSpaceIds', 'siteSpaceId'] as const).filter(
    (field) => body[field] !== undefined,
  );
  if (scope !== undefined) {
    if (legacy.length > 0) {
      throw badRequest(
        `body.${legacy[0]}: not with body.scope (the deprecated form of the same choice)`,
      );
    }
    if (scope.mode !== 'specific' && scope.siteSpaceIds !== undefined) {
      throw badRequest('body.scope.siteSpaceIds: only with mode "specific"');
    }
    if (scope.mode !== 'default') {
      for (const field of ['currentSiteSpace', 'restrictTo'] as const) {
        if (scope[field] !== undefined) {
          throw badRequest(`body.scope.${field}: only with mode "default"`);
        }
      }
    }
    switch (scope.mode) {
      case 'all':
        return [...variants];
      case 'specific':
        if (scope.siteSpaceIds === undefined) {
          throw badRequest('body.scope.siteSpaceIds: required with mode "specific"');
        }
        return pick(variants, scope.siteSpaceIds, 'body.scope.siteSpaceIds');
      case 'default': {
        if (scope.currentSiteSpace === undefined) {
          if (scope.restrictTo !== undefined) {
            throw badRequest('body.scope.currentSiteSpace: required with body.scope.restrictTo');
          }
          const fallback = variants.find((v) => v.isDefault) ?? variants[0];
          return fallback === undefined ? [] : [fallback];
        }
        const current = pick(variants, [scope.currentSiteSpace], 'body.scope.currentSiteSpace');
        // Without sections there are no other site-spaces in the default scope.
        return scope.restrictTo === 'otherSiteSpaces' ? [] : current;
      }
    }
  }
  if (body.mode === 'current' || body.siteSpaceId !== undefined) {
    if (body.mode !== 'current') throw badRequest('body.siteSpaceId: only with mode "current"');
    if (body.siteSpaceId === undefined) {
      throw badRequest('body.siteSpaceId: required with mode "current"');
    }
    return pick(variants, [body.siteSpaceId], 'body.siteSpaceId');
  }
  if (body.mode === 'specific' || body.siteSpaceIds !== undefined) {
    if (body.siteSpaceIds === undefined) {
      throw badRequest('body.siteSpaceIds: required with mode "specific"');
    }
    if (body.mode === 'all') throw badRequest('body.siteSpaceIds: not with mode "all"');
    return pick(variants, body.siteSpaceIds, 'body.siteSpaceIds');
  }
  return [...variants];
}

/** The variants named, in the site's order; an id that is not one of them is a 400. */
function pick(
  variants: readonly PublishedVariant[],
  ids: readonly string[],
  field: string,
): PublishedVariant[] {
  for (const id of ids) {
    if (!variants.some((v) => v.id === id)) {
      throw badRequest(`${field}: the site has no site-space ${JSON.stringify(id)}`);
    }
  }
  return variants.filter((v) => ids.includes(v.id));
}
