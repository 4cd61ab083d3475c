import type { buildServices } from '../app.js';
import type { Db } from '../db/database.js';

type Services = ReturnType<typeof buildServices>;

/** The basename of the one site a preview serves (its `/s/preview/…` address, unused). */
export const PREVIEW_BASENAME = 'preview';

/**
 * The custom hostname the preview's site holds: the preview answers on 127.0.0.1 only, so every
 * request it is meant to serve names this host, and the custom-hostname routing
 * (published/access/site-hostnames.ts) serves the site at the root of the port.
 */
export const PREVIEW_HOSTNAME = '127.0.0.1';

export interface PreviewSite {
  organizationId: string;
  siteId: string;
  /** The space of a folder that is one space (a docs.yaml site makes its own spaces). */
  spaceId: string;
  /** The organization's one user, who customization imports are recorded as. */
  userId: string;
}

/**
 * The organization, space and published site a preview shows the folder in, made directly
 * through the services (no API call, so no token is needed), in the preview's throwaway
 * database. The owner's API token that creating an organization issues is revoked at once:
 * nobody can call the preview's API (docs/preview.md, "Read-only").
 */
export async function createPreviewSite(
  services: Services,
  db: Db,
  title: string,
): Promise<PreviewSite> {
  const shown = title.length >= 2 ? title.slice(0, 50) : 'Preview';
  const created = await services.identity.createOrganizationWithOwner({
    title: shown,
    ownerName: 'livery preview',
  });
  await services.identity.revokeToken(created.tokenId);
  const organizationId = created.organization.id;
  const caller = { userId: created.user.id, tokenId: null, role: 'admin' };
  const space = await services.spaces.create(organizationId, 'admin', { title: shown });
  const site = await services.sites.create(
    organizationId,
    { title: shown, spaces: [space.id] },
    caller,
  );
  await services.sites.update(
    organizationId,
    site.id,
    { basename: PREVIEW_BASENAME, visibility: 'public', published: true },
    caller,
  );
  // Written directly: the API's hostname rules are for names a DNS serves, and an address is
  // none; nothing else in this database holds a hostname.
  await db
    .updateTable('sites')
    .set({ hostname: PREVIEW_HOSTNAME })
    .where('id', '=', site.id)
    .execute();
  await services.siteHostnames.reload();
  return { organizationId, siteId: site.id, spaceId: space.id, userId: created.user.id };
}
