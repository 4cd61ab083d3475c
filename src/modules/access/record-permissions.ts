import { PERMISSIONS, roleAtLeast } from './permissions.js';

/**
 * The `permissions` objects GitBook's records carry, derived from the one permission table
 * (permissions.ts) wherever Livery has an operation that does what the flag names, so that a
 * record never claims a right the API would refuse with a 403, nor hides one it would grant.
 * They follow the caller's role, as GitBook's do; a token's scopes narrow what it may call, not
 * what its user may do.
 */

/** May a member with `role` call the operation, as far as roles go (scopes aside)? */
export function roleMayCall(role: string, operationId: string): boolean {
  const permission = PERMISSIONS[operationId];
  if (permission === undefined) throw new Error(`No permission for operation ${operationId}`);
  return permission.role === null || roleAtLeast(role, permission.role);
}

/** GitBook 0.202's Site.permissions for a member with `role` (docs/api.md, "Records"). */
export function sitePermissions(role: string) {
  const view = roleMayCall(role, 'getSiteById');
  return {
    view,
    // Livery has no separate web application: seeing the site through the API is accessing it.
    access: view,
    // Editing content and making drafts: change requests on the site's spaces.
    edit:
      roleMayCall(role, 'createChangeRequest') && roleMayCall(role, 'updateChangeRequestContent'),
    // Drafts, publishing, and the site's structure (its site-spaces).
    create:
      roleMayCall(role, 'createChangeRequest') &&
      roleMayCall(role, 'publishSite') &&
      roleMayCall(role, 'addSpaceToSite'),
    admin:
      roleMayCall(role, 'updateSiteById') &&
      roleMayCall(role, 'updateSiteCustomizationById') &&
      roleMayCall(role, 'publishSite'),
    // Livery has no integrations and no adaptive content.
    installIntegration: false,
    viewAdaptiveSchema: false,
    editAdaptiveSchema: false,
  };
}

/** GitBook's Space.permissions for a member with `role` (docs/api.md, "Records"). */
export function spacePermissions(role: string) {
  const view = roleMayCall(role, 'getSpaceById');
  return {
    view,
    // Livery has no separate web application: seeing the space through the API is accessing it.
    access: view,
    // Managing the space: deleting it is what needs more than editing.
    admin: roleMayCall(role, 'deleteSpaceById'),
    edit:
      roleMayCall(role, 'createChangeRequest') && roleMayCall(role, 'updateChangeRequestContent'),
    merge: roleMayCall(role, 'mergeChangeRequest'),
    // Importing from Git (docs/git-sync.md).
    triggerGitSync: roleMayCall(role, 'importGitRepository'),
    // Livery has no invite links per space (invites are the organization's), no comments, no
    // reviews (a change request merges without them) and no integrations.
    viewInviteLinks: false,
    comment: false,
    review: false,
    installIntegration: false,
  };
}
