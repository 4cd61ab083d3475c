import type { Db } from '../../db/database.js';
import { GenerationCache } from '../../db/prepared.js';
import { notFound } from '../../errors.js';
import type { ContentService, ContentSource } from '../content/service.js';
import { findById, findByPath } from '../content/tree.js';
import type { CustomizationService } from '../customization/service.js';
import { encodeVariantPath } from '../published/access/address.js';
import type { PublishedRepository } from '../published/repository.js';
import type { RedirectsService } from '../redirects/service.js';
import { canonicalPath } from '../redirects/source-path.js';
import type { SiteSpace } from '../sites/schemas.js';
import type { SitesService } from '../sites/service.js';
import type { SiteStructure, SiteStructureNode } from '../sites/structure/schemas.js';
import type { SiteStructureService } from '../sites/structure/service.js';

/** Who reads: a member with a role, or a site token of the site (it sees what a reader does). */
export type Reader = { role: string } | { siteToken: { site: string } };

const roleOf = (reader: Reader) => ('role' in reader ? reader.role : 'read');

const VIEWS_KEPT = 1_000;

/**
 * The reads GitBook's renderer makes besides content (docs/renderer.md): the published view of a
 * site, its redirects and a page's meta links. Content itself comes from content/ as for any
 * caller.
 */
export class RendererReadsService {
  /** Published views by site and role, kept while the database is unchanged. */
  private readonly views: GenerationCache<string>;

  constructor(
    db: Db,
    private readonly deps: {
      sites: SitesService;
      structure: SiteStructureService;
      customization: CustomizationService;
      content: ContentService;
      published: PublishedRepository;
      /** A published site's address (PUBLIC_URL + its basename), ending with `/`. */
      publishedSite: (site: {
        id: string;
        basename: string | null;
        hostname: string | null;
      }) => string;
      redirects: Pick<RedirectsService, 'resolve'>;
    },
  ) {
    this.views = new GenerationCache(db, VIEWS_KEPT);
  }

  /**
   * getPublishedContentSite as JSON text: the site, its site-spaces, and the **effective**
   * settings of the site and of every variant (the renderer merges nothing itself). The settings
   * are the customization service's own texts, kept per version: nothing is parsed here. The
   * whole answer (~40 KB for 18 variants) is kept while the database is unchanged: the renderer
   * reads it on every page view.
   */
  async publishedView(organizationId: string, siteId: string, reader: Reader): Promise<string> {
    const role = roleOf(reader);
    return this.views.get(`${organizationId}\u0000${siteId}\u0000${role}`, () =>
      this.buildView(organizationId, siteId, role),
    );
  }

  private async buildView(organizationId: string, siteId: string, role: string): Promise<string> {
    const { sites, structure, customization } = this.deps;
    const siteRow = await sites.requireSite(organizationId, siteId);
    const [site, shown, base] = await Promise.all([
      sites.get(organizationId, siteId, role),
      // Drafts are not published (docs/sites.md, "Sections").
      structure.structureOf(siteRow, role, (row) => row.draft === 0),
      customization.getSite(organizationId, siteId),
    ]);
    const published =
      shown.type === 'siteSpaces'
        ? { type: shown.type, structure: shown.structure.filter((v) => !v.draft) }
        : { type: shown.type, structure: withoutDraftVariants(shown.structure) };
    const variants = await Promise.all(
      variantsIn(published).map(
        async (v) =>
          `${JSON.stringify(v.id)}:${(await customization.getVariant(organizationId, siteId, v.id)).json}`,
      ),
    );
    return `{"object":"published-content-site","site":${JSON.stringify(site)},"structure":${JSON.stringify(published)},"customizations":{"site":${base.json},"siteSpaces":{${variants.join(',')}}},"scripts":[]}`;
  }

  /**
   * getSiteRedirectBySource: first the site's live redirect rules (docs/sites.md, "Redirects":
   * an exact source, else the longest prefix, its target with the captured suffix), then the
   * redirects of the site's variants' `.gitbook.yaml` files (docs/git-sync.md, "Redirects").
   * `source` is a path of the site (`/old/page`, or `/{variant}/old/page` for another variant
   * than the default); a `.gitbook.yaml` redirect answers only when no page is at the old path.
   * Anything else: 404.
   */
  async redirect(organizationId: string, siteId: string, source: string) {
    const site = await this.deps.sites.requireSite(organizationId, siteId);
    const root = this.deps.publishedSite(site);
    const segments = decodedSegments(source);
    if (segments !== undefined) {
      const stored = await this.deps.redirects.resolve(site, canonicalPath(segments), root, {
        publicLive: site.published === 1 && ['public', 'unlisted'].includes(site.visibility),
      });
      if (stored !== undefined) return { redirect: stored.redirect, target: stored.location };
    }
    const path = source.replace(/^\/+/, '').replace(/\/+$/, '');
    for (const variant of await this.deps.published.variantsOf(siteId)) {
      const prefix = variant.isDefault ? '' : `${variant.path}/`;
      if (!path.startsWith(prefix)) continue;
      const old = decodeSafely(path.slice(prefix.length));
      const revision = await this.deps.content.revisionFor(variant.spaceId, { kind: 'space' });
      if (revision.redirects === undefined || !Object.hasOwn(revision.redirects, old)) continue;
      if (findByPath(revision.pages, old) !== undefined) continue;
      const target = findById(revision.pages, revision.redirects[old] ?? '');
      if (target === undefined) continue;
      const base = variant.isDefault ? root : `${root}${encodeVariantPath(variant.path)}/`;
      const location = `${base}${target.path.split('/').map(encodeURIComponent).join('/')}`;
      const now = revision.createdAt;
      return {
        redirect: {
          object: 'site-redirect' as const,
          id: `${variant.id}:${old}`,
          source: `/${path}`,
          draft: false,
          captureWildcard: false,
          permanent: true,
          destination: {
            kind: 'site-page' as const,
            siteSpaceId: variant.id,
            pageId: target.page.id,
          },
          createdAt: now,
        },
        target: location,
      };
    }
    throw notFound('redirect', source);
  }

  /**
   * listRevisionPageMetaLinks: no canonical of its own (Livery pages have none); as alternates,
   * the same page path in the other variants of the reading site (a site token's), so the
   * renderer can link translations. A member's token names no site: no alternates.
   * listSpacePageMetaLinks is the same of the space's current revision (`source`).
   */
  async metaLinks(
    spaceId: string,
    source: ContentSource,
    pageId: string,
    siteId: string | undefined,
  ): Promise<{ alternates: { kind: 'page'; page: string; space: string }[] }> {
    const { content, published } = this.deps;
    const revision = await content.revisionFor(spaceId, source);
    const found = findById(revision.pages, pageId);
    if (found === undefined) throw notFound('page', pageId);
    if (siteId === undefined) return { alternates: [] };
    const others = (await published.variantsOf(siteId)).filter((v) => v.spaceId !== spaceId);
    const alternates = await Promise.all(
      others.map(async (variant) => {
        const current = await content.revisionFor(variant.spaceId, { kind: 'space' });
        const twin = findByPath(current.pages, found.path);
        return twin === undefined
          ? undefined
          : { kind: 'page' as const, page: twin.page.id, space: variant.spaceId };
      }),
    );
    return { alternates: alternates.filter((a) => a !== undefined) };
  }
}

/** The decoded segments of a path, or undefined when one is not valid percent-encoding. */
function decodedSegments(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A published structure's sections keep only their live variants. */
function withoutDraftVariants(nodes: SiteStructureNode[]): SiteStructureNode[] {
  return nodes.map((node) => {
    if (node.object === 'site-section') {
      return { ...node, siteSpaces: node.siteSpaces.filter((v) => !v.draft) };
    }
    if (node.object === 'site-section-group') {
      const children = withoutDraftVariants(node.children);
      return {
        ...node,
        children,
        sections: children.filter((c) => c.object === 'site-section'),
      } as SiteStructureNode;
    }
    return node;
  });
}

/** Every variant a structure shows, in order. */
export function variantsIn(structure: SiteStructure): SiteSpace[] {
  if (structure.type === 'siteSpaces') return structure.structure;
  const out: SiteSpace[] = [];
  const walk = (nodes: readonly SiteStructureNode[]) => {
    for (const node of nodes) {
      if (node.object === 'site-section') out.push(...node.siteSpaces);
      else if (node.object === 'site-section-group') walk(node.children);
    }
  };
  walk(structure.structure);
  return out;
}
