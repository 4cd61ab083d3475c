/** API URLs of Livery's objects (`urls.location`, `Location` headers), from the configured base. */
export class Urls {
  constructor(readonly base: string) {}

  user = (id: string) => `${this.base}/v1/users/${id}`;
  organization = (id: string) => `${this.base}/v1/orgs/${id}`;
  space = (id: string) => `${this.base}/v1/spaces/${id}`;
  site = (orgId: string, siteId: string) => `${this.organization(orgId)}/sites/${siteId}`;
  siteSpace = (orgId: string, siteId: string, siteSpaceId: string) =>
    `${this.site(orgId, siteId)}/site-spaces/${siteSpaceId}`;
  /** The explanation behind `Link: <…>; rel="deprecation"`. */
  deprecations = () => `${this.base}/docs/deprecations`;
}
