import { expectStatus, type TestContext } from './app.js';
import { openChangeRequest } from './content.js';
import type { PublishedSite } from './published.js';

/**
 * A real value for each path parameter name of the API, from fixtures around `site` (a published
 * site of test/helpers/published.ts): a request filled with them gets past every lookup, to the
 * checks of its query and body. Creates a spare token, a team, a link invite, a share link and an
 * open change request.
 */
export async function realIds(
  t: TestContext,
  site: PublishedSite,
): Promise<Record<string, string>> {
  const created = async (method: 'POST' | 'PUT', url: string, payload: object) =>
    expectStatus(await t.request({ method, url, payload }), 201).id as string;
  const { spaceId } = site.tree;
  const content = expectStatus(
    await t.request({ method: 'GET', url: `/v1/spaces/${spaceId}/content` }),
    200,
  );
  return {
    organizationId: t.orgId,
    ownerId: t.orgId,
    userId: t.userId,
    spaceId,
    siteId: site.siteId,
    siteSpaceId: site.siteSpaceIds[0] as string,
    pageId: site.tree.intro,
    pagePath: 'intro',
    revisionId: content.id as string,
    changeRequestId: (await openChangeRequest(t, spaceId)).id,
    visitorId: 'visitor-12345',
    number: '1',
    // Not the token of these requests: deleting it must not end a run.
    tokenId: await created('POST', '/v1/user/tokens', { label: 'spare' }),
    teamId: await created('PUT', `/v1/orgs/${t.orgId}/teams`, { title: 'Team' }),
    inviteId: await created('POST', `/v1/orgs/${t.orgId}/link-invites`, { role: 'read' }),
    shareLinkId: await created('POST', `${site.base}/share-links`, { name: 'Link' }),
  };
}

/** An OpenAPI path with each `{name}` replaced by its real value (`x` for an unknown name). */
export function filled(path: string, ids: Readonly<Record<string, string>>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'x'));
}
