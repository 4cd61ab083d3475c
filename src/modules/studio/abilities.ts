import { roleRefusal, scopeRefusal } from '../access/permission-checks.js';
import { PERMISSIONS } from '../access/permissions.js';

/**
 * The operations Livery Studio offers buttons for. For each, the studio learns in advance whether
 * the signed-in token may call it, and if not, why, in the words of the API's own 403.
 */
export const STUDIO_OPERATIONS = [
  'updateSiteCustomizationById',
  'overrideSiteSpaceCustomizationById',
  'deleteSiteSpaceCustomizationById',
  'restoreSiteCustomizationRevision',
  'restoreSiteSpaceCustomizationRevision',
  'listSiteCustomizationRevisions',
  'listSiteSpaceCustomizationRevisions',
  'previewSitePage',
  'publishSite',
  'unpublishSite',
  'updateSiteById',
  'sortSiteStructure',
] as const;

/** operationId → true, or the reason the permission table refuses it to this role and scopes. */
export function abilitiesOf(
  role: string,
  scopes: readonly string[] | null,
): Record<string, true | string> {
  const can: Record<string, true | string> = {};
  for (const operation of STUDIO_OPERATIONS) {
    const permission = PERMISSIONS[operation];
    if (permission === undefined) throw new Error(`no permission for ${operation}`);
    can[operation] =
      scopeRefusal(operation, permission, scopes) ??
      (permission.role === null ? undefined : roleRefusal(operation, permission, role)) ??
      true;
  }
  return can;
}
