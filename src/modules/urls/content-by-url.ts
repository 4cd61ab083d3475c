import { AppError, badRequest } from '../../errors.js';
import { seesSpaces } from '../access/permissions.js';
import type { ChangeRequestsService } from '../content/change-requests-service.js';
import type { ChangeRequest } from '../content/schemas.js';
import type { ContentService, PresentedPage } from '../content/service.js';
import { locateVariant } from '../published/access/address.js';
import type { PublishedRepository } from '../published/repository.js';
import type { ShareLinksService } from '../share-links/service.js';
import type { Space } from '../spaces/schemas.js';
import type { SpacesService } from '../spaces/service.js';
import { type NamedContent, namedContent } from './content-url.js';
import { locateHostedUrl, locateUrl } from './locate.js';

export interface ContentByUrl {
  space: Space;
  changeRequest?: ChangeRequest;
  page?: PresentedPage;
}

/** One answer for every URL naming nothing the caller may read: nothing is confirmed. */
const nothing = () => new AppError(404, 'No content the caller may read is found at this URL');

/**
 * getContentByUrl (docs/api.md, "Resolving URLs"): the space, change request and page a Livery
 * URL names (an API or studio URL: content-url.ts; or a published page's URL), for a caller with
 * a role that reads the space's organization's spaces. Any other URL, and content of an
 * organization the caller does not read, is the same 404.
 */
export class ContentByUrlService {
  private readonly base: URL;
  private readonly publicUrl: URL;

  constructor(
    private readonly deps: {
      baseUrl: string;
      publicUrl: string;
      published: PublishedRepository;
      shareLinks: ShareLinksService;
      spaces: SpacesService;
      content: ContentService;
      changeRequests: ChangeRequestsService;
    },
  ) {
    this.base = new URL(`${deps.baseUrl}/`);
    this.publicUrl = new URL(deps.publicUrl);
  }

  async resolve(userId: string, raw: string): Promise<ContentByUrl> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw badRequest('querystring.url: not an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw badRequest('querystring.url: an http or https URL (Livery names its content so)');
    }
    const named = namedContent(url, this.base) ?? (await this.publishedPage(url));
    if (named === undefined) throw nothing();
    const spaceId = named.kind === 'space' ? named.spaceId : await this.variantSpace(named);
    if (spaceId === undefined) throw nothing();
    const { row, role } = await this.deps.spaces.requireVisible(userId, spaceId).catch(() => {
      throw nothing();
    });
    if (!seesSpaces(role)) throw nothing();
    if (named.kind === 'variant' && row.organization_id !== named.organizationId) throw nothing();
    const answer: ContentByUrl = { space: await this.deps.spaces.get(userId, spaceId) };
    if (named.kind !== 'space') return answer;
    const { source, page } = named;
    if (source.kind === 'change-request') {
      answer.changeRequest = await this.deps.changeRequests.get(spaceId, source.changeRequest);
    } else if (source.kind === 'revision') {
      await this.deps.content.revisionFor(spaceId, source); // 404 for a revision not the space's
    }
    if (page !== undefined) {
      const { content } = this.deps;
      const found = await ('id' in page
        ? content.pageById(spaceId, source, page.id, undefined)
        : content.pageByPath(spaceId, source, page.path, undefined));
      // 0.202's answer has documents and groups; a link page is a link, not content.
      const presented = found as PresentedPage;
      if (presented.type !== 'link') answer.page = presented;
    }
    return answer;
  }

  /** The space a studio variant URL names, if the site is that organization's and has it. */
  private async variantSpace(named: NamedContent & { kind: 'variant' }) {
    const variants = await this.deps.published.variantsOf(named.siteId);
    return variants.find((v) => v.id === named.siteSpaceId)?.spaceId;
  }

  /**
   * The space and page a published page's URL shows (its site published): at PUBLIC_URL or at
   * a site's custom hostname, past a share key, the variant by its path, the page by its path
   * in the space's current revision (what the published site shows).
   */
  private async publishedPage(url: URL): Promise<NamedContent | undefined> {
    const { published } = this.deps;
    const hosted = await published.siteByHostname(url.hostname.toLowerCase());
    const address =
      hosted === undefined ? locateUrl(url, this.publicUrl) : locateHostedUrl(url, hosted.id);
    if (address === undefined) return undefined;
    const site = hosted ?? (await published.siteByAddress(address.site));
    if (site === undefined || site.published !== 1) return undefined;
    let rest = address.rest;
    const [first, ...after] = rest;
    if (
      site.visibility === 'share-link' &&
      first !== undefined &&
      (await this.deps.shareLinks.verify(site.id, first))
    ) {
      rest = after;
    }
    const located = locateVariant(rest, await published.variantsOf(site.id));
    if (located === undefined) return undefined;
    const { variant, pagePath } = located;
    const named: NamedContent = {
      kind: 'space',
      spaceId: variant.spaceId,
      source: { kind: 'space' },
    };
    if (pagePath !== '') named.page = { path: pagePath };
    return named;
  }
}
