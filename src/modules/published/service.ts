import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { BoundedCache } from '../../bounded-cache.js';
import type { SiteRow } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { SafeHtml } from '../../html/safe-html.js';
import type { ServerKey } from '../../server-key.js';
import { DEFAULT_SETTINGS } from '../../settings/defaults.js';
import { renderableSettings, warnLeftOut } from '../../settings/renderable.js';
import type { Settings, SettingsPatch } from '../../settings/settings-schema.js';
import type { Representation } from '../../versioned.js';
import { encodeSegment } from '../../well-formed-text.js';
import type { Workers } from '../../workers/index.js';
import type { Revision } from '../content/repository.js';
import type { ContentService } from '../content/service.js';
import type { CustomizationService } from '../customization/service.js';
import type { FilesService } from '../files/service.js';
import type { IdentityService } from '../identity/service.js';
import type { ShareLinksService } from '../share-links/service.js';
import { themeCss } from '../theme/css.js';
import type { PublishingAuthService } from '../visitor-auth/service.js';
import type { AccessDecision } from './access/access.js';
import { locateVariant } from './access/address.js';
import { SiteAccess, type Visitor } from './access/site-access.js';
import { contentTag } from './assets/assets.js';
import { derivedBy } from './rendering/derived.js';
import { answerAt, type PageAnswer, sizeOf } from './rendering/page-answer.js';
import { bodiesOf } from './rendering/page-bodies.js';
import { publicRootOf, type SiteFrame, signInView, variantBase } from './rendering/page-builder.js';
import { renderPage } from './rendering/page-html.js';
import { KeptViews } from './rendering/page-representation.js';
import type { StructureItem } from './rendering/sections.js';
import type { PublishedRepository, PublishedVariant } from './repository.js';
import { liveStructure } from './structure.js';

/** Rendered pages kept, by the size of their HTML. */
const RENDERED_BYTES = 32 * 1024 * 1024;
/** A page shown as its text (past its render budget) is rendered again after this long. */
export const RETRY_AS_TEXT_MS = 60_000;

/** Where rendering says what it left out (the request's log). */
export type RenderLog = Pick<FastifyBaseLogger, 'warn'>;

export interface OpenSite {
  site: SiteRow;
  variants: readonly PublishedVariant[];
  /** Its sections, groups and links (structure.ts); empty for a site without sections. */
  structure: readonly StructureItem[];
  /** The site's root as visitors address it (`/s/acme/`, or `/` at its custom hostname). */
  root: string;
}

export interface PreviewInput {
  siteSpaceId?: string;
  pagePath?: string;
  customization?: SettingsPatch;
  /** A draft of the site's settings (a PUT body), used instead of the stored ones. */
  site?: SettingsPatch;
}

/**
 * The published site (issue 7, docs/published-site.md): which site an address names, who may see
 * it, and each page as HTML from the variant's effective customization and current content.
 */
export class PublishedSiteService {
  private readonly siteAccess: SiteAccess;
  /** Anonymous views of public sites' pages, answered from memory while nothing changed. */
  readonly views: KeptViews;

  constructor(
    private readonly repo: PublishedRepository,
    private readonly deps: {
      content: ContentService;
      files: FilesService;
      customization: CustomizationService;
      identity: IdentityService;
      shareLinks: ShareLinksService;
      publishingAuth: PublishingAuthService;
      /** Path prefix of published sites as visitors see it (PUBLIC_URL's path): `/s/`. */
      mount: string;
      /** API origin, for edit links. */
      apiBase: string;
      /** PUBLIC_URL, ending with `/`: the absolute addresses of previews. */
      publicUrl: string;
      /** A custom hostname's root address (`https://docs.acme.com/`: urls.ts). */
      hostnameRoot: (hostname: string) => string;
      workers: Workers;
      /** Signs and checks publishing previews (access/preview-token.ts). */
      key: Pick<ServerKey, 'sign' | 'verify'>;
    },
  ) {
    this.siteAccess = new SiteAccess(deps);
    this.views = new KeptViews(repo.generation);
  }

  get mount(): string {
    return this.deps.mount;
  }

  /**
   * The site an address names. `hostname`: the request came for a custom hostname (routed to
   * the site's id, access/site-hostnames.ts), so the site is at the root; a site that no longer
   * holds that hostname (it moved meanwhile) is not found.
   */
  async open(address: string, hostname?: string): Promise<OpenSite | undefined> {
    const site = await this.repo.siteByAddress(address);
    if (site === undefined) return undefined;
    if (hostname !== undefined && site.hostname !== hostname) return undefined;
    const [variants, structure] = await Promise.all([
      this.repo.variantsOf(site.id),
      this.repo.structureOf(site.id),
    ]);
    const root = hostname === undefined ? `${this.deps.mount}${encodeSegment(address)}/` : '/';
    return { site, variants, structure, root };
  }

  /** Who may see the site (site-access.ts). */
  access(open: OpenSite, visitor: Visitor): Promise<AccessDecision> {
    return this.siteAccess.decide(open.site, visitor);
  }

  /** A page of the site at `segments` (after the site), or its styled 404. */
  async page(
    open: OpenSite,
    segments: readonly string[],
    noindex: boolean,
    log: RenderLog,
  ): Promise<PageAnswer> {
    const located = locateVariant(segments, open.variants);
    if (located === undefined) return { kind: 'missing' }; // a site without site-spaces
    if (located.kind === 'redirect') {
      const base = variantBase(open.root, located.variant);
      return { kind: 'redirect', location: `${base}${encodePath(located.pagePath)}` };
    }
    const frame = await this.frame(open, located.variant, noindex, log);
    const key = [
      open.root,
      // The canonical address in the page's head.
      open.site.hostname,
      located.variant.id,
      frame.revisionId,
      this.idOf(frame.settings),
      noindex,
      // The page menu's AI actions depend on who may read the site.
      open.site.visibility,
      located.pagePath,
      this.variantsKey(open.variants),
      this.structureKey(open.structure),
    ].join('\u0000');
    const cached = this.rendered.get(key);
    if (cached !== undefined && (cached.retryAt === undefined || cached.retryAt > Date.now())) {
      return cached.answer;
    }
    const shown = { asText: false };
    const answer = await answerAt(
      frame,
      located.pagePath,
      this.deps.apiBase,
      bodiesOf(this.deps.workers, frame, log, shown),
    );
    // A page shown as its text is tried again after a while: it may have run out of time only
    // because the machine was busy. Meanwhile its views cost nothing.
    const retryAt = shown.asText ? Date.now() + RETRY_AS_TEXT_MS : undefined;
    this.rendered.set(
      key,
      { answer, ...(retryAt === undefined ? {} : { retryAt }) },
      sizeOf(answer),
    );
    if (retryAt !== undefined) this.provisional.add(answer);
    return answer;
  }

  /**
   * Answers that hold a page shown as its text, kept for RETRY_AS_TEXT_MS only: no page view
   * keeps them longer (routes.ts keeps views while the database is unchanged).
   */
  private readonly provisional = new WeakSet<PageAnswer>();

  isProvisional(answer: PageAnswer): boolean {
    return this.provisional.has(answer);
  }

  /**
   * Rendered pages, by everything they are made of: the address, the variant's settings and
   * revision (both immutable once read), and the site's variants (titles, paths). A page of a
   * 220-page space costs ~1 ms to render (sidebar, Markdown); a hit costs a lookup.
   */
  private readonly rendered = new BoundedCache<{ answer: PageAnswer; retryAt?: number }>(
    RENDERED_BYTES,
  );
  private nextSettingsId = 0;
  private readonly idOf = derivedBy((_: Settings) => ++this.nextSettingsId);
  private readonly variantsKey = derivedBy((variants: readonly PublishedVariant[]) =>
    JSON.stringify(variants),
  );
  private readonly structureKey = derivedBy((structure: readonly StructureItem[]) =>
    JSON.stringify(structure),
  );

  /** The theme CSS of effective settings and its ETag (computed once per settings version). */
  readonly themeCssOf = derivedBy((settings: Settings) => {
    const css = themeCss(settings, `${this.deps.mount}@livery/fonts/`);
    return { css, etag: contentTag(css) };
  });

  /** The 401 page of a visitor-authentication site, in its default variant's look. */
  async signInPage(open: OpenSite, log: RenderLog): Promise<{ html: string; settings: Settings }> {
    const variant = open.variants.find((v) => v.isDefault) ?? open.variants[0];
    if (variant === undefined) throw new AppError(401, 'Sign in to read this site');
    const frame = await this.frame(open, variant, true, log);
    return { html: renderPage(signInView(frame)), settings: frame.settings };
  }

  /** The effective settings of a variant, as pages render them (once per settings version). */
  async settingsOf(site: SiteRow, variantId: string, log: RenderLog): Promise<Settings> {
    const representation = await this.deps.customization.getVariant(
      site.organization_id,
      site.id,
      variantId,
    );
    return this.renderable(this.parsedSettings(representation), log);
  }

  /**
   * The settings a PDF of the space takes (modules/pdf): those of the variant it was exported
   * from, else of the site showing the space (as previews do), else the defaults.
   */
  async pdfSettings(
    spaceId: string,
    shown: { siteId: string; siteSpaceId: string } | undefined,
    log: RenderLog,
  ): Promise<Settings> {
    if (shown !== undefined) {
      const site = await this.repo.siteByAddress(shown.siteId);
      if (site !== undefined) return this.settingsOf(site, shown.siteSpaceId, log);
    }
    const showing = await this.repo.siteShowing(spaceId);
    if (showing === undefined) return this.renderable(DEFAULT_SETTINGS, log);
    return this.settingsOf(showing.site, showing.siteSpaceId, log);
  }

  /**
   * Settings without what cannot be rendered (settings/renderable.ts), once per settings
   * object: what is left out is logged once per settings version, not on every request.
   */
  private renderable(settings: Settings, log: RenderLog): Settings {
    let renderable = this.renderables.get(settings);
    if (renderable === undefined) {
      renderable = renderableSettings(settings, warnLeftOut(log));
      this.renderables.set(settings, renderable);
    }
    return renderable;
  }

  private readonly renderables = new WeakMap<Settings, Settings>();

  /** The customization service answers one representation object per settings version. */
  private readonly parsedSettings = derivedBy(
    (representation: Representation) => JSON.parse(representation.json) as Settings,
  );

  async frame(
    open: OpenSite,
    variant: PublishedVariant,
    noindex: boolean,
    log: RenderLog,
    settings?: Settings,
  ): Promise<SiteFrame & { revisionId: string }> {
    const [effective, revision] = await Promise.all([
      settings === undefined
        ? this.settingsOf(open.site, variant.id, log)
        : this.renderable(settings, log),
      this.deps.content.revisionFor(variant.spaceId, { kind: 'space' }),
    ]);
    const canonicalRoot =
      open.site.hostname === null ? undefined : this.deps.hostnameRoot(open.site.hostname);
    const publicRoot = publicRootOf(open.site, open.root, { ...this.deps, canonicalRoot });
    const revisionAssets = await this.deps.files.assetsOf(revision);
    return {
      ...(publicRoot === undefined ? {} : { publicRoot }),
      ...(canonicalRoot === undefined ? {} : { canonicalRoot }),
      ...(revisionAssets === undefined ? {} : { revisionAssets }),
      ...(revision.redirects === undefined ? {} : { redirects: revision.redirects }),
      revisionId: revision.id,
      root: open.root,
      assets: `${this.deps.mount}@livery/`,
      variants: open.variants,
      variant,
      structure: liveStructure(open.structure, open.variants),
      settings: effective,
      tree: revision.pages,
      noindex,
    };
  }

  /**
   * `POST …/sites/{siteId}/preview` (Livery extension): a page of a variant rendered with the
   * variant's settings and a draft override on top, saved nowhere. Addresses in it are absolute
   * (PUBLIC_URL), as the HTML is shown away from the site.
   */
  async preview(
    organizationId: string,
    siteId: string,
    input: PreviewInput,
    log: RenderLog,
  ): Promise<Buffer> {
    const site = await this.repo.siteByAddress(siteId);
    if (site === undefined || site.organization_id !== organizationId || site.id !== siteId) {
      throw notFound('site', siteId);
    }
    const [variants, structure] = await Promise.all([
      this.repo.variantsOf(site.id),
      this.repo.structureOf(site.id),
    ]);
    const variant =
      input.siteSpaceId === undefined
        ? (variants.find((v) => v.isDefault) ?? variants[0])
        : variants.find((v) => v.id === input.siteSpaceId);
    if (variant === undefined) {
      throw badRequest(
        input.siteSpaceId === undefined
          ? 'The site has no site-space to preview'
          : `body.siteSpaceId: the site has no site-space ${JSON.stringify(input.siteSpaceId)}`,
      );
    }
    const settings = await this.deps.customization.previewVariant(
      organizationId,
      siteId,
      variant.id,
      input.customization ?? {},
      input.site,
    );
    const open = {
      site,
      variants,
      structure,
      root: `${this.deps.publicUrl}${site.basename ?? site.id}/`,
    };
    const frame = await this.frame(open, variant, true, log, settings);
    frame.assets = `${this.deps.publicUrl}@livery/`;
    // No stylesheet address serves unsaved settings: the theme goes inline.
    frame.inlineThemeCss = themeCss(frame.settings, `${this.deps.publicUrl}@livery/fonts/`);
    const pagePath = (input.pagePath ?? '').replace(/^\/+|\/+$/g, '');
    const answer = await answerAt(
      frame,
      pagePath,
      this.deps.apiBase,
      bodiesOf(this.deps.workers, frame, log),
    );
    if (answer.kind !== 'html' || answer.status === 404) {
      throw badRequest(
        `body.pagePath: no document page at ${JSON.stringify(input.pagePath)} in this site-space`,
      );
    }
    return answer.html;
  }
  /**
   * A page of `revision` of a space (a change request's: modules/previews), under `root`, as
   * the site showing the space renders it (PublishedRepository.siteShowing: its variant's
   * settings and theme), or with the default settings when no site shows it. The only variant is
   * the space's, at the root; the theme is inline (no theme address under `root`); no feedback,
   * no views; `banner` above the page.
   */
  async revisionPage(
    input: {
      spaceId: string;
      spaceTitle: string;
      revision: Revision;
      root: string;
      pagePath: string;
      banner: SafeHtml;
    },
    log: RenderLog,
  ): Promise<PageAnswer> {
    const { revision, root } = input;
    const showing = await this.repo.siteShowing(input.spaceId);
    let variant: PublishedVariant = {
      id: input.spaceId,
      spaceId: input.spaceId,
      path: '',
      isDefault: true,
      spaceTitle: input.spaceTitle,
      title: input.spaceTitle,
      hidden: false,
      aliases: [],
      sectionId: null,
    };
    let settings: Settings;
    if (showing === undefined) settings = this.renderable(DEFAULT_SETTINGS, log);
    else {
      const shown = (await this.repo.variantsOf(showing.site.id)).find(
        (v) => v.id === showing.siteSpaceId,
      );
      if (shown !== undefined)
        variant = { ...shown, isDefault: true, spaceTitle: input.spaceTitle };
      settings = await this.settingsOf(showing.site, showing.siteSpaceId, log);
    }
    const revisionAssets = await this.deps.files.assetsOf(revision);
    const frame = {
      ...(revisionAssets === undefined ? {} : { revisionAssets }),
      ...(revision.redirects === undefined ? {} : { redirects: revision.redirects }),
      revisionId: revision.id,
      root,
      assets: `${this.deps.mount}@livery/`,
      variants: [variant],
      variant,
      settings,
      tree: revision.pages,
      noindex: true,
      inlineThemeCss: this.themeCssOf(settings).css,
      preview: { banner: input.banner },
    };
    const key = [
      'preview',
      root,
      variant.id,
      revision.id,
      this.idOf(settings),
      input.banner.html,
      input.pagePath,
    ].join('\u0000');
    const cached = this.rendered.get(key);
    if (cached !== undefined && (cached.retryAt === undefined || cached.retryAt > Date.now())) {
      return cached.answer;
    }
    const shown = { asText: false };
    const answer = await answerAt(
      frame,
      input.pagePath,
      this.deps.apiBase,
      bodiesOf(this.deps.workers, frame, log, shown),
    );
    const retryAt = shown.asText ? Date.now() + RETRY_AS_TEXT_MS : undefined;
    this.rendered.set(
      key,
      { answer, ...(retryAt === undefined ? {} : { retryAt }) },
      sizeOf(answer),
    );
    return answer;
  }
}

/**
 * A new visitor id for the tracking cookie: 16 random bytes, taken from a pool filled 4 KiB at a
 * time (as `crypto.randomUUID` does), since an anonymous page view asks for one each time.
 */
export function newVisitorId(): string {
  if (idPoolAt + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idPoolAt = 0;
  }
  idPoolAt += ID_BYTES;
  return idPool.toString('base64url', idPoolAt - ID_BYTES, idPoolAt);
}

const ID_BYTES = 16;
const ID_POOL_BYTES = 4096;
let idPool = Buffer.alloc(0);
let idPoolAt = 0;

const encodePath = (path: string) => path.split('/').map(encodeSegment).join('/');
