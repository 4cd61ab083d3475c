import { notFound } from '../../errors.js';
import type { ContentService } from '../content/service.js';
import type { PublishedRepository } from '../published/repository.js';
import type { ShareLinksService } from '../share-links/service.js';
import type { PublishingAuthService } from '../visitor-auth/service.js';
import { isPublishedRevision } from './public-view.js';
import { type SiteTokenClaims, SiteTokenRefused } from './site-token.js';

/** The ids a `/v1` request names, as its path parameters. */
export interface NamedResources {
  organizationId?: string;
  siteId?: string;
  spaceId?: string;
  revisionId?: string;
}

/**
 * What a site token may read (docs/renderer.md): its own site while it is published and still
 * open to whoever the token was minted for, and the spaces that site shows now, in their
 * published revisions (public-view.ts says which, and what of them a token reads). Checked on
 * every request against the current state, so unpublishing, closing the site, revoking the share
 * link or regenerating the visitor key takes effect at once.
 *
 * A token for something that no longer opens is a 401 (the renderer then looks the URL up again);
 * a resource the site does not show is a 404, as for any caller who may not know it exists.
 */
export class SiteTokenGate {
  constructor(
    private readonly deps: {
      published: PublishedRepository;
      content: ContentService;
      shareLinks: ShareLinksService;
      publishingAuth: PublishingAuthService;
    },
  ) {}

  async authorize(claims: SiteTokenClaims, named: NamedResources): Promise<void> {
    const { published, content } = this.deps;
    const site = await published.siteByAddress(claims.site);
    if (site === undefined || site.id !== claims.site || site.published !== 1) {
      throw new SiteTokenRefused('its site is not published');
    }
    if (site.organization_id !== claims.organization) throw new SiteTokenRefused('not valid');
    if (!(await this.stillOpen(claims, site.id, site.visibility))) {
      throw new SiteTokenRefused('no longer opens its site');
    }
    if (named.organizationId !== undefined && named.organizationId !== claims.organization) {
      throw notFound('organization', named.organizationId);
    }
    if (named.siteId !== undefined && named.siteId !== claims.site) {
      throw notFound('site', named.siteId);
    }
    if (named.spaceId !== undefined) {
      const variants = await published.variantsOf(site.id);
      if (!variants.some((v) => v.spaceId === named.spaceId)) {
        throw notFound('space', named.spaceId);
      }
      if (named.revisionId !== undefined) {
        const revision = await content
          .revisionFor(named.spaceId, { kind: 'revision', revisionId: named.revisionId })
          .catch(() => undefined);
        // Published revisions only (public-view.ts): never a change request's, of any type.
        if (revision === undefined || !isPublishedRevision(revision)) {
          throw notFound('revision', named.revisionId);
        }
      }
    }
  }

  private async stillOpen(
    claims: SiteTokenClaims,
    siteId: string,
    visibility: string,
  ): Promise<boolean> {
    const { access } = claims;
    if (visibility === 'public' || visibility === 'unlisted') return true;
    if (visibility === 'share-link') {
      return (
        access !== undefined &&
        'shareLink' in access &&
        (await this.deps.shareLinks.verifyHash(siteId, access.shareLink))
      );
    }
    if (visibility === 'visitor-auth') {
      return (
        access !== undefined &&
        'visitorKey' in access &&
        access.visitorKey === (await this.deps.publishingAuth.keyFingerprint(siteId))
      );
    }
    return false;
  }
}
