import { badRequest } from '../../errors.js';
import { isAllowedUrl } from '../../html/safe-url.js';
import type { Revision } from '../content/repository.js';
import { findById, findByPath } from '../content/tree.js';
import type { Destination, InputDestination } from './schemas.js';
import { appendCaptured, canonicalSegment } from './source-path.js';

/** What destinations are checked and resolved against: the site's variants and their content. */
export interface SiteContent {
  variants: readonly { id: string; spaceId: string; path: string; isDefault: boolean }[];
  revisionOf: (spaceId: string) => Promise<Revision>;
}

/**
 * A destination as given (GitBook's SiteRedirectInputDestination), checked and in the form
 * stored: a `path` destination becomes the `site-page` it names. `field` names it in refusals
 * (`body.destination`, `body.redirects[3].destination`).
 */
export async function checkedDestination(
  input: InputDestination,
  site: SiteContent,
  field: string,
): Promise<Destination> {
  switch (input.kind) {
    case 'external':
      // The one allow-list of URL schemes (html/safe-url.ts): no `javascript:` Location.
      if (!isAllowedUrl(input.url) || /[\s\p{Cc}]/u.test(input.url)) {
        throw badRequest(`${field}.url: this URL's scheme (or a space in it) is not allowed`);
      }
      return input;
    case 'site-section':
      // Livery's sites have no sections (yet): no id can name one.
      throw badRequest(
        `${field}.siteSectionId: no site section ${JSON.stringify(input.siteSectionId)} in this site`,
      );
    case 'site-space':
      variantOf(site, input.siteSpaceId, `${field}.siteSpaceId`);
      return input;
    case 'site-page': {
      const variant = variantOf(site, input.siteSpaceId, `${field}.siteSpaceId`);
      const revision = await site.revisionOf(variant.spaceId);
      const found = findById(revision.pages, input.pageId);
      if (found === undefined || found.page.type === 'link') {
        throw badRequest(
          `${field}.pageId: no page ${JSON.stringify(input.pageId)} in that site-space`,
        );
      }
      return input;
    }
    case 'path': {
      const variant = site.variants.find((v) => v.spaceId === input.spaceId);
      if (variant === undefined) {
        throw badRequest(
          `${field}.spaceId: this site shows no space ${JSON.stringify(input.spaceId)}`,
        );
      }
      const revision = await site.revisionOf(variant.spaceId);
      const found = findByPath(revision.pages, input.path.replace(/^\/+|\/+$/g, ''));
      if (found === undefined) {
        throw badRequest(`${field}.path: no page at ${JSON.stringify(input.path)} in that space`);
      }
      return { kind: 'site-page', siteSpaceId: variant.id, pageId: found.page.id };
    }
  }
}

function variantOf(site: SiteContent, siteSpaceId: string, field: string) {
  const variant = site.variants.find((v) => v.id === siteSpaceId);
  if (variant === undefined) {
    throw badRequest(`${field}: no site-space ${JSON.stringify(siteSpaceId)} in this site`);
  }
  return variant;
}

/**
 * The canonical path in this site that a destination leads to, for chain checks: only an
 * external URL under one of the site's own addresses (`roots`, absolute, ending with `/`) leads
 * back into it. Content destinations (a page, a variant) lead to content.
 */
export function pathInSite(destination: Destination, roots: readonly string[]): string | undefined {
  if (destination.kind !== 'external') return undefined;
  const root = roots.find((r) => destination.url.startsWith(r) || `${destination.url}/` === r);
  if (root === undefined) return undefined;
  const rest = destination.url.slice(root.length).split(/[?#]/, 1)[0] ?? '';
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(canonicalSegment(decodeURIComponent(raw)));
    } catch {
      return undefined; // not an address the published site would parse: it leads nowhere
    }
  }
  return `/${segments.join('/')}`;
}

/**
 * Where a rule sends a visitor: the URL, or the page or variant under `base` (the site's root,
 * ending with `/`: `/s/acme/` on the published site, absolute for the renderer), with the
 * captured suffix. Undefined when the page is gone: then no redirect is served.
 */
export async function locationOf(
  destination: Destination,
  captured: { suffix: string; slash: boolean } | undefined,
  base: string,
  site: SiteContent,
): Promise<string | undefined> {
  const append = (url: string) =>
    captured === undefined ? url : appendCaptured(url, captured.suffix, captured.slash);
  switch (destination.kind) {
    case 'external':
      return append(destination.url);
    case 'site-section':
      return undefined;
    case 'site-space':
    case 'site-page': {
      const variant = site.variants.find((v) => v.id === destination.siteSpaceId);
      if (variant === undefined) return undefined;
      const variantBase = variant.isDefault ? base : `${base}${encodeURIComponent(variant.path)}/`;
      if (destination.kind === 'site-space') return append(variantBase);
      const revision = await site.revisionOf(variant.spaceId);
      const found = findById(revision.pages, destination.pageId);
      if (found === undefined) return undefined;
      return append(`${variantBase}${found.path.split('/').map(encodeURIComponent).join('/')}`);
    }
  }
}
