/**
 * Who may call what: the one table Livery enforces (access/auth.ts) and docs/permissions.md is
 * rendered from (`npm run docs:permissions`; a test keeps the two equal).
 *
 * - `role`: the lowest organization role that may call the operation, in the organization the
 *   request names (by path, or through the space or site it names). `guest` means any member.
 *   Roles, lowest to highest: guest < read < comment < review < edit < create < admin.
 * - `scope`: the OAuth scope name (GitBook 0.202, notes §11) an API token restricted to scopes
 *   must hold. A token without scopes has all of its user's rights; a token's rights are the
 *   intersection of its scopes and its user's role.
 * - `unscopedOnly`: only a token without scopes may call it (managing tokens: a restricted token
 *   must not be able to mint a broader one).
 */

export const ORG_ROLES = ['guest', 'read', 'comment', 'review', 'edit', 'create', 'admin'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

export const SCOPES = [
  'user:read',
  'organization:read',
  'organization:write',
  'organization:members:read',
  'organization:members:write',
  'space:read',
  'space:write',
  'change-request:merge',
  'site:read',
  'site:write',
  'site:publish',
  'site:auth:read',
  'site:auth:write',
  'site:insights:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export interface Permission {
  /**
   * null: no role needed — the operation names no organization (the caller's own user, tokens),
   * or is open to non-members (joining with an invite).
   */
  role: OrgRole | null;
  scope: Scope | null;
  unscopedOnly?: true;
  /** Callable without a token (creating an account through an invite). */
  anonymous?: true;
  /** More needed when the body carries these fields (checked with the rest, before validation). */
  fields?: Readonly<Record<string, Permission>>;
  /** Why, where the choice is Livery's rather than GitBook's. */
  note?: string;
  /**
   * A site token (the public `apiToken` of `POST /v1/urls/published`) may call it, for its own
   * published site only (modules/site-tokens/gate.ts). Reads the renderer makes, and the reader
   * events it reports (trackEventsInSiteById); nothing else.
   */
  siteToken?: true;
}

const p = (role: OrgRole | null, scope: Scope | null, note?: string): Permission => ({
  role,
  scope,
  ...(note === undefined ? {} : { note }),
});

/**
 * The lowest role that sees the organization's spaces (reads any of them). Below it (a guest),
 * a path naming a space answers 404 whatever the operation, as for an unknown space or a
 * stranger, so that the space is not confirmed to exist (access/auth.ts).
 */
export const SPACE_SEER: OrgRole = 'read';

/** Does a member with `role` see the organization's spaces? */
export function seesSpaces(role: string): boolean {
  return roleAtLeast(role, SPACE_SEER);
}

/** Also open to site tokens: a read GitBook's renderer makes of the site it renders. */
const renderer = (permission: Permission): Permission => ({ ...permission, siteToken: true });

const SHARE_LINKS_AND_AUTH = {
  listSiteShareLinks: p('admin', 'site:auth:read', 'share links are access secrets of the site'),
  createSiteShareLink: p('admin', 'site:auth:write'),
  updateSiteShareLinkById: p('admin', 'site:auth:write'),
  deleteSiteShareLinkById: p('admin', 'site:auth:write'),
  getSitePublishingAuthById: p('admin', 'site:auth:read', 'the answer holds the signing key'),
  updateSitePublishingAuthById: p('admin', 'site:auth:write'),
  regenerateSitePublishingAuthById: p('admin', 'site:auth:write'),
};

/** Every `/v1` operation, by operationId. A route missing here fails at start-up. */
export const PERMISSIONS: Readonly<Record<string, Permission>> = {
  // The caller's own user and organizations.
  getAuthenticatedUser: p(null, 'user:read'),
  listOrganizationsForAuthenticatedUser: p(null, 'organization:read'),
  getOrganizationById: p('guest', 'organization:read'),
  createOrganization: p(
    null,
    'organization:write',
    'a user who is an admin of at least one organization of the server (checked by the service); they become its admin',
  ),
  updateOrganizationById: p('admin', 'organization:write'),
  listUserTokens: { role: null, scope: null, unscopedOnly: true },
  createUserToken: { role: null, scope: null, unscopedOnly: true },
  getUserTokenById: { role: null, scope: null, unscopedOnly: true },
  deleteUserTokenById: { role: null, scope: null, unscopedOnly: true },

  // Members.
  listMembersInOrganizationById: p('read', 'organization:members:read'),
  getMemberInOrganizationById: p('read', 'organization:members:read'),
  updateMemberInOrganizationById: p('admin', 'organization:members:write'),
  removeMemberFromOrganizationById: p('admin', 'organization:members:write'),
  listSpacesForOrganizationMember: p('read', 'organization:members:read'),
  getUserById: p(
    null,
    'organization:members:read',
    'users who share an organization with the caller',
  ),

  // Invites.
  inviteUsersToOrganization: p('admin', 'organization:members:write'),
  joinOrganizationWithInvite: p(
    null,
    'organization:members:write',
    'open to non-members: that is its point',
  ),
  listOrganizationInviteLinks: p('admin', 'organization:members:read', 'invite links are secrets'),
  createOrganizationInvite: p('admin', 'organization:members:write'),
  getOrganizationInviteLink: p('admin', 'organization:members:read'),
  updateOrganizationInviteById: p('admin', 'organization:members:write'),
  deleteOrganizationInviteById: p('admin', 'organization:members:write'),
  createUser: {
    role: null,
    scope: null,
    unscopedOnly: true,
    anonymous: true,
    note: 'Livery extension: without a token through an invite; otherwise an admin of the organization (checked by the service)',
  },

  // Teams.
  listTeamsInOrganizationById: p('read', 'organization:members:read'),
  listOrganizationAuditLog: p(
    'admin',
    'organization:read',
    "Livery's audit log: it names every member's actions (docs/history.md)",
  ),
  listOrganizationAuditEvents: p(
    'admin',
    'organization:read',
    "GitBook's audit events: organization administrators only, as 0.202 says",
  ),
  getOrganizationAuditEvent: p('admin', 'organization:read'),
  listOrganizationAuditEventActions: p('admin', 'organization:read'),
  createOrganizationTeam: p('admin', 'organization:members:write'),
  getTeamInOrganizationById: p('read', 'organization:members:read'),
  updateTeamInOrganizationById: p('admin', 'organization:members:write'),
  removeTeamFromOrganizationById: p('admin', 'organization:members:write'),
  listTeamMembersInOrganizationById: p('read', 'organization:members:read'),
  listTeamsForOrganizationMember: p('read', 'organization:members:read'),
  updateMembersInOrganizationTeam: p(
    'read',
    'organization:members:write',
    "and the admin role, or the team's owner role (checked by the service)",
  ),
  addMemberToOrganizationTeamById: p(
    'read',
    'organization:members:write',
    "and the admin role, or the team's owner role (checked by the service)",
  ),
  deleteMemberFromOrganizationTeamById: p(
    'read',
    'organization:members:write',
    "and the admin role, or the team's owner role (checked by the service)",
  ),

  // Spaces.
  createSpace: p('create', 'space:write'),
  getSpaceById: renderer(p(SPACE_SEER, 'space:read')),
  updateSpaceById: {
    ...p(
      'edit',
      'space:write',
      'with the deprecated visibility or published fields it also needs admin and site:write (visibility) or site:publish (published)',
    ),
    fields: { visibility: p('admin', 'site:write'), published: p('admin', 'site:publish') },
  },

  listSpacesInOrganizationById: p('read', 'space:read'),
  searchOrganizationContent: p(
    'read',
    'space:read',
    "every space's current revision, as listSpacesInOrganizationById lists them; GitBook 0.202 names the OAuth scope organization:search, which Livery has not: the answer is the spaces' content",
  ),
  deleteSpaceById: p('admin', 'space:write'),
  restoreSpace: p('admin', 'space:write', 'as deleteSpaceById'),
  duplicateSpace: p('create', 'space:write', 'as createSpace: the copy is a new space'),
  moveSpace: p('admin', 'space:write'),
  listSpacesForUser: p(
    null,
    'space:read',
    'Livery extension: users who share an organization with the caller; only those organizations are listed',
  ),
  listSpacesForOwner: { ...p(null, null, 'removed: always 410 Gone'), anonymous: true },

  // Content: revisions and pages.
  getCurrentRevision: p('read', 'space:read'),
  getRevisionById: renderer(p('read', 'space:read')),
  listPages: p('read', 'space:read'),
  getPageById: p('read', 'space:read'),
  getPageByPath: p('read', 'space:read'),
  listPagesInRevisionById: renderer(p('read', 'space:read')),
  getPageInRevisionById: renderer(p('read', 'space:read')),
  getPageDocumentInRevisionById: renderer(p('read', 'space:read')),
  getPageInRevisionByPath: renderer(p('read', 'space:read')),
  listRevisionPageMetaLinks: renderer(p('read', 'space:read')),
  listSpacePageMetaLinks: renderer(p('read', 'space:read')),
  getDocumentById: p('read', 'space:read'),
  getRevisionSemanticChanges: p('read', 'space:read'),
  searchSpaceContent: p(
    'read',
    'space:read',
    "the space's current revision, published or not: what a member reads in it",
  ),
  getSpacePDF: p('read', 'space:read'),

  // Files and reusable contents (docs/git-sync.md).
  listFiles: p('read', 'space:read'),
  getFileById: p('read', 'space:read'),
  getReusableContentById: p('read', 'space:read'),
  listFilesInRevisionById: renderer(p('read', 'space:read')),
  getFileInRevisionById: renderer(p('read', 'space:read')),
  getReusableContentInRevisionById: renderer(p('read', 'space:read')),
  getReusableContentDocumentInRevisionById: renderer(p('read', 'space:read')),
  listFilesInChangeRequestById: p('read', 'space:read'),
  getFileInChangeRequestById: p('read', 'space:read'),
  getReusableContentInChangeRequestById: p('read', 'space:read'),
  // Uploads (docs/uploads.md): GitBook reserves it to its own app (user-internal).
  generateStorageUploadURL: p(
    'admin',
    'site:write',
    "what Livery does with an upload (a site's logo, favicon, social image or font) is changing a site's customization: admin and site:write, as that",
  ),

  // Git Sync (docs/git-sync.md).
  importGitRepository: p(
    'edit',
    'space:write',
    "it replaces the space's content, as a merged change request would: edit and above",
  ),
  getSpaceGitInfo: p('read', 'space:read'),
  linkSpaceGitRepository: p(
    'edit',
    'space:write',
    'a link writes to the space and the repository on every change: edit and above',
  ),
  getSpaceGitLink: p(
    'edit',
    'space:write',
    "it shows the repository and the space's previews: edit and above",
  ),
  unlinkSpaceGitRepository: p('edit', 'space:write'),
  syncSpaceGitRepository: p('edit', 'space:write'),
  receiveGitWebhook: {
    ...p(
      null,
      null,
      "no token: the provider's signature with the link's secret is its authentication",
    ),
    anonymous: true,
  },
  exportToGitRepository: p(
    'edit',
    'space:write',
    "it writes the space's content to a repository with the server's access to it: edit and above",
  ),

  // Change requests.
  createChangeRequest: p('edit', 'space:write'),
  listChangeRequestsForSpace: p('read', 'space:read'),
  getChangeRequestById: p('read', 'space:read'),
  updateChangeRequestById: p('edit', 'space:write'),
  updateChangeRequestContent: p('edit', 'space:write'),
  updateChangeRequest: p('edit', 'space:write'),
  mergeChangeRequest: p(
    'review',
    'change-request:merge',
    'as the space permission merge: review and above',
  ),
  getRevisionOfChangeRequestById: p('read', 'space:read'),
  listPagesInChangeRequest: p('read', 'space:read'),
  getPageInChangeRequestById: p('read', 'space:read'),
  getPageInChangeRequestByPath: p('read', 'space:read'),
  // Change request previews (Livery extension, docs/change-request-previews.md).
  createChangeRequestPreviewLink: p(
    'edit',
    'space:write',
    "Livery extension: the link lets anyone holding it read the change request's content, so making one is editing: edit and above",
  ),
  getChangeRequestPreviewLink: p(
    'edit',
    'space:write',
    'Livery extension: the link is a credential to the content: as making it',
  ),
  deleteChangeRequestPreviewLink: p('edit', 'space:write', 'Livery extension'),

  // Content insights (GitBook 0.91; no 0.202 scope exists for them).
  createPageFeedback: p(
    'read',
    'space:read',
    "a visitor's rating: whoever can read the page may record one",
  ),
  createSitesPageFeedback: p(
    'read',
    'space:read',
    "a visitor's rating: whoever can read the page may record one",
  ),
  getPageFeedback: p('read', 'site:insights:read'),
  trackViewInSpaceById: p(
    'read',
    'space:read',
    'a page view: whoever can read the page may record one',
  ),
  getContentAnalyticsForSpaceById: p('read', 'site:insights:read'),
  getContentAnalyticsForSiteSpaceById: p('read', 'site:insights:read'),
  // Site analytics events (GitBook 0.202's site-insights, docs/insights.md "Site events").
  trackEventsInSiteById: renderer(
    p(
      'read',
      'site:read',
      "GitBook 0.202 names no scope; Livery: site:read. Open to site tokens: GitBook's renderer reports its readers' events with the token of the site it renders",
    ),
  ),
  aggregateSiteEvents: p('read', 'site:insights:read'),

  // Sites and site-spaces.
  listSites: p('read', 'site:read'),
  createSite: p('create', 'site:write'),
  getSiteById: p('read', 'site:read', 'GitBook 0.202 names no scope; Livery uses site:read'),
  getPublishedContentSite: renderer(p('read', 'site:read')),
  getSiteRedirectBySource: renderer(p('read', 'site:read')),
  listSiteRedirects: p('read', 'site:read'),
  createSiteRedirect: p('admin', 'site:write'),
  bulkUpsertSiteRedirects: p('admin', 'site:write'),
  updateSiteRedirectById: p('admin', 'site:write'),
  deleteSiteRedirectById: p('admin', 'site:write'),
  resolvePublishedContentByUrl: p(
    null,
    null,
    'any API token: what it answers, a published URL already shows; closed sites need their credential',
  ),
  getPublishedContentByUrl: p(
    null,
    null,
    'deprecated GET form of resolvePublishedContentByUrl: as it',
  ),
  getContentByUrl: p(
    null,
    'space:read',
    'the path names no organization: the service checks role read in the organization of the space the URL names, else 404 (docs/api.md, "Resolving URLs")',
  ),
  updateSiteById: p('admin', 'site:write'),
  deleteSiteById: p('admin', 'site:write'),
  publishSite: p('admin', 'site:publish'),
  unpublishSite: p('admin', 'site:publish'),
  listSiteSpaces: p('read', 'site:read'),
  searchSiteContent: renderer(
    p(
      'read',
      'site:read',
      'GitBook 0.202 names the OAuth scope site:search; Livery uses site:read: it answers what the published site shows',
    ),
  ),
  // Custom hostnames (docs/sites.md): the path names no organization; the service checks the
  // role in the organization of the site holding the hostname and answers as for an unknown
  // hostname otherwise.
  getCustomHostname: p(
    null,
    'site:read',
    "GitBook reserves it to its staff; Livery: role read in the organization of the hostname's site, else 404",
  ),
  removeCustomHostname: p(
    null,
    'site:write',
    "GitBook reserves it to its staff; Livery: role admin in the organization of the hostname's site, else 204 as for an unknown hostname",
  ),
  dnsRevalidateCustomHostname: p(
    null,
    'site:write',
    "GitBook reserves it to its staff; Livery checks no DNS: role admin in the organization of the hostname's site answers 204, else 400 as for an inactive hostname",
  ),
  addSpaceToSite: p('admin', 'site:write'),
  updateSiteSpaceById: p('admin', 'site:write'),
  deleteSiteSpaceById: p('admin', 'site:write'),
  // Site structure (docs/sites.md, "Sections"): read as the site, changed as its site-spaces.
  getSiteStructure: p('read', 'site:read'),
  addSectionToSite: p('admin', 'site:write'),
  addSectionGroupToSite: p('admin', 'site:write'),
  addExternalLinkToSite: p('admin', 'site:write'),
  listSiteSections: p('read', 'site:read'),
  updateSiteSectionById: p('admin', 'site:write'),
  deleteSiteSectionById: p('admin', 'site:write'),
  moveSiteSection: p('admin', 'site:write'),
  listSiteSectionGroups: p('read', 'site:read'),
  updateSiteSectionGroupById: p('admin', 'site:write'),
  deleteSiteSectionGroupById: p('admin', 'site:write'),
  moveSiteSectionGroup: p('admin', 'site:write'),
  moveSiteSpace: p('admin', 'site:write'),
  duplicateSiteSpace: p('admin', 'site:write'),
  updateSiteExternalLinkById: p('admin', 'site:write'),
  deleteSiteExternalLinkById: p('admin', 'site:write'),
  sortSiteStructure: p('admin', 'site:write'),
  // A whole site from Git (Livery, docs/git-sync.md "Whole sites (docs.yaml)"): it rewrites the
  // site's structure, its spaces' content and its customization: admin, as those writes are.
  importSiteGitRepository: p(
    'admin',
    'site:write',
    "Livery extension; it sets the site's structure and customization: admin",
  ),
  exportSiteToGitRepository: p(
    'admin',
    'site:write',
    "Livery extension; it writes the site's structure, content and customization to a repository: admin, as its import",
  ),
  getSiteGitInfo: p('read', 'site:read', 'Livery extension'),

  // Customization.
  getSiteCustomizationById: p('read', 'site:read'),
  getSiteSpaceCustomizationOverride: p('read', 'site:read', 'Livery extension'),
  updateSiteCustomizationById: p('admin', 'site:write'),
  getSiteSpaceCustomizationById: p('read', 'site:read'),
  overrideSiteSpaceCustomizationById: p('admin', 'site:write'),
  // Customization history (Livery, docs/history.md): reading it as reading customization,
  // restoring as writing it.
  listSiteCustomizationRevisions: p('read', 'site:read'),
  getSiteCustomizationRevision: p('read', 'site:read'),
  compareSiteCustomizationRevisions: p('read', 'site:read'),
  restoreSiteCustomizationRevision: p('admin', 'site:write'),
  listSiteSpaceCustomizationRevisions: p('read', 'site:read'),
  getSiteSpaceCustomizationRevision: p('read', 'site:read'),
  compareSiteSpaceCustomizationRevisions: p('read', 'site:read'),
  restoreSiteSpaceCustomizationRevision: p('admin', 'site:write'),
  deleteSiteSpaceCustomizationById: p('admin', 'site:write'),
  // Custom fonts (docs/customization.md): GitBook 0.202 names no scope; the organization's
  // fonts are material of its sites' customization, read and written as that is.
  listCustomFonts: p('read', 'site:read'),
  getCustomFont: p('read', 'site:read'),
  createCustomFont: p('admin', 'site:write'),
  updateCustomFont: p('admin', 'site:write'),
  deleteCustomFont: p('admin', 'site:write'),
  getSiteSpaceThemeCss: p(
    'read',
    'site:read',
    'Livery extension: the CSS of the effective settings',
  ),
  previewSitePage: p(
    'read',
    'site:read',
    'Livery extension: renders a page with draft settings and saves nothing, so reading the settings suffices',
  ),
  getSitePublishingPreviewById: p(
    'admin',
    'site:read',
    'the URL opens the site to whoever holds it for an hour, published or not, as a share link does: admin, as share links',
  ),

  // Share links and visitor authentication, site-keyed and (deprecated) space-keyed.
  ...SHARE_LINKS_AND_AUTH,
  ...Object.fromEntries(
    Object.entries(SHARE_LINKS_AND_AUTH).map(([id, permission]) => [
      id.replace('Site', 'Space'),
      { ...permission, note: 'deprecated space-keyed form: as its site-keyed successor' },
    ]),
  ),
};

const RANK: Readonly<Record<string, number>> = Object.fromEntries(
  ORG_ROLES.map((role, index) => [role, index]),
);

/** Is `role` (a member's stored role) at least `minimum`? Unknown roles rank below guest. */
export function roleAtLeast(role: string, minimum: OrgRole): boolean {
  return (RANK[role] ?? -1) >= (RANK[minimum] ?? Number.POSITIVE_INFINITY);
}
