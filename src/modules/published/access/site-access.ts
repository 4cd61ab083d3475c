import type { SiteRow } from '../../../db/schema.js';
import { invalidToken } from '../../../errors.js';
import type { ServerKey } from '../../../server-key.js';
import { BEARER } from '../../access/auth.js';
import { roleAtLeast } from '../../access/permissions.js';
import type { IdentityService } from '../../identity/service.js';
import type { ShareLinksService } from '../../share-links/service.js';
import type { SiteVisibility } from '../../spaces/site-visibility.js';
import { VisitorTokenError } from '../../visitor-auth/jwt.js';
import type { PublishingAuthService } from '../../visitor-auth/service.js';
import { type AccessDecision, decideAccess } from './access.js';
import { previewTokenOpens } from './preview-token.js';

export interface Visitor {
  query: {
    share?: string | undefined;
    jwt_token?: string | undefined;
    preview?: string | undefined;
  };
  cookies: Readonly<Record<string, string | undefined>>;
  authorization: string | undefined;
}

/** Who may see a site: access.ts's decision, with the credentials checked against the site now. */
export class SiteAccess {
  constructor(
    private readonly deps: {
      identity: IdentityService;
      shareLinks: ShareLinksService;
      publishingAuth: PublishingAuthService;
      /** Signs and checks publishing previews (preview-token.ts). */
      key: Pick<ServerKey, 'sign' | 'verify'>;
    },
  ) {}

  async decide(site: SiteRow, visitor: Visitor): Promise<AccessDecision> {
    const visibility = site.visibility as SiteVisibility;
    const { shareLinks, publishingAuth } = this.deps;
    return decideAccess(
      {
        published: site.published === 1,
        visibility,
        member: await this.isPreviewingMember(site, visitor.authorization),
        query: visitor.query,
        cookies: visitor.cookies,
        fallbackURL:
          visibility === 'visitor-auth' ? await publishingAuth.fallbackURL(site.id) : undefined,
      },
      {
        shareKey: (key) => shareLinks.verify(site.id, key),
        visitorToken: async (token) => {
          try {
            await publishingAuth.verify(site.id, token);
            return true;
          } catch (error) {
            if (error instanceof VisitorTokenError) return false;
            throw error;
          }
        },
        previewToken: (token) =>
          previewTokenOpens(this.deps.key, site.id, token, Math.floor(Date.now() / 1000)),
      },
    );
  }

  /**
   * An organization member previewing with an API token: role `read` at least and, for a scoped
   * token, `site:read`. A token that is not valid is a 401 (whoever sends one expects it to
   * count); a valid one of a non-member counts for nothing, so the site is not confirmed.
   */
  private async isPreviewingMember(site: SiteRow, header: string | undefined): Promise<boolean> {
    if (header === undefined || header.trim() === '') return false;
    const token = BEARER.exec(header)?.[1];
    if (token === undefined) throw invalidToken();
    const found = await this.deps.identity.authenticate(token, site.organization_id);
    if (found === undefined) throw invalidToken();
    const { role } = found;
    const { scopes } = found.principal;
    return (
      role !== undefined &&
      roleAtLeast(role, 'read') &&
      (scopes === null || scopes.includes('site:read'))
    );
  }
}
