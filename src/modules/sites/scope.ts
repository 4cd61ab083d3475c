import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import { AppError, notFound } from '../../errors.js';
import { markDeprecated } from '../../http/deprecation.js';
import { SiteParams, SpaceParams } from '../../http/schemas.js';
import type { Urls } from '../../urls.js';
import { memberRoleOf, principalOf } from '../access/permission-checks.js';
import { seesSpaces } from '../access/permissions.js';
import type { SpacesService } from '../spaces/service.js';
import type { SitesService } from './service.js';

/** The site an operation acts on, and the caller's role in its organization. */
export interface SiteTarget {
  organizationId: string;
  siteId: string;
  role: string;
}

/**
 * Where a family of site operations (share links, visitor authentication) is mounted: keyed by
 * site (`/orgs/:organizationId/sites/:siteId`), or by space, the deprecated form GitBook's
 * changelog moved away from. Each operation is defined once and mounted in both scopes.
 */
export interface SiteScope {
  prefix: string;
  params: TObject;
  deprecated: boolean;
  /** The operationId in this scope, from the site-keyed one. */
  operationId(siteKeyed: string): string;
  target(request: FastifyRequest): Promise<SiteTarget>;
}

export const siteKeyedScope: SiteScope = {
  prefix: '/orgs/:organizationId/sites/:siteId',
  params: SiteParams,
  deprecated: false,
  operationId: (id) => id,
  target: async (request) => {
    const { organizationId, siteId } = request.params as { organizationId: string; siteId: string };
    return { organizationId, siteId, role: memberRoleOf(request) };
  },
};

const DOCS_SECTION = 'space-keyed-publishing-share-links-and-visitor-authentication';

/**
 * The deprecated space-keyed forms. They act on the one site that shows the space; when no site
 * or several do, the answer is a 409 that names the site-keyed endpoint to use. Every answer,
 * errors included, carries `Deprecation`, a `successor-version` link to the site-keyed path and a
 * link to docs/deprecations.md.
 */
export class SpaceKeyedScope implements SiteScope {
  readonly prefix = '/spaces/:spaceId';
  readonly params = SpaceParams;
  readonly deprecated = true;
  /** The site-keyed path (URI-encoded) a request was resolved to, for its successor link. */
  private readonly successors = new WeakMap<FastifyRequest, string>();

  constructor(
    private readonly spaces: SpacesService,
    private readonly sites: SitesService,
    private readonly urls: Urls,
  ) {}

  operationId(siteKeyed: string): string {
    return siteKeyed.replace('Site', 'Space');
  }

  async target(request: FastifyRequest): Promise<SiteTarget> {
    const { spaceId } = request.params as { spaceId: string };
    const { row, role } = await this.spaces.requireVisible(principalOf(request).userId, spaceId);
    // A guest sees no space: its answers' successor links must not name the space's site or
    // organization either (they stay templates, as for an unknown space).
    if (!seesSpaces(role)) throw notFound('space', spaceId);
    const sites = await this.sites.sitesShowingSpace(spaceId);
    const site = sites[0];
    const successor = (siteId: string | undefined) => {
      this.successors.set(request, this.successorPath(request, row.organization_id, siteId, true));
      return this.successorPath(request, row.organization_id, siteId, false);
    };
    if (site === undefined || sites.length > 1) {
      const where =
        site === undefined
          ? 'no site shows this space'
          : `${sites.length} sites show this space (${sites.map((s) => s.id).join(', ')})`;
      throw new AppError(
        409,
        `This space-keyed operation is deprecated and acts only on the one site showing the space, but ${where}: use ${successor(undefined)} instead`,
      );
    }
    successor(site.id);
    return { organizationId: row.organization_id, siteId: site.id, role };
  }

  /** Marks every route of `app` deprecated and every answer with the deprecation headers. */
  install(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, deprecated: true };
    });
    app.addHook('onSend', async (request, reply, payload) => {
      await this.markAnswer(request, reply);
      return payload;
    });
  }

  /**
   * The deprecation headers. The successor names the site the request acts on; answers that did
   * not reach the handler (a refused body, an idempotent replay) resolve it here. When it cannot
   * be resolved (unknown space, no or several sites), its unknown parts stay templates.
   */
  async markAnswer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!this.successors.has(request) && request.principal !== null) {
      await this.target(request).catch(() => undefined);
    }
    const successor =
      this.successors.get(request) ?? this.successorPath(request, undefined, undefined, true);
    markDeprecated(reply, this.urls.deprecations(DOCS_SECTION), `${this.urls.base}${successor}`);
  }

  /**
   * The request's path with `/spaces/:spaceId` replaced by the site's, parameters filled in;
   * what is not known stays a `{name}` template. `forLink`: percent-encoded for a Link header.
   */
  private successorPath(
    request: FastifyRequest,
    organizationId: string | undefined,
    siteId: string | undefined,
    forLink: boolean,
  ): string {
    const route = request.routeOptions.url ?? '/v1/spaces/:spaceId';
    const params: Record<string, string | undefined> = {
      ...((request.params ?? {}) as Record<string, string>),
      organizationId,
      siteId,
    };
    return route
      .replace('/spaces/:spaceId', '/orgs/:organizationId/sites/:siteId')
      .replace(/:(\w+)/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) return forLink ? `%7B${name}%7D` : `{${name}}`;
        return forLink ? encodeURIComponent(value) : value;
      });
  }
}
