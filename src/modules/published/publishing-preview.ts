import { badRequest, notFound } from '../../errors.js';
import { isAllowedUrl } from '../../html/safe-url.js';
import type { ServerKey } from '../../server-key.js';
import { encodeVariantPath } from './access/address.js';
import { PREVIEW_PARAMETER, PREVIEW_SECONDS, previewToken } from './access/preview-token.js';
import type { PublishedRepository } from './repository.js';

export interface PreviewRequest {
  /** A site-space of the site; the default one when absent. */
  siteSpace?: string | undefined;
  /** An address of the site to open; wins over `siteSpace`. */
  target?: string | undefined;
}

/**
 * getSitePublishingPreviewById (docs/sites.md, "Publishing previews"): a URL of the site's
 * published address that opens it, for one hour, to whoever holds it, whether the site is
 * published or not and whatever its visibility: the view a member previewing with an API token
 * has (not indexed), with the credential in the URL instead of a header. The published site
 * takes it once from the query into a cookie of the site (access/access.ts).
 */
export class PublishingPreviews {
  constructor(
    private readonly repo: Pick<PublishedRepository, 'siteByAddress' | 'variantsOf'>,
    private readonly deps: {
      key: Pick<ServerKey, 'sign' | 'verify'>;
      /** PUBLIC_URL, ending with `/`. */
      publicUrl: string;
      /** A custom hostname's root address (`https://docs.acme.com/`: urls.ts). */
      hostnameRoot: (hostname: string) => string;
      now?: () => number;
    },
  ) {}

  async url(organizationId: string, siteId: string, input: PreviewRequest): Promise<string> {
    const site = await this.repo.siteByAddress(siteId);
    if (site === undefined || site.id !== siteId || site.organization_id !== organizationId) {
      throw notFound('site', siteId);
    }
    const roots = [site.id, ...(site.basename === null ? [] : [site.basename])].map(
      (address) => `${this.deps.publicUrl}${encodeURIComponent(address)}/`,
    );
    if (site.hostname !== null) roots.unshift(this.deps.hostnameRoot(site.hostname));
    const home = roots[site.hostname === null && site.basename !== null ? 1 : 0] as string;
    let address: URL;
    if (input.target !== undefined) {
      address = targetWithin(input.target, roots);
    } else {
      address = new URL(home);
      if (input.siteSpace !== undefined) {
        const variants = await this.repo.variantsOf(site.id);
        const variant = variants.find((v) => v.id === input.siteSpace);
        if (variant === undefined) throw notFound('site-space', input.siteSpace);
        if (!variant.isDefault) address = new URL(`${encodeVariantPath(variant.path)}/`, home);
      }
    }
    const now = Math.floor((this.deps.now ?? Date.now)() / 1000);
    address.searchParams.set(
      PREVIEW_PARAMETER,
      previewToken(this.deps.key, site.id, now + PREVIEW_SECONDS),
    );
    return address.href;
  }
}

/** `target` as a URL, when it is an address of the site (under one of its roots); else a 400. */
function targetWithin(target: string, roots: readonly string[]): URL {
  let url: URL | undefined;
  try {
    url = isAllowedUrl(target) ? new URL(target) : undefined;
  } catch {
    url = undefined;
  }
  const within =
    url !== undefined &&
    ['http:', 'https:'].includes(url.protocol) &&
    url.username === '' &&
    url.password === '' &&
    roots.some((root) => `${url.origin}${url.pathname}/`.startsWith(root));
  if (url === undefined || !within) {
    throw badRequest(
      `querystring.target must be an absolute address of the site's published pages (under ${roots.join(' or ')})`,
    );
  }
  url.hash = '';
  return url;
}
