import type { buildServices } from '../app.js';

type Services = ReturnType<typeof buildServices>;

/** The basename of the one site a preview serves: its pages are at `/s/preview/…`. */
export const PREVIEW_BASENAME = 'preview';

export interface PreviewSite {
  organizationId: string;
  siteId: string;
  spaceId: string;
}

/**
 * The organization, space and published site a preview shows the folder in, made directly
 * through the services (no API call, so no token is needed), in the preview's throwaway
 * database. The owner's API token that creating an organization issues is revoked at once:
 * nobody can call the preview's API (docs/preview.md, "Read-only").
 */
export async function createPreviewSite(services: Services, title: string): Promise<PreviewSite> {
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
  return { organizationId, siteId: site.id, spaceId: space.id };
}
