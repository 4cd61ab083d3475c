import assert from 'node:assert/strict';
import type { Conformance } from './gitbook-conformance.js';
import { versionsOf } from './gitbook-conformance.js';
import { operation } from './gitbook-spec.js';

/**
 * Which conformance file judges which operations (test/gitbook-conformance-<area>.test.ts), and
 * the statuses a spec declares that no test provokes, each with its reason. Each file asserts
 * that it judged exactly its area's operations and every status of them that is a success, a
 * 400 or a 404; test/conformance/gitbook-conformance-coverage.test.ts asserts that the areas together hold
 * every operation of Livery that a GitBook spec has.
 */
export const AREAS = {
  customization: [
    'getSiteCustomizationById',
    'updateSiteCustomizationById',
    'getSiteSpaceCustomizationById',
    'overrideSiteSpaceCustomizationById',
    'deleteSiteSpaceCustomizationById',
  ],
  sites: [
    'createSite',
    'listSites',
    'getSiteById',
    'updateSiteById',
    'deleteSiteById',
    'publishSite',
    'unpublishSite',
    'addSpaceToSite',
    'listSiteSpaces',
    'updateSiteSpaceById',
    'deleteSiteSpaceById',
    'searchSiteContent',
    'listSiteShareLinks',
    'createSiteShareLink',
    'updateSiteShareLinkById',
    'deleteSiteShareLinkById',
    'getSitePublishingAuthById',
    'updateSitePublishingAuthById',
    'regenerateSitePublishingAuthById',
    'getSitePublishingPreviewById',
  ],
  structure: [
    'getSiteStructure',
    'sortSiteStructure',
    'addSectionToSite',
    'listSiteSections',
    'updateSiteSectionById',
    'deleteSiteSectionById',
    'moveSiteSection',
    'addSectionGroupToSite',
    'listSiteSectionGroups',
    'updateSiteSectionGroupById',
    'deleteSiteSectionGroupById',
    'moveSiteSectionGroup',
    'moveSiteSpace',
    'duplicateSiteSpace',
    'addExternalLinkToSite',
    'updateSiteExternalLinkById',
    'deleteSiteExternalLinkById',
  ],
  org: [
    'getAuthenticatedUser',
    'listOrganizationsForAuthenticatedUser',
    'getOrganizationById',
    'getUserById',
    'listMembersInOrganizationById',
    'getMemberInOrganizationById',
    'updateMemberInOrganizationById',
    'removeMemberFromOrganizationById',
    'listSpacesForOrganizationMember',
    'listTeamsForOrganizationMember',
    'listTeamsInOrganizationById',
    'createOrganizationTeam',
    'getTeamInOrganizationById',
    'updateTeamInOrganizationById',
    'removeTeamFromOrganizationById',
    'listTeamMembersInOrganizationById',
    'updateMembersInOrganizationTeam',
    'addMemberToOrganizationTeamById',
    'deleteMemberFromOrganizationTeamById',
    'inviteUsersToOrganization',
    'joinOrganizationWithInvite',
    'listOrganizationInviteLinks',
    'createOrganizationInvite',
    'getOrganizationInviteLink',
    'updateOrganizationInviteById',
    'deleteOrganizationInviteById',
    'listOrganizationAuditEvents',
    'getOrganizationAuditEvent',
    'listOrganizationAuditEventActions',
    'createOrganization',
    'updateOrganizationById',
  ],
  content: [
    'createSpace',
    'listSpacesInOrganizationById',
    'getSpaceById',
    'updateSpaceById',
    'deleteSpaceById',
    'createChangeRequest',
    'listChangeRequestsForSpace',
    'getChangeRequestById',
    'updateChangeRequestById',
    'updateChangeRequestContent',
    'mergeChangeRequest',
    'updateChangeRequest',
  ],
  pages: [
    'getCurrentRevision',
    'listPages',
    'getPageById',
    'getPageByPath',
    'getRevisionOfChangeRequestById',
    'listPagesInChangeRequest',
    'getPageInChangeRequestById',
    'getPageInChangeRequestByPath',
    'getRevisionById',
    'listPagesInRevisionById',
    'getPageInRevisionById',
    'getPageInRevisionByPath',
    'getPageDocumentInRevisionById',
    'listSpacePageMetaLinks',
    'getDocumentById',
    'getRevisionSemanticChanges',
  ],
  hostnames: ['getCustomHostname', 'dnsRevalidateCustomHostname', 'removeCustomHostname'],
  search: ['searchSpaceContent', 'searchOrganizationContent'],
  urls: ['getPublishedContentByUrl', 'getContentByUrl'],
  storage: ['generateStorageUploadURL'],
  'space-lifecycle': ['restoreSpace', 'duplicateSpace', 'moveSpace'],
  renderer: [
    'resolvePublishedContentByUrl',
    'getPublishedContentSite',
    'getSiteRedirectBySource',
    'listRevisionPageMetaLinks',
  ],
  redirects: [
    'createSiteRedirect',
    'bulkUpsertSiteRedirects',
    'listSiteRedirects',
    'updateSiteRedirectById',
    'deleteSiteRedirectById',
  ],
  fonts: [
    'listCustomFonts',
    'createCustomFont',
    'getCustomFont',
    'updateCustomFont',
    'deleteCustomFont',
  ],
  insights: [
    'createPageFeedback',
    'getPageFeedback',
    'createSitesPageFeedback',
    'trackViewInSpaceById',
    'getContentAnalyticsForSpaceById',
    'getContentAnalyticsForSiteSpaceById',
    'trackEventsInSiteById',
    'aggregateSiteEvents',
  ],
  git: [
    'importGitRepository',
    'exportToGitRepository',
    'getSpaceGitInfo',
    'listFiles',
    'getFileById',
    'listFilesInRevisionById',
    'getFileInRevisionById',
    'getReusableContentById',
    'getReusableContentInRevisionById',
    'getReusableContentDocumentInRevisionById',
    'listFilesInChangeRequestById',
    'getFileInChangeRequestById',
    'getReusableContentInChangeRequestById',
  ],
  pdf: ['getSpacePDF'],
} as const;

export type Area = keyof typeof AREAS;

const PREFER =
  "0.202's answer to `Prefer: return=minimal`; a server may ignore a preference (RFC 7240) and answer 200 with the representation, and Livery does not implement Prefer";

/** Declared statuses that no conformance test provokes: `operationId status` → reason. */
export const STATUSES_NOT_EXERCISED: Record<string, string> = {
  'getAuthenticatedUser 404':
    "the token's own user always exists: an unknown token is a 401, which GitBook does not declare here",
  'removeMemberFromOrganizationById 202':
    "0.202's removal request sent to the admins, for a caller who may not remove members; Livery answers 403 instead (docs/permissions.md)",
  'updateChangeRequestById 204': PREFER,
  'addSpaceToSite 204': PREFER,
  'updateSiteSpaceById 204': PREFER,
  'sortSiteStructure 204': PREFER,
  'updateSiteSectionById 204': PREFER,
  'updateSiteSectionGroupById 204': PREFER,
  'updateSiteExternalLinkById 204': PREFER,
  'getSitePublishingAuthById 400':
    'the operation has no query and no body: there is no input to reject',
  'regenerateSitePublishingAuthById 400':
    'the operation has no query and no body: there is no input to reject',
  'getSiteRedirectBySource 400':
    'a source without a leading slash is refused with a 400 that neither spec declares (test/http/site-tokens.test.ts checks it)',
  'deleteSiteSpaceCustomizationById 400':
    'the operation has no query and no body: there is no input to reject',
  'getCustomHostname 400': 'the operation has no query and no body: there is no input to reject',
  'dnsRevalidateCustomHostname 400':
    "GitBook declares its 400 (an inactive hostname) with ConflictError's body, whose error.code must be 409; Livery's envelope says 400 (test/http/custom-hostnames.test.ts checks it)",
  'removeCustomHostname 400': 'the operation has no query and no body: there is no input to reject',
};

/** Asserts that the file judged exactly its area's operations, with every status it should. */
export function assertCoverage(conformance: Conformance, area: Area): void {
  assert.deepEqual(
    [...conformance.operationsJudged()].sort(),
    [...AREAS[area]].sort(),
    `the operations judged by the ${area} conformance test`,
  );
  const missing: string[] = [];
  for (const operationId of AREAS[area]) {
    for (const version of versionsOf(operationId)) {
      const op = operation(version, operationId);
      const judged = new Set(
        conformance.judgements
          .filter((j) => j.operationId === operationId && j.version === version)
          .map((j) => String(j.status)),
      );
      for (const status of Object.keys(op?.responses ?? {})) {
        const wanted = status.startsWith('2') || status === '400' || status === '404';
        if (wanted && !judged.has(status) && !STATUSES_NOT_EXERCISED[`${operationId} ${status}`]) {
          missing.push(`${version} ${operationId} ${status}`);
        }
      }
    }
  }
  assert.deepEqual(missing, [], 'declared statuses no request provoked');
}
