/**
 * "Create a site" for an organization without one (a new user's first visit): through the
 * public API only, as a user with curl would. One space per variant, each with a first page,
 * a site showing them all (the first is the default), its title in its settings, a basename,
 * and the site published.
 */
import { slugify } from '../../src/slug.js';
import { ApiError, api } from './client';

export interface NewSite {
  title: string;
  /** Variant (space) titles; the first becomes the default variant. */
  variants: string[];
}

const WELCOME: Record<string, string> = {
  Deutsch: '# Willkommen\n\nDies ist die erste Seite dieser Variante.',
  Français: '# Bienvenue\n\nCeci est la première page de cette variante.',
};

/** A basename from a title ("Acme Docs" → "acme-docs"; no `_`, so never like a site id). */
export const basenameOf = (title: string): string => slugify(title, 'docs', 60);

async function spaceWithFirstPage(organizationId: string, title: string): Promise<string> {
  const space = await api.post<{ id: string }>(`/v1/orgs/${organizationId}/spaces`, { title });
  const id = space.body.id;
  const cr = await api.post<{ id: string }>(`/v1/spaces/${id}/change-requests`, {
    subject: 'First page',
  });
  const base = `/v1/spaces/${id}/change-requests/${cr.body.id}`;
  const markdown = WELCOME[title] ?? `# Welcome\n\nThis is the first page of ${title}.`;
  await api.post(`${base}/content`, {
    changes: [{ operation: 'insert_page', document: { markdown } }],
  });
  await api.post(`${base}/merge`);
  return id;
}

/** Creates and publishes the site; answers its id. */
export async function createSite(organizationId: string, input: NewSite): Promise<string> {
  const spaces: string[] = [];
  for (const variant of input.variants)
    spaces.push(await spaceWithFirstPage(organizationId, variant));
  const site = await api.post<{ id: string }>(`/v1/orgs/${organizationId}/sites`, {
    title: input.title,
    spaces,
  });
  const path = `/v1/orgs/${organizationId}/sites/${site.body.id}`;
  // The title typed is the site's title in its settings too: unset, the published header would
  // show the first variant's (space's) title instead.
  const settings = await api.get<Record<string, unknown>>(`${path}/customization`);
  await api.put(
    `${path}/customization`,
    { ...settings.body, title: input.title },
    settings.etag === undefined ? {} : { ifMatch: settings.etag },
  );
  // A basename is unique across the instance: on a 409, try with a number after it.
  const basename = basenameOf(input.title);
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      await api.patch(path, { basename: attempt === 1 ? basename : `${basename}-${attempt}` });
      break;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
    }
  }
  await api.post(`${path}/publish`);
  return site.body.id;
}
