import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as runtime from 'gitbook-api-0202';
import type * as Client from '../../node_modules/gitbook-api-0202/dist/client.js';
import type { GitBookAPIError as GitBookAPIErrorType } from '../../node_modules/gitbook-api-0202/dist/GitBookAPIError.js';
import type { TestContext } from './app.js';
import { listenWithClient } from './gitbook.js';

/**
 * The official client of GitBook 0.202 (the npm alias `gitbook-api-0202`), typed. Its declaration
 * files import `./client` without an extension, which NodeNext resolution cannot follow, so they
 * are imported by path (as test/helpers/gitbook.ts does for 0.130); runtime values are the
 * package's, untouched. The client is wrapped to record which operations a test drove.
 */
export type Api0202 = Client.Api<{ authToken?: string }>;
export type * as GitBook0202 from '../../node_modules/gitbook-api-0202/dist/client.js';

const pkg = runtime as unknown as typeof Client & {
  GitBookAPI: new (options: { authToken?: string; endpoint?: string }) => Api0202;
  GitBookAPIError: new (...args: never[]) => GitBookAPIErrorType;
};
export const {
  GitBookAPIError,
  CustomizationCodeTheme,
  CustomizationLocale,
  CustomizationPageActionType,
  MemberRole,
  SiteInsightsQueryOperator,
  SiteInsightsQueryRangePreset,
  SiteRedirectOrderBy,
  SiteSocialAccountPlatform,
  SpaceEditMode,
  StorageUploadKind,
  TeamMemberRole,
  TranslationLanguage,
} = pkg;

interface InScope {
  operationId: string;
  clientMethod: string;
  specVersion?: string;
}
/** gitbook-ops.json: the in-scope operations (a copy of ../shared/reference/gitbook-ops.json). */
export const IN_SCOPE = JSON.parse(
  readFileSync(new URL('./gitbook-ops.json', import.meta.url), 'utf8'),
) as InScope[];

/** Which 0.202-client test drives which in-scope operations. */
export const CLIENT_ROUND_TRIPS = {
  customization: [
    'getSiteCustomizationById',
    'updateSiteCustomizationById',
    'getSiteSpaceCustomizationById',
    'overrideSiteSpaceCustomizationById',
    'deleteSiteSpaceCustomizationById',
  ],
  sites: [
    'listSites',
    'createSite',
    'getSiteById',
    'updateSiteById',
    'deleteSiteById',
    'publishSite',
    'unpublishSite',
    'listSiteSpaces',
    'addSpaceToSite',
    'updateSiteSpaceById',
    'deleteSiteSpaceById',
    'listSiteShareLinks',
    'createSiteShareLink',
    'updateSiteShareLinkById',
    'deleteSiteShareLinkById',
    'getSitePublishingAuthById',
    'updateSitePublishingAuthById',
    'regenerateSitePublishingAuthById',
  ],
  org: [
    'listMembersInOrganizationById',
    'getMemberInOrganizationById',
    'updateMemberInOrganizationById',
    'removeMemberFromOrganizationById',
    'listSpacesForOrganizationMember',
    'listTeamsForOrganizationMember',
    'inviteUsersToOrganization',
    'joinOrganizationWithInvite',
    'listOrganizationInviteLinks',
    'createOrganizationInvite',
    'getOrganizationInviteLink',
    'updateOrganizationInviteById',
    'deleteOrganizationInviteById',
    'listTeamsInOrganizationById',
    'createOrganizationTeam',
    'getTeamInOrganizationById',
    'updateTeamInOrganizationById',
    'removeTeamFromOrganizationById',
    'listTeamMembersInOrganizationById',
    'updateMembersInOrganizationTeam',
    'addMemberToOrganizationTeamById',
    'deleteMemberFromOrganizationTeamById',
  ],
  content: [
    'listSpacesInOrganizationById',
    'createSpace',
    'getSpaceById',
    'listPages',
    'getPageById',
    'getPageByPath',
    'listPagesInChangeRequest',
    'getPageInChangeRequestByPath',
    'listPagesInRevisionById',
    'getPageInRevisionByPath',
    'createChangeRequest',
    'listChangeRequestsForSpace',
    'getChangeRequestById',
    'updateChangeRequestById',
  ],
} as const;

/** In-scope operations the 0.202 client cannot drive, with the reason. */
export const NOT_IN_0202_CLIENT: Record<string, string> = {
  setUserAsSSOMemberForOrganization: 'not implemented by Livery (no SSO: docs/members.md)',
  ...Object.fromEntries(
    IN_SCOPE.filter((op) => op.specVersion === '0.91.0').map((op) => [
      op.operationId,
      'GitBook 0.91 only: the 0.202 client has no such method (the 0.91 client drives it in test/http/insights.test.ts)',
    ]),
  ),
};

/** The in-scope operationIds called through any recordingClient of this test process. */
const called = new Set<string>();

/**
 * A 0.202 client for the test app (made to listen unless `endpoint` is given), with the owner's
 * token unless `token` is given, and the set of in-scope operationIds called through it.
 */
export async function recordingClient(
  t: TestContext,
  options: { token?: string; endpoint?: string } = {},
): Promise<{ api: Api0202; called: Set<string>; endpoint: string }> {
  const endpoint = options.endpoint ?? (await listenWithClient(t)).endpoint;
  const api = new pkg.GitBookAPI({ authToken: options.token ?? t.token, endpoint });
  const byMethod = new Map(IN_SCOPE.map((op) => [op.clientMethod, op.operationId]));
  for (const group of ['orgs', 'spaces'] as const) {
    const target = api[group] as unknown as Record<string, unknown>;
    api[group] = new Proxy(target, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const operationId = byMethod.get(`api.${group}.${String(key)}`);
          if (operationId) called.add(operationId);
          return value.apply(object, args);
        };
      },
    }) as never;
  }
  return { api, called, endpoint };
}

/** The GitBookAPIError (0.202's class) a call through the client must fail with. */
export async function failure0202(promise: Promise<unknown>): Promise<GitBookAPIErrorType> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof GitBookAPIError, String(error));
    return error;
  }
  assert.fail('expected the 0.202 client to throw GitBookAPIError');
}
