/** URLs of Livery's objects (`urls.location`, `Location` headers, `urls.published`). */
export class Urls {
  /**
   * @param base API origin (BASE_URL), without trailing slash.
   * @param publicBase where published sites are served (PUBLIC_URL), with a trailing slash.
   */
  constructor(
    readonly base: string,
    readonly publicBase: string = `${base}/s/`,
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
  /** A published site's address: PUBLIC_URL + its basename, or its id when it has none. */
  publishedSite = (site: { id: string; basename: string | null }) =>
    `${this.publicBase}${site.basename ?? site.id}`;
  /** The explanation behind `Link: <…>; rel="deprecation"`, optionally at one section. */
  deprecations = (section?: string) =>
    `${this.base}/docs/deprecations${section === undefined ? '' : `#${section}`}`;
}
