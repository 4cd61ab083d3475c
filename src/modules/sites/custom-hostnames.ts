import { AppError, badRequest } from '../../errors.js';
import type { Urls } from '../../urls.js';
import { type OrgRole, roleAtLeast } from '../access/permissions.js';
import type { Actor } from '../audit/actor.js';
import type { CustomHostname } from './custom-hostnames-schemas.js';
import type { SitesService } from './service.js';

/**
 * GitBook's custom-hostname operations (`getCustomHostname`, `removeCustomHostname`,
 * `dnsRevalidateCustomHostname`) as far as they fit a self-hosted server (docs/sites.md, "Custom
 * hostnames"). A hostname is set with updateSiteById's `hostname`. DNS and certificates are the
 * operator's business, done by the reverse proxy: Livery checks neither, so a hostname is active
 * and `live` from the moment a site holds it.
 *
 * The caller must hold `role` in the organization of the site that has the hostname; to anyone
 * else the hostname is as unknown as one no site has, so nothing says which site or
 * organization holds it.
 */
export class CustomHostnamesService {
  constructor(
    private readonly sites: SitesService,
    /** The caller's role in an organization, or undefined when not a member. */
    private readonly roleIn: (
      userId: string,
      organizationId: string,
    ) => Promise<string | undefined>,
    private readonly urls: Urls,
  ) {}

  async get(hostname: string, actor: Actor): Promise<CustomHostname> {
    const site = await this.held(hostname, actor, 'read');
    if (site === undefined) throw unknownHostname(hostname);
    return {
      object: 'custom-hostname',
      hostname: site.hostname,
      target: { type: 'site', site: site.id },
      isActive: true,
      status: 'live',
      urls: { location: this.urls.customHostname(site.hostname) },
    };
  }

  /** True when the caller's site held it (205), false when no site of theirs did (204). */
  async remove(hostname: string, actor: Actor): Promise<boolean> {
    const site = await this.held(hostname, actor, 'admin');
    if (site === undefined) return false;
    await this.sites.update(
      site.organizationId,
      site.id,
      { hostname: null },
      { ...actor, role: site.role },
    );
    return true;
  }

  /**
   * Nothing to revalidate (Livery checks no DNS): 204 for a hostname the caller manages; else
   * GitBook's 400 for an inactive hostname, which is what one no site of theirs holds is.
   */
  async revalidate(hostname: string, actor: Actor): Promise<void> {
    if ((await this.held(hostname, actor, 'admin')) === undefined) {
      throw badRequest(
        `params.hostname: ${JSON.stringify(hostname)} is no active custom hostname of a site you administer`,
      );
    }
  }

  /** The site holding `hostname`, when the caller has `role` in its organization. */
  private async held(hostname: string, actor: Actor, role: OrgRole) {
    const site = await this.sites.siteWithHostname(hostname);
    if (site === undefined || site.hostname === null) return undefined;
    const callerRole = await this.roleIn(actor.userId, site.organization_id);
    if (callerRole === undefined || !roleAtLeast(callerRole, role)) return undefined;
    return {
      id: site.id,
      organizationId: site.organization_id,
      hostname: site.hostname,
      role: callerRole,
    };
  }
}

const unknownHostname = (hostname: string) =>
  new AppError(404, `No custom hostname ${JSON.stringify(hostname)} on a site you manage`);
