import type { Db } from '../../db/database.js';
import { GenerationCache, MISS } from '../../db/prepared.js';
import { AppError, badRequest } from '../../errors.js';
import { hashToken } from '../identity/tokens.js';
import { locateVariant } from '../published/access/address.js';
import type { PublishedRepository, PublishedVariant } from '../published/repository.js';
import type { ShareLinksService } from '../share-links/service.js';
import type { SiteAccessStamp, SiteTokens } from '../site-tokens/site-token.js';
import { VisitorTokenError } from '../visitor-auth/jwt.js';
import type { PublishingAuthService } from '../visitor-auth/service.js';
import { locateHostedUrl, locateUrl, pathsOf } from './locate.js';

export interface LookupInput {
  url: string;
  redirectOnError?: boolean | undefined;
  visitor?: { jwtToken?: string | undefined; type?: 'human' | 'agent' | undefined } | undefined;
  /** How the request names the URL and the visitor's token (the GET form: its query's names). */
  names?: { url: string; jwtToken: string } | undefined;
}

const BODY_NAMES = { url: 'body.url', jwtToken: 'visitor.jwtToken' };

export type Lookup =
  | {
      site: string;
      siteSection?: string;
      siteSpace: string;
      space: string;
      organization: string;
      pathname: string;
      basePath: string;
      siteBasePath: string;
      canonicalUrl: string;
      complete: boolean;
      apiToken: string;
      shareKey?: string;
    }
  | { target: 'content'; redirect: string }
  | { target: 'external'; site: string; redirect: string };

const notFound = () => new AppError(404, 'No published content found at this URL');

/**
 * `POST /v1/urls/published` (docs/renderer.md): the published site, variant and page a URL
 * names, and a site token to read them with. Unknown, unpublished or closed-without-credential
 * sites are 404 alike; a visitor-authentication site without a valid visitor token sends the
 * visitor to its sign-in address, or answers 401 when it has none.
 */
const ANSWERS_KEPT = 10_000;
const HOUR_MS = 3_600_000;

export class UrlLookupService {
  private readonly publicUrl: URL;
  /**
   * Answers about public and unlisted sites, as JSON text, by URL and visitor type: kept while
   * the database is unchanged and within the hour of the site token they carry. The renderer
   * asks the same few prefixes for every page view; a hit costs a map lookup.
   */
  private readonly answers: GenerationCache<{ json: string; until: number; shareable: boolean }>;

  constructor(
    db: Db,
    private readonly deps: {
      published: PublishedRepository;
      shareLinks: ShareLinksService;
      publishingAuth: PublishingAuthService;
      siteTokens: SiteTokens;
      publicUrl: string;
    },
  ) {
    this.publicUrl = new URL(deps.publicUrl);
    this.answers = new GenerationCache(db, ANSWERS_KEPT, {
      valid: (answer) => Date.now() < answer.until,
      keep: (answer) => answer.shareable,
    });
  }

  /** resolveJson's answer if it is kept and current (no waiting), else undefined. */
  peekJson(input: LookupInput): string | undefined {
    if (input.visitor?.jwtToken !== undefined) return undefined;
    const kept = this.answers.peek(`${input.url}\u0000${input.visitor?.type}`);
    return kept === MISS ? undefined : kept.json;
  }

  /** The lookup's answer as JSON text, from the kept answers when it may be. */
  async resolveJson(input: LookupInput): Promise<string> {
    const make = async () => {
      const { answer, shareable } = await this.resolve(input);
      const now = Date.now();
      return { json: JSON.stringify(answer), until: now - (now % HOUR_MS) + HOUR_MS, shareable };
    };
    // A visitor token makes the answer the visitor's own: never kept.
    if (input.visitor?.jwtToken !== undefined) return (await make()).json;
    return (await this.answers.get(`${input.url}\u0000${input.visitor?.type}`, make)).json;
  }

  /**
   * The lookup, and whether its answer depends only on the URL and the database (a public or
   * unlisted site), so that it may be kept.
   */
  private async resolve(input: LookupInput): Promise<{ answer: Lookup; shareable: boolean }> {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      throw badRequest(`${(input.names ?? BODY_NAMES).url}: not an absolute URL`);
    }
    const { published } = this.deps;
    // A site's custom hostname (docs/sites.md): the site at the root of that host.
    const hosted = await published.siteByHostname(url.hostname.toLowerCase());
    const address =
      hosted === undefined ? locateUrl(url, this.publicUrl) : locateHostedUrl(url, hosted.id);
    if (address === undefined) throw notFound();
    const site = hosted ?? (await published.siteByAddress(address.site));
    if (site === undefined || site.published !== 1) throw notFound();
    const variants = await published.variantsOf(site.id);
    const shareable = site.visibility === 'public' || site.visibility === 'unlisted';
    let rest = address.rest;
    let shareSegment: string | undefined;
    let shareKey: string | undefined;
    let access: SiteAccessStamp | undefined;
    let claims: Record<string, unknown> | undefined;
    let notAfter: number | undefined;

    if (site.visibility === 'share-link') {
      const [first, ...after] = rest;
      const opens = (key: string) => this.deps.shareLinks.verify(site.id, key);
      const key = first !== undefined && (await opens(first)) ? first : undefined;
      const offered = key ?? address.shareQuery;
      if (offered === undefined || (key === undefined && !(await opens(offered)))) {
        throw notFound();
      }
      if (key !== undefined) {
        shareSegment = key;
        rest = after;
      }
      shareKey = offered;
      access = { shareLink: hashToken(offered) };
    } else if (site.visibility === 'visitor-auth') {
      const visitor = await this.visitor(site.id, rest, input);
      if ('redirect' in visitor) return { answer: visitor, shareable };
      ({ claims, notAfter } = visitor);
      access = { visitorKey: visitor.fingerprint };
    }

    const located = locateVariant(rest, variants);
    if (located === undefined) throw notFound();
    if (located.kind === 'redirect') {
      const { variant, pagePath } = located;
      const to = pathsOf(
        address,
        shareSegment,
        variant.isDefault ? undefined : variant.path,
        pagePath,
      );
      return { answer: { target: 'content', redirect: to.canonicalUrl }, shareable };
    }
    const { variant, pagePath, prefix } = located;
    const variantPath = variant.isDefault ? undefined : variant.path;
    const apiToken = await this.deps.siteTokens.mint({
      organization: site.organization_id,
      site: site.id,
      siteSpace: variant.id,
      space: variant.spaceId,
      spaces: [...new Set(variants.map((v) => v.spaceId))],
      ...(input.visitor?.type === undefined ? {} : { visitorType: input.visitor.type }),
      ...(claims === undefined ? {} : { claims }),
      ...(access === undefined ? {} : { access }),
      ...(notAfter === undefined ? {} : { notAfter }),
    });
    const answer = {
      site: site.id,
      ...(variant.sectionId === null ? {} : { siteSection: variant.sectionId }),
      siteSpace: variant.id,
      space: variant.spaceId,
      organization: site.organization_id,
      ...pathsOf(address, shareSegment, variantPath, pagePath),
      complete: isComplete(pagePath, prefix, variant, variants),
      apiToken,
      ...(shareKey === undefined ? {} : { shareKey }),
    };
    return { answer, shareable };
  }

  /** The visitor's verified claims, or where to send a visitor without valid ones. */
  private async visitor(
    siteId: string,
    rest: readonly string[],
    input: LookupInput,
  ): Promise<
    | { claims: Record<string, unknown>; notAfter: number; fingerprint: string }
    | { target: 'external'; site: string; redirect: string }
  > {
    const { publishingAuth } = this.deps;
    const token = input.visitor?.jwtToken;
    if (token !== undefined && token !== '') {
      try {
        const verified = await publishingAuth.verify(siteId, token);
        const fingerprint = await publishingAuth.keyFingerprint(siteId);
        if (fingerprint !== undefined) {
          const { aud: _a, exp, iat: _i, nbf: _n, ...claims } = verified;
          return { claims, notAfter: exp, fingerprint };
        }
      } catch (error) {
        if (!(error instanceof VisitorTokenError)) throw error;
      }
    }
    const fallback = await publishingAuth.fallbackURL(siteId);
    const named = (input.names ?? BODY_NAMES).jwtToken;
    // No token at all: the visitor has to sign in. A refused one: only when the caller asks.
    const redirect = fallback !== undefined && (token === undefined || input.redirectOnError);
    if (!redirect) {
      throw new AppError(
        401,
        token === undefined
          ? `This site needs visitor authentication: send ${named}`
          : `${named} is not valid for this site (signature, audience or expiry)`,
      );
    }
    const target = new URL(fallback);
    target.searchParams.set('location', rest.join('/'));
    return { target: 'external', site: siteId, redirect: target.toString() };
  }
}

/**
 * No more site segments can follow: a page path has begun, or no other variant's path continues
 * the segments that named this one. A site's bare root, with other variants, is incomplete; so
 * is a section's root when the section has other variants (`/api` before `/api/v1`).
 */
function isComplete(
  pagePath: string,
  prefix: readonly string[],
  variant: PublishedVariant,
  variants: readonly PublishedVariant[],
): boolean {
  if (pagePath !== '') return true;
  return !variants.some((other) => {
    if (other.id === variant.id || other.isDefault) return false;
    const segments = other.path.split('/');
    return segments.length > prefix.length && prefix.every((s, i) => segments[i] === s);
  });
}
