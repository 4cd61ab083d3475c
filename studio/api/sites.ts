/** Organizations, sites and their variants (site-spaces): what navigation and the site bar show and change. */
import { api } from './client';

export interface List<T> {
  items: T[];
  count?: number;
  next?: { page: string };
}

export interface Organization {
  id: string;
  title: string;
}

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type Visibility = (typeof SITE_VISIBILITIES)[number];

export interface Site {
  id: string;
  title: string;
  visibility: string;
  published: boolean;
  siteSpaces: number;
  urls: { published?: string; preview: string };
}

export interface SiteSpace {
  id: string;
  title: string;
  path: string;
  default: boolean;
  hidden: boolean;
  space: { id: string; title: string };
}

const org = (organizationId: string) => `/v1/orgs/${encodeURIComponent(organizationId)}`;
const site = (organizationId: string, siteId: string) =>
  `${org(organizationId)}/sites/${encodeURIComponent(siteId)}`;

export const listOrganizations = async () =>
  (await api.get<List<Organization>>('/v1/orgs?limit=1000')).body.items;

export const getOrganization = async (organizationId: string) =>
  (await api.get<Organization>(org(organizationId))).body;

export const listSites = async (organizationId: string) =>
  (await api.get<List<Site>>(`${org(organizationId)}/sites?limit=1000`)).body.items;

export const getSite = async (organizationId: string, siteId: string) =>
  (await api.get<Site>(site(organizationId, siteId))).body;

export const listSiteSpaces = async (organizationId: string, siteId: string) =>
  (await api.get<List<SiteSpace>>(`${site(organizationId, siteId)}/site-spaces?limit=1000`)).body
    .items;

export const setPublished = async (organizationId: string, siteId: string, published: boolean) =>
  (
    await api.post<Site>(
      `${site(organizationId, siteId)}/${published ? 'publish' : 'unpublish'}`,
      undefined,
    )
  ).body;

export const setVisibility = async (
  organizationId: string,
  siteId: string,
  visibility: Visibility,
) => (await api.patch<Site>(site(organizationId, siteId), { visibility })).body;

/** Display names of the users history names by id, each asked for once. */
const userNames = new Map<string, Promise<string>>();
export function displayNameOf(userId: string): Promise<string> {
  let name = userNames.get(userId);
  if (name === undefined) {
    name = api
      .get<{ displayName: string }>(`/v1/users/${encodeURIComponent(userId)}`)
      .then((answer) => answer.body.displayName)
      .catch(() => userId);
    userNames.set(userId, name);
  }
  return name;
}
