import { Enum } from '../../http/schema-helpers.js';

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

// Here, below sites/ (which shows spaces): a space's deprecated `visibility` field speaks it too.

/** Who may see a published site (docs/sites.md). */
export const SiteVisibilitySchema = Enum(
  SITE_VISIBILITIES,
  'Who may see the published site: public (indexed), unlisted (not indexed), share-link (a secret key in the URL), visitor-auth (a JWT signed with the site key)',
);
