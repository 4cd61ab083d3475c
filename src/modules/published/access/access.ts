import type { SiteVisibility } from '../../spaces/site-visibility.js';

/**
 * Who may see a published site (issue 7, docs/published-site.md), decided per request from the
 * site's publishing state and what the visitor brings. Pure but for the two verifiers, which
 * check a credential against the site's *current* state (the share link still active, the
 * visitor key not regenerated), so a revoked credential locks its holders out at once.
 *
 * A credential arrives once in the query (`?share=`, `?jwt_token=`); the answer then stores it in
 * an HttpOnly cookie scoped to the site and redirects to the same address without it, so the
 * secret leaves the address bar, history and referrers. Later requests bring the cookie.
 */

export const SHARE_COOKIE = 'livery_share';
export const VISITOR_COOKIE = 'livery_visitor';
/** A publishing preview (getSitePublishingPreviewById): opens the site until it expires. */
export const PREVIEW_COOKIE = 'livery_preview';

export interface AccessRequest {
  published: boolean;
  visibility: SiteVisibility;
  /** A member of the site's organization previewing with an API token. */
  member: boolean;
  query: {
    share?: string | undefined;
    jwt_token?: string | undefined;
    preview?: string | undefined;
  };
  cookies: Readonly<Record<string, string | undefined>>;
  fallbackURL?: string | undefined;
}

export interface Verifiers {
  shareKey: (key: string) => Promise<boolean>;
  visitorToken: (token: string) => Promise<boolean>;
  /** A publishing preview's token: signed for this site and not expired. */
  previewToken: (token: string) => boolean;
}

export type AccessDecision =
  /** Serve the page; `noindex` adds `X-Robots-Tag: noindex` and the meta tag. */
  | { outcome: 'serve'; noindex: boolean }
  /** Store the credential, then send the visitor to the same address without it. */
  | { outcome: 'remember'; cookie: { name: string; value: string } }
  /** Not found, with nothing that tells the site exists. */
  | { outcome: 'not-found' }
  /** Visitor authentication without a fallback URL: the sign-in page. */
  | { outcome: 'unauthorized' }
  | { outcome: 'redirect'; location: string };

export async function decideAccess(
  request: AccessRequest,
  verify: Verifiers,
): Promise<AccessDecision> {
  const { visibility } = request;
  // Members preview every site, published or not; never indexed.
  if (request.member) return { outcome: 'serve', noindex: true };
  // A publishing preview opens the site as a member's token does, until it expires; one that
  // does not open it (expired, altered) counts for nothing and the rules below apply.
  const preview = request.query.preview;
  if (preview !== undefined && verify.previewToken(preview)) {
    return { outcome: 'remember', cookie: { name: PREVIEW_COOKIE, value: preview } };
  }
  const previewing = request.cookies[PREVIEW_COOKIE];
  if (previewing !== undefined && verify.previewToken(previewing)) {
    return { outcome: 'serve', noindex: true };
  }
  if (!request.published) return { outcome: 'not-found' };
  if (visibility === 'public') return { outcome: 'serve', noindex: false };
  if (visibility === 'unlisted') return { outcome: 'serve', noindex: true };

  if (visibility === 'share-link') {
    const offered = request.query.share;
    if (offered !== undefined) {
      return (await verify.shareKey(offered))
        ? { outcome: 'remember', cookie: { name: SHARE_COOKIE, value: offered } }
        : { outcome: 'not-found' };
    }
    const kept = request.cookies[SHARE_COOKIE];
    return kept !== undefined && (await verify.shareKey(kept))
      ? { outcome: 'serve', noindex: true }
      : { outcome: 'not-found' };
  }

  // visitor-auth
  const offered = request.query.jwt_token;
  if (offered !== undefined && (await verify.visitorToken(offered))) {
    return { outcome: 'remember', cookie: { name: VISITOR_COOKIE, value: offered } };
  }
  const kept = request.cookies[VISITOR_COOKIE];
  if (offered === undefined && kept !== undefined && (await verify.visitorToken(kept))) {
    return { outcome: 'serve', noindex: true };
  }
  return request.fallbackURL === undefined
    ? { outcome: 'unauthorized' }
    : { outcome: 'redirect', location: request.fallbackURL };
}
