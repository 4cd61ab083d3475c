/** URLs of Livery's objects (`urls.location`, `Location` headers, `urls.published`). */
export class Urls {
  /**
   * @param base API origin (BASE_URL), without trailing slash.
   * @param publicBase where published sites are served (PUBLIC_URL), with a trailing slash.
   * @param hostnameScheme the scheme of sites' custom hostnames (CUSTOM_HOSTNAME_SCHEME).
   */
  constructor(
    readonly base: string,
    readonly publicBase: string = `${base}/s/`,
    readonly hostnameScheme: 'http' | 'https' = 'https',
  ) {}

  user = (id: string) => `${this.base}/v1/users/${id}`;
  organization = (id: string) => `${this.base}/v1/orgs/${id}`;
  space = (id: string) => `${this.base}/v1/spaces/${id}`;
  site = (orgId: string, siteId: string) => `${this.organization(orgId)}/sites/${siteId}`;
  siteSpace = (orgId: string, siteId: string, siteSpaceId: string) =>
    `${this.site(orgId, siteId)}/site-spaces/${siteSpaceId}`;
  /** A node of a site's structure: `sections`, `section-groups` or `external-links`. */
  siteStructureNode = (orgId: string, siteId: string, collection: string, id: string) =>
    `${this.site(orgId, siteId)}/${collection}/${id}`;
  team = (orgId: string, teamId: string) => `${this.organization(orgId)}/teams/${teamId}`;
  shareLink = (orgId: string, siteId: string, shareLinkId: string) =>
    `${this.site(orgId, siteId)}/share-links/${shareLinkId}`;
  /**
   * A published site's address: the root of its custom hostname when it has one, else
   * PUBLIC_URL + its basename, or its id when it has none.
   */
  publishedSite = (site: { id: string; basename: string | null; hostname?: string | null }) =>
    site.hostname == null
      ? `${this.publicBase}${site.basename ?? site.id}`
      : this.hostnameRoot(site.hostname);
  /** A custom hostname's root address: `https://docs.acme.com/`. */
  hostnameRoot = (hostname: string) => `${this.hostnameScheme}://${hostname}/`;
  customHostname = (hostname: string) => `${this.base}/v1/custom-hostnames/${hostname}`;
  /** The explanation behind `Link: <…>; rel="deprecation"`, optionally at one section. */
  deprecations = (section?: string) =>
    `${this.base}/docs/deprecations${section === undefined ? '' : `#${section}`}`;
}
