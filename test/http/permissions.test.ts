import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import {
  ORG_ROLES,
  type OrgRole,
  PERMISSIONS,
  roleAtLeast,
} from '../../src/modules/access/permissions.js';
import {
  createSite,
  createTestApp,
  expectError,
  expectStatus,
  type SiteFixture,
  type TestContext,
} from '../helpers/app.js';
import { uploadFont } from '../helpers/fonts.js';
import { pngOf, TestRepo } from '../helpers/git-repo.js';
import { eventsCount, siteEvent } from '../helpers/site-events.js';

/**
 * The permission matrix (src/modules/access/permissions.ts), table-driven: every operation of
 * the table is called by a member of each role and by a non-member, each with an unscoped token.
 * What each cell must answer is derived from PERMISSIONS itself: the operation's success status
 * when the role suffices, else a 403 naming the role needed; a non-member gets the answer for a
 * resource that does not exist (a 404; deleteSpaceById's 204) for anything in the organization,
 * and so does a guest for anything under a space's path (a guest sees no space).
 * Refusals come before body
 * validation: an under-privileged member's invalid body is a 403, and nothing changes.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Caller = OrgRole | 'non-member';

interface Call {
  url: string;
  payload?: object;
  /** After the answer: checks that an allowed call did its work and a refused one did not. */
  verify?: (allowed: boolean) => Promise<void>;
}

interface Operation {
  operationId: string;
  /** Tells apart rows of the same operation. */
  variant?: string;
  method: Method;
  /** The answer of an allowed call. */
  success: number;
  /**
   * A role needed on top of the table's, checked once the request is accepted (updateSpaceById's
   * deprecated site fields; managing a team's members, which the team's owners may do too).
   */
  alsoNeeds?: OrgRole;
  /** The refusal's message when `alsoNeeds` is what is missing, if not the table's wording. */
  alsoNeedsMessage?: string;
  /**
   * What a non-member gets from an operation naming no organization: its success status unless
   * told (getUserById: a 404 for a user the caller shares no organization with).
   */
  nonMember?: 404;
  /** What every member gets when it differs from `success` (joining: 409, already a member). */
  forMembers?: number;
  /** A non-member's status for an operation naming no organization in its path (createUser). */
  nonMemberStatus?: number;
  /**
   * The answer for a resource that does not exist, which a non-member gets for one that does:
   * GitBook's 204 "did not exist" for deleteSpaceById; a 404 unless told.
   */
  absent?: 204;
  /** The request of one cell (a destructive operation gets a fresh resource per call). */
  call(): Promise<Call>;
}

const BOGUS_ORG = 'org_doesnotexist';
const BOGUS_SPACE = 'space_doesnotexist';
const BOGUS_USER = 'user_doesnotexist';

let t: TestContext;
let f: SiteFixture;
let shareLinkId: string;
let teamId: string;
let strangerId: string;
/** A font file uploaded to the organization: the storage key custom fonts are made from. */
let fontKey: string;
const tokens = new Map<Caller, string>();

/** The fixture's content, in the site's first space: one page, merged from a change request. */
const PAGE_PATH = 'matrix-page';
const FIXTURE_VISITOR = 'fixture-visitor';
let pageId: string;
/** The space's revision that the merge made. */
let revisionId: string;
/** An open change request of that space, based on the revision with the page. */
let openCr: string;
/** The site-space showing that space. */
let contentSiteSpaceId: string;

/** The site's second space, imported from a repository with a file and an include. */
const repo = new TestRepo();
const gitSpace = () => `/v1/spaces/${f.spaceIds[1]}`;
let gitRevisionId: string;
let fileId: string;
let reusableId: string;

/** Waits for the second space's Git Sync operation to end (one runs at a time). */
async function gitIdle(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const info = await t.request({ url: `${gitSpace()}/git/info` });
    if (info.statusCode === 404 || info.json().operation.state !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the git import never ended');
}

before(async () => {
  t = await createTestApp({
    GIT_LOCAL_DIRS: repo.root,
    GIT_CACHE_DIR: `${repo.root}/.cache`,
    // Preview links are signed with it; the default (a file under ./data) is not the tests'.
    SECRET_KEY: 'permission-matrix-test-key-0123456789abcdef',
  });
  f = await createSite(t, 2);
  shareLinkId = expectStatus(
    await t.request({ method: 'POST', url: `${f.base}/share-links`, payload: { name: 'kept' } }),
    201,
  ).id as string;
  teamId = (await owner('PUT', `/v1/orgs/${t.orgId}/teams`, 201, { title: 'Core' })).id as string;
  for (const role of ORG_ROLES) {
    const user = await t.services.identity.createUser({ displayName: `A ${role}` });
    await t.services.identity.setMemberRole(t.orgId, user.id, role);
    tokens.set(role, (await t.services.identity.createToken(user.id, { label: role })).token);
  }
  const stranger = await t.services.identity.createUser({ displayName: 'A stranger' });
  strangerId = stranger.id;
  tokens.set('non-member', (await t.services.identity.createToken(stranger.id)).token);

  const merged = await newChangeRequest([
    {
      operation: 'insert_page',
      title: 'Matrix page',
      slug: PAGE_PATH,
      document: { markdown: 'Read by the matrix.' },
    },
  ]);
  revisionId = (await owner('POST', `${crUrl(merged)}/merge`, 200)).revision as string;
  const pages = (await owner('GET', `${content()}/content/pages`, 200)).pages as {
    id: string;
    path: string;
  }[];
  const page = pages.find((p) => p.path === PAGE_PATH);
  assert.ok(page, `the merged page is at ${PAGE_PATH}`);
  pageId = page.id;
  openCr = await newChangeRequest();
  await owner('PUT', feedbackUrl(FIXTURE_VISITOR), 201, { rating: 'good' });
  const siteSpaces = (await owner('GET', `${f.base}/site-spaces`, 200)).items as {
    id: string;
    space: { id: string };
  }[];
  const shown = siteSpaces.find((s) => s.space.id === f.spaceIds[0]);
  assert.ok(shown, 'a site-space shows the content space');
  contentSiteSpaceId = shown.id;

  repo.commit({
    'README.md':
      '# Imported\n\n![x](.gitbook/assets/x.png)\n\n{% include ".gitbook/includes/note.md" %}\n',
    '.gitbook/assets/x.png': pngOf(2, 2),
    '.gitbook/includes/note.md': '---\ntitle: Note\n---\nA note.\n',
  });
  await owner('POST', `${gitSpace()}/git/import`, 204, { url: `file://${repo.dir}`, ref: 'main' });
  await gitIdle();
  const imported = await owner('GET', `${gitSpace()}/content`, 200);
  gitRevisionId = imported.id as string;
  fileId = (imported.files as { id: string }[])[0]?.id as string;
  reusableId = (imported.reusableContents as { id: string }[])[0]?.id as string;
  assert.ok(fileId && reusableId, 'the fixture repository has a file and an include');
  fontKey = await uploadFont(t);
});
after(async () => {
  await t.close();
  repo.dispose();
});

const as = (caller: Caller, method: Method, url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tokens.get(caller)}` },
    ...(payload === undefined ? {} : { payload }),
  });

/** As the owner (admin), asserting success. */
const owner = async (method: Method, url: string, status: number, payload?: object) =>
  expectStatus(
    await t.request({ method, url, ...(payload === undefined ? {} : { payload }) }),
    status,
  );

/** A new user, member with the role read: the target of a member operation. */
const newMember = async () => {
  const user = await t.services.identity.createUser({ displayName: 'Target' });
  await t.services.identity.setMemberRole(t.orgId, user.id, 'read');
  return user.id;
};

const teams = () => `/v1/orgs/${t.orgId}/teams`;
const invites = () => `/v1/orgs/${t.orgId}/invites`;
const links = () => `/v1/orgs/${t.orgId}/link-invites`;
let emails = 0;
const uniqueEmail = () => {
  emails += 1;
  return `invitee${emails}@example.com`;
};
const newLink = async () => (await owner('POST', links(), 201, { role: 'read' })).id as string;
let titles = 0;
const uniqueTitle = () => {
  titles += 1;
  return `Team ${titles}`;
};
const newTeam = async () =>
  (await owner('PUT', teams(), 201, { title: uniqueTitle() })).id as string;
const inTeam = async (userId: string) =>
  (
    (await owner('GET', `${teams()}/${teamId}/members?limit=1000`, 200)).items as {
      organization: { id: string };
    }[]
  ).some((item) => item.organization.id === userId);

/** Managing a team's members: the table's role, then admin or the team's owner role. */
const TEAM_MANAGER = {
  alsoNeeds: 'admin',
  alsoNeedsMessage:
    "Managing a team's members needs the admin role in this organization or the team's owner role",
} as const;

const newSpace = async () =>
  (await owner('POST', `/v1/orgs/${t.orgId}/spaces`, 201, { title: 'Fresh' })).id as string;

/** The space holding the fixture's content. */
const content = () => `/v1/spaces/${f.spaceIds[0]}`;
const crUrl = (id: string) => `${content()}/change-requests/${id}`;
/** A new open change request of the content space, as the owner, with `changes` applied. */
const newChangeRequest = async (changes?: object[]) => {
  const id = (await owner('POST', `${content()}/change-requests`, 201, { subject: 'Matrix' }))
    .id as string;
  if (changes !== undefined) await owner('POST', `${crUrl(id)}/content`, 200, { changes });
  return id;
};
let pageTitles = 0;
/** A change inserting a new page (a title never used before). */
const insertPage = () => {
  pageTitles += 1;
  return {
    operation: 'insert_page',
    title: `Inserted ${pageTitles}`,
    document: { markdown: 'Inserted by the matrix.' },
  };
};
const changeRequest = async (id: string) => owner('GET', crUrl(id), 200);
const spaceRevision = async () => (await owner('GET', content(), 200)).revision as string;
const feedbackUrl = (visitor: string) => `${content()}/pages/${pageId}/feedbacks/${visitor}`;
let visitors = 0;
const newVisitor = () => {
  visitors += 1;
  return `visitor-${visitors}`;
};
const pageViews = async () => {
  const { pages } = (await owner('GET', `${content()}/insights/content`, 200)) as {
    pages: { page: { id: string }; pageViews: number }[];
  };
  return pages.find((entry) => entry.page.id === pageId)?.pageViews;
};
const openCount = async () =>
  (await owner('GET', `${content()}/change-requests?status=open`, 200)).count as number;

/** Reads `url` as the owner: 200 while the resource exists, 404 once it is gone. */
const exists = async (url: string) => {
  const res = await t.request({ method: 'GET', url });
  assert.ok([200, 404].includes(res.statusCode), `${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 200;
};

let redirectRules = 0;
/** A redirect rule body with a source no other call of the matrix used. */
const redirectRule = () => ({
  source: `/matrix-${++redirectRules}`,
  destination: { kind: 'external', url: 'https://example.com/' },
});

const fontBody = () => ({
  fontFamily: 'Matrix',
  fontFaces: [{ weight: 400, storageKey: fontKey }],
});
/** A new custom font of the organization: its API path. */
const newFont = async () =>
  `/v1/orgs/${t.orgId}/fonts/${(await owner('PUT', `/v1/orgs/${t.orgId}/fonts`, 201, fontBody())).id as string}`;

const deletes = (url: string, probe: () => Promise<boolean>): Call => ({
  url,
  verify: async (allowed) => assert.equal(await probe(), !allowed, `${url} still there`),
});

/** A site with sections (issue 29), made once: sections A (default) and B, group G, link L. */
let structured: { base: string; b: string; g: string; l: string; variant: string } | undefined;
const freshSite = async () =>
  `/v1/orgs/${t.orgId}/sites/${(await owner('POST', `/v1/orgs/${t.orgId}/sites`, 201, { title: 'Git' })).id as string}`;
let siteExports = 0;
let synced: string | undefined;
/** A site whose site import ran (and ended): getSiteGitInfo answers 200. */
async function syncedSite(): Promise<string> {
  if (synced !== undefined) return synced;
  const base = await freshSite();
  await owner('POST', `${base}/git/import`, 204, { url: `file://${repo.dir}`, ref: 'main' });
  for (let i = 0; i < 400; i++) {
    const info = await t.request({ url: `${base}/git/info` });
    if (info.statusCode === 200 && info.json().operation.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  synced = base;
  return base;
}

async function sectionedSite() {
  if (structured !== undefined) return structured;
  const site = await createSite(t, 1);
  const b = await owner('POST', `${site.base}/sections`, 201, { spaceId: null, title: 'Bravo' });
  const g = await owner('POST', `${site.base}/section-groups`, 201, { title: 'Group' });
  const l = await owner('POST', `${site.base}/external-links`, 201, {
    title: 'Link',
    url: 'https://example.com/',
  });
  structured = {
    base: site.base,
    b: b.id as string,
    g: g.id as string,
    l: l.id as string,
    variant: site.siteSpaceIds[0] as string,
  };
  return structured;
}
/** Whether the sectioned site's structure still holds `id`. */
const inStructure = async (id: string) =>
  JSON.stringify(await owner('GET', `${(await sectionedSite()).base}/structure`, 200)).includes(id);
/** A node made by the owner in the sectioned site, to be deleted. */
const structureNode = async (collection: string, payload: object) => {
  const { base } = await sectionedSite();
  const node = await owner('POST', `${base}/${collection}`, 201, payload);
  const url = `${base}/${collection}/${node.id as string}`;
  return deletes(url, () => inStructure(node.id as string));
};

const linkIds = async (base: string) =>
  ((await owner('GET', `${base}/share-links`, 200)).items as { id: string }[]).map((l) => l.id);

/** The share-link and visitor-authentication operations, under the site's or the space's path. */
function siteAuthOperations(keyed: 'Site' | 'Space', base: () => string): Operation[] {
  const id = (siteKeyed: string) => siteKeyed.replace('Site', keyed);
  return [
    {
      operationId: id('listSiteShareLinks'),
      method: 'GET',
      success: 200,
      call: async () => ({ url: `${base()}/share-links` }),
    },
    {
      operationId: id('createSiteShareLink'),
      method: 'POST',
      success: 201,
      call: async () => ({ url: `${base()}/share-links`, payload: { name: 'matrix' } }),
    },
    {
      operationId: id('updateSiteShareLinkById'),
      method: 'PATCH',
      success: 200,
      call: async () => ({
        url: `${base()}/share-links/${shareLinkId}`,
        payload: { name: 'renamed' },
      }),
    },
    {
      operationId: id('deleteSiteShareLinkById'),
      method: 'DELETE',
      success: 205,
      call: async () => {
        const link = (await owner('POST', `${f.base}/share-links`, 201, { name: 'gone' }))
          .id as string;
        return deletes(`${base()}/share-links/${link}`, async () =>
          (await linkIds(f.base)).includes(link),
        );
      },
    },
    {
      operationId: id('getSitePublishingAuthById'),
      method: 'GET',
      success: 200,
      call: async () => ({ url: `${base()}/publishing/auth` }),
    },
    {
      operationId: id('updateSitePublishingAuthById'),
      method: 'PATCH',
      success: 200,
      call: async () => ({ url: `${base()}/publishing/auth`, payload: { backend: 'custom' } }),
    },
    {
      operationId: id('regenerateSitePublishingAuthById'),
      method: 'POST',
      success: 200,
      call: async () => {
        const key = async () =>
          (await owner('GET', `${f.base}/publishing/auth`, 200)).privateKey as string;
        const before = await key();
        return {
          url: `${base()}/publishing/auth/regenerate`,
          verify: async (allowed) => assert.equal((await key()) !== before, allowed, 'key'),
        };
      },
    },
  ];
}

const OPERATIONS: Operation[] = [
  // The caller's own user and organizations, and tokens.
  {
    operationId: 'getAuthenticatedUser',
    method: 'GET',
    success: 200,
    call: async () => ({ url: '/v1/user' }),
  },
  {
    operationId: 'listOrganizationsForAuthenticatedUser',
    method: 'GET',
    success: 200,
    call: async () => ({ url: '/v1/orgs' }),
  },
  {
    operationId: 'getOrganizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}` }),
  },
  {
    operationId: 'listUserTokens',
    method: 'GET',
    success: 200,
    call: async () => ({ url: '/v1/user/tokens' }),
  },
  {
    operationId: 'createUserToken',
    method: 'POST',
    success: 201,
    call: async () => ({ url: '/v1/user/tokens', payload: { label: 'matrix' } }),
  },
  {
    operationId: 'getUserTokenById',
    method: 'GET',
    // Allowed to every user; a token id that is not theirs is a 404 (test/http/tokens.test.ts).
    success: 404,
    call: async () => ({ url: '/v1/user/tokens/tok_doesnotexist' }),
  },
  {
    operationId: 'deleteUserTokenById',
    method: 'DELETE',
    success: 204,
    call: async () => ({ url: '/v1/user/tokens/tok_doesnotexist' }),
  },

  // Members.
  {
    operationId: 'listMembersInOrganizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/members` }),
  },
  {
    operationId: 'getMemberInOrganizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/members/${t.userId}` }),
  },
  {
    operationId: 'updateMemberInOrganizationById',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const url = `/v1/orgs/${t.orgId}/members/${await newMember()}`;
      return {
        url,
        payload: { role: 'edit' },
        verify: async (allowed) =>
          assert.equal((await owner('GET', url, 200)).role, allowed ? 'edit' : 'read'),
      };
    },
  },
  {
    operationId: 'removeMemberFromOrganizationById',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const url = `/v1/orgs/${t.orgId}/members/${await newMember()}`;
      return deletes(url, () => exists(url));
    },
  },
  {
    operationId: 'listSpacesForOrganizationMember',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/members/${t.userId}/spaces` }),
  },
  {
    operationId: 'getUserById',
    method: 'GET',
    success: 200,
    // A user the caller shares no organization with is a 404 like one that does not exist.
    nonMember: 404,
    call: async () => ({ url: `/v1/users/${t.userId}` }),
  },

  // Teams.
  {
    operationId: 'inviteUsersToOrganization',
    method: 'POST',
    success: 200,
    call: async () => ({ url: invites(), payload: { emails: [uniqueEmail()] } }),
  },
  {
    operationId: 'joinOrganizationWithInvite',
    method: 'POST',
    success: 200,
    forMembers: 409,
    call: async () => ({
      url: `${invites()}/${await newLink()}`,
      // The non-member's cell joins: they leave again, to stay a stranger for the other rows.
      verify: async () => {
        const url = `/v1/orgs/${t.orgId}/members/${strangerId}`;
        if (await exists(url)) await owner('DELETE', url, 205);
      },
    }),
  },
  {
    operationId: 'listOrganizationInviteLinks',
    method: 'GET',
    success: 200,
    call: async () => ({ url: links() }),
  },
  {
    operationId: 'createOrganizationInvite',
    method: 'POST',
    success: 201,
    call: async () => ({ url: links(), payload: { role: 'read' } }),
  },
  {
    operationId: 'getOrganizationInviteLink',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${links()}/${await newLink()}` }),
  },
  {
    operationId: 'updateOrganizationInviteById',
    method: 'PATCH',
    success: 200,
    call: async () => ({ url: `${links()}/${await newLink()}`, payload: { enabled: false } }),
  },
  {
    operationId: 'deleteOrganizationInviteById',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const url = `${links()}/${await newLink()}`;
      return deletes(url, () => exists(url));
    },
  },
  {
    operationId: 'createUser',
    method: 'POST',
    success: 201,
    alsoNeeds: 'admin',
    alsoNeedsMessage: 'Creating a user without an invite needs the admin role in the organization',
    nonMemberStatus: 404,
    call: async () => ({
      url: '/v1/users',
      payload: { displayName: 'New', organizationId: t.orgId },
    }),
  },
  {
    operationId: 'listTeamsInOrganizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${teams()}` }),
  },
  {
    operationId: 'createOrganizationTeam',
    method: 'PUT',
    success: 201,
    call: async () => ({ url: teams(), payload: { title: uniqueTitle() } }),
  },
  {
    operationId: 'getTeamInOrganizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${teams()}/${teamId}` }),
  },
  {
    operationId: 'updateTeamInOrganizationById',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const url = `${teams()}/${await newTeam()}`;
      const title = uniqueTitle();
      return {
        url,
        payload: { title },
        verify: async (allowed) =>
          assert.equal((await owner('GET', url, 200)).title === title, allowed, 'renamed'),
      };
    },
  },
  {
    operationId: 'removeTeamFromOrganizationById',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const url = `${teams()}/${await newTeam()}`;
      return deletes(url, () => exists(url));
    },
  },
  {
    operationId: 'listTeamMembersInOrganizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${teams()}/${teamId}/members` }),
  },
  {
    operationId: 'listTeamsForOrganizationMember',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/members/${t.userId}/teams` }),
  },
  {
    operationId: 'updateMembersInOrganizationTeam',
    method: 'PUT',
    success: 204,
    ...TEAM_MANAGER,
    call: async () => {
      const user = await newMember();
      return {
        url: `${teams()}/${teamId}/members`,
        payload: { add: [user] },
        verify: async (allowed) => assert.equal(await inTeam(user), allowed, 'added'),
      };
    },
  },
  {
    operationId: 'addMemberToOrganizationTeamById',
    method: 'PUT',
    success: 204,
    ...TEAM_MANAGER,
    call: async () => {
      const user = await newMember();
      return {
        url: `${teams()}/${teamId}/members/${user}`,
        verify: async (allowed) => assert.equal(await inTeam(user), allowed, 'added'),
      };
    },
  },
  {
    operationId: 'deleteMemberFromOrganizationTeamById',
    method: 'DELETE',
    success: 205,
    ...TEAM_MANAGER,
    call: async () => {
      const user = await newMember();
      await owner('PUT', `${teams()}/${teamId}/members/${user}`, 204);
      return deletes(`${teams()}/${teamId}/members/${user}`, () => inTeam(user));
    },
  },

  // Spaces.
  {
    operationId: 'createSpace',
    method: 'POST',
    success: 201,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/spaces`, payload: { title: 'Matrix' } }),
  },
  {
    operationId: 'getSpaceById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/spaces/${f.spaceIds[0]}` }),
  },
  {
    operationId: 'updateSpaceById',
    variant: 'own fields',
    method: 'PATCH',
    success: 200,
    call: async () => ({ url: `/v1/spaces/${f.spaceIds[0]}`, payload: { title: 'Variant 0' } }),
  },
  {
    operationId: 'updateSpaceById',
    variant: 'deprecated visibility',
    method: 'PATCH',
    success: 200,
    alsoNeeds: 'admin',
    call: async () => {
      await owner('PATCH', f.base, 200, { visibility: 'public' });
      return {
        url: `/v1/spaces/${f.spaceIds[0]}`,
        payload: { visibility: 'unlisted' },
        verify: async (allowed) =>
          assert.equal(
            (await owner('GET', f.base, 200)).visibility,
            allowed ? 'unlisted' : 'public',
          ),
      };
    },
  },
  {
    operationId: 'updateSpaceById',
    variant: 'deprecated published',
    method: 'PATCH',
    success: 200,
    alsoNeeds: 'admin',
    call: async () => {
      await owner('POST', `${f.base}/unpublish`, 200);
      return {
        url: `/v1/spaces/${f.spaceIds[0]}`,
        payload: { published: true },
        verify: async (allowed) =>
          assert.equal((await owner('GET', f.base, 200)).published, allowed),
      };
    },
  },

  {
    operationId: 'listSpacesInOrganizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/spaces` }),
  },
  {
    operationId: 'searchOrganizationContent',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/search?query=welcome` }),
  },
  {
    operationId: 'deleteSpaceById',
    method: 'DELETE',
    success: 205,
    absent: 204,
    call: async () => {
      // A space no site shows: deleting one a site shows is a 409 (test/http/site-lifecycle.test.ts).
      const url = `/v1/spaces/${await newSpace()}`;
      return deletes(url, () => exists(url));
    },
  },
  {
    operationId: 'deleteSpaceById',
    variant: 'a space a site shows',
    method: 'DELETE',
    absent: 204,
    // Allowed, then refused for the site: the role is checked first, the conflict after.
    success: 409,
    call: async () => {
      const url = `/v1/spaces/${f.spaceIds[1]}`;
      return { url, verify: async () => assert.equal(await exists(url), true, 'kept') };
    },
  },
  {
    operationId: 'restoreSpace',
    method: 'POST',
    success: 200,
    call: async () => {
      const space = `/v1/spaces/${await newSpace()}`;
      await owner('DELETE', space, 205);
      return {
        url: `${space}/restore`,
        verify: async (allowed) => assert.equal(await exists(space), allowed, 'restored'),
      };
    },
  },
  {
    operationId: 'duplicateSpace',
    method: 'POST',
    success: 201,
    call: async () => {
      const spaces = async () =>
        (await owner('GET', `/v1/orgs/${t.orgId}/spaces?limit=1`, 200)).count as number;
      const before = await spaces();
      return {
        url: `/v1/spaces/${f.spaceIds[0]}/duplicate`,
        verify: async (allowed) => assert.equal(await spaces(), before + (allowed ? 1 : 0)),
      };
    },
  },
  {
    operationId: 'moveSpace',
    method: 'POST',
    // Allowed, then GitBook's 409: Livery has no collections nor order of spaces to change.
    success: 409,
    call: async () => ({ url: `/v1/spaces/${f.spaceIds[0]}/move`, payload: { parent: null } }),
  },
  {
    operationId: 'listSpacesForUser',
    variant: 'me',
    method: 'GET',
    success: 200,
    call: async () => ({ url: '/v1/users/me/spaces' }),
  },
  {
    operationId: 'listSpacesForUser',
    variant: 'another member',
    method: 'GET',
    success: 200,
    // A user the caller shares no organization with is a 404 like one that does not exist.
    nonMember: 404,
    call: async () => ({ url: `/v1/users/${t.userId}/spaces` }),
  },
  // Removed: 410 Gone for everyone, members or not (and without a token).
  {
    operationId: 'listSpacesForOwner',
    method: 'GET',
    success: 410,
    call: async () => ({ url: `/v1/owners/${t.orgId}/spaces` }),
  },
  ...(['POST', 'PUT', 'PATCH', 'DELETE'] as const).map(
    (method): Operation => ({
      operationId: 'listSpacesForOwner',
      variant: method,
      method,
      success: 410,
      call: async () => ({ url: `/v1/owners/${t.orgId}/spaces` }),
    }),
  ),

  // Content: revisions and pages.
  {
    operationId: 'getCurrentRevision',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/content` }),
  },
  {
    operationId: 'searchSpaceContent',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/search?query=welcome` }),
  },
  {
    operationId: 'getRevisionById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/revisions/${revisionId}` }),
  },
  {
    operationId: 'listRevisionPageMetaLinks',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/revisions/${revisionId}/page/${pageId}/meta-links` }),
  },
  {
    operationId: 'listSpacePageMetaLinks',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/content/page/${pageId}/meta-links` }),
  },
  {
    operationId: 'getDocumentById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/documents/${pageId}` }),
  },
  {
    operationId: 'getRevisionSemanticChanges',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/revisions/${revisionId}/changes` }),
  },
  {
    operationId: 'listPages',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/content/pages` }),
  },
  {
    operationId: 'getPageById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/content/page/${pageId}` }),
  },
  {
    operationId: 'getSpacePDF',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/pdf?page=${pageId}&only=true` }),
  },
  {
    operationId: 'getPageByPath',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/content/path/${PAGE_PATH}` }),
  },
  {
    operationId: 'listPagesInRevisionById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/revisions/${revisionId}/pages` }),
  },
  {
    operationId: 'getPageInRevisionById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/revisions/${revisionId}/page/${pageId}` }),
  },
  {
    operationId: 'getPageInRevisionByPath',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/revisions/${revisionId}/path/${PAGE_PATH}` }),
  },
  {
    operationId: 'getPageDocumentInRevisionById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/revisions/${revisionId}/page/${pageId}/document` }),
  },

  // Files, reusable contents and Git Sync (docs/git-sync.md).
  ...(
    [
      ['listFiles', () => `${gitSpace()}/content/files`],
      ['getFileById', () => `${gitSpace()}/content/files/${fileId}`],
      ['getReusableContentById', () => `${gitSpace()}/content/reusable-contents/${reusableId}`],
      ['listFilesInRevisionById', () => `${gitSpace()}/revisions/${gitRevisionId}/files`],
      ['getFileInRevisionById', () => `${gitSpace()}/revisions/${gitRevisionId}/files/${fileId}`],
      [
        'getReusableContentInRevisionById',
        () => `${gitSpace()}/revisions/${gitRevisionId}/reusable-contents/${reusableId}`,
      ],
      [
        'getReusableContentDocumentInRevisionById',
        () => `${gitSpace()}/revisions/${gitRevisionId}/reusable-contents/${reusableId}/document`,
      ],
      [
        'listFilesInChangeRequestById',
        () => `${content()}/change-requests/${openCr}/content/files`,
      ],
      [
        'getFileInChangeRequestById',
        () => `${content()}/change-requests/${openCr}/content/files/none`,
        404,
      ],
      [
        'getReusableContentInChangeRequestById',
        () => `${content()}/change-requests/${openCr}/content/reusable-contents/none`,
        404,
      ],
      ['getSpaceGitInfo', () => `${gitSpace()}/git/info`],
    ] as [string, () => string, number?][]
  ).map(
    ([operationId, url, success = 200]): Operation => ({
      operationId,
      method: 'GET',
      success,
      call: async () => ({ url: url() }),
    }),
  ),
  {
    operationId: 'generateStorageUploadURL',
    method: 'POST',
    success: 201,
    call: async () => ({
      url: `/v1/orgs/${t.orgId}/storage/upload`,
      payload: {
        file: { name: 'logo.png', type: 'image/png', size: 10 },
        kind: 'organization_file',
      },
    }),
  },
  {
    operationId: 'importGitRepository',
    method: 'POST',
    success: 204,
    call: async () => {
      await gitIdle();
      return {
        url: `${gitSpace()}/git/import`,
        payload: { url: `file://${repo.dir}`, ref: 'main' },
      };
    },
  },

  {
    operationId: 'exportToGitRepository',
    method: 'POST',
    success: 204,
    call: async () => {
      await gitIdle();
      return {
        url: `${gitSpace()}/git/export`,
        payload: { url: `file://${repo.dir}`, ref: 'refs/heads/exported', commitMessage: 'Export' },
      };
    },
  },
  {
    operationId: 'linkSpaceGitRepository',
    method: 'PUT',
    success: 200,
    call: async () => {
      await gitIdle();
      return { url: `${gitSpace()}/git/link`, payload: { url: `file://${repo.dir}`, ref: 'main' } };
    },
  },
  ...(
    [
      ['getSpaceGitLink', 'GET', 200, 'link'],
      ['syncSpaceGitRepository', 'POST', 204, 'sync'],
      ['unlinkSpaceGitRepository', 'DELETE', 204, 'link'],
    ] as const
  ).map(
    ([operationId, method, success, path]): Operation => ({
      operationId,
      method,
      success,
      call: async () => {
        // Each call finds the space linked and idle (an unlink or a sync of the cell before).
        await gitIdle();
        await owner('PUT', `${gitSpace()}/git/link`, 200, {
          url: `file://${repo.dir}`,
          ref: 'main',
        });
        await gitIdle();
        return { url: `${gitSpace()}/git/${path}` };
      },
    }),
  ),
  // No token opens it: the provider's signature with the link's secret does. Every caller, member
  // or not, gets 401 for an event without one.
  {
    operationId: 'receiveGitWebhook',
    method: 'POST',
    success: 401,
    call: async () => ({
      url: `/v1/git/webhooks/${f.spaceIds[1]}`,
      payload: { ref: 'refs/heads/main' },
    }),
  },

  // Change requests.
  {
    operationId: 'createChangeRequest',
    method: 'POST',
    success: 201,
    call: async () => {
      const before = await openCount();
      return {
        url: `${content()}/change-requests`,
        payload: { subject: 'Matrix' },
        verify: async (allowed) => assert.equal(await openCount(), before + (allowed ? 1 : 0)),
      };
    },
  },
  {
    operationId: 'listChangeRequestsForSpace',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/change-requests` }),
  },
  {
    operationId: 'getChangeRequestById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: crUrl(openCr) }),
  },
  {
    operationId: 'updateChangeRequestById',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const id = await newChangeRequest();
      return {
        url: crUrl(id),
        payload: { subject: 'Renamed' },
        verify: async (allowed) =>
          assert.equal((await changeRequest(id)).subject, allowed ? 'Renamed' : 'Matrix'),
      };
    },
  },
  {
    operationId: 'updateChangeRequestContent',
    method: 'POST',
    success: 200,
    call: async () => {
      const id = await newChangeRequest();
      const change = insertPage();
      const inserted = async () =>
        ((await owner('GET', `${crUrl(id)}/content/pages`, 200)).pages as { title: string }[])
          .map((page) => page.title)
          .includes(change.title);
      return {
        url: `${crUrl(id)}/content`,
        payload: { changes: [change] },
        verify: async (allowed) => assert.equal(await inserted(), allowed, 'page inserted'),
      };
    },
  },
  {
    operationId: 'updateChangeRequest',
    method: 'POST',
    success: 200,
    call: async () => {
      const id = await newChangeRequest();
      // The space moves on: the change request is outdated until updated.
      await owner('POST', `${crUrl(await newChangeRequest([insertPage()]))}/merge`, 200);
      assert.equal((await changeRequest(id)).outdated, true, 'outdated before the update');
      return {
        url: `${crUrl(id)}/update`,
        verify: async (allowed) =>
          assert.equal((await changeRequest(id)).outdated, !allowed, 'outdated after'),
      };
    },
  },
  {
    operationId: 'mergeChangeRequest',
    method: 'POST',
    success: 200,
    call: async () => {
      const id = await newChangeRequest([insertPage()]);
      const before = await spaceRevision();
      return {
        url: `${crUrl(id)}/merge`,
        verify: async (allowed) => {
          assert.equal((await changeRequest(id)).status, allowed ? 'merged' : 'open');
          assert.equal((await spaceRevision()) !== before, allowed, 'space revision moved');
        },
      };
    },
  },
  {
    operationId: 'getRevisionOfChangeRequestById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${crUrl(openCr)}/content` }),
  },
  {
    operationId: 'listPagesInChangeRequest',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${crUrl(openCr)}/content/pages` }),
  },
  {
    operationId: 'getPageInChangeRequestById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${crUrl(openCr)}/content/page/${pageId}` }),
  },
  {
    operationId: 'getPageInChangeRequestByPath',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${crUrl(openCr)}/content/path/${PAGE_PATH}` }),
  },

  // Change request previews (Livery extension, docs/content.md).
  {
    operationId: 'createChangeRequestPreviewLink',
    method: 'POST',
    success: 200,
    call: async () => {
      const id = await newChangeRequest();
      return {
        url: `${crUrl(id)}/preview-link`,
        verify: async (allowed) =>
          assert.equal((await t.services.previews.forChangeRequest(id)) !== undefined, allowed),
      };
    },
  },
  {
    operationId: 'getChangeRequestPreviewLink',
    method: 'GET',
    success: 200,
    call: async () => {
      await owner('POST', `${crUrl(openCr)}/preview-link`, 200);
      return { url: `${crUrl(openCr)}/preview-link` };
    },
  },
  {
    operationId: 'deleteChangeRequestPreviewLink',
    method: 'DELETE',
    success: 204,
    call: async () => {
      const id = await newChangeRequest();
      await owner('POST', `${crUrl(id)}/preview-link`, 200);
      return {
        url: `${crUrl(id)}/preview-link`,
        verify: async (allowed) =>
          assert.equal((await t.services.previews.forChangeRequest(id)) === undefined, allowed),
      };
    },
  },

  // Content insights.
  {
    operationId: 'createPageFeedback',
    method: 'PUT',
    success: 201,
    call: async () => {
      const url = feedbackUrl(newVisitor());
      return {
        url,
        payload: { rating: 'ok' },
        verify: async (allowed) => assert.equal(await exists(url), allowed, 'feedback recorded'),
      };
    },
  },
  {
    operationId: 'createSitesPageFeedback',
    method: 'PUT',
    success: 201,
    call: async () => {
      const visitor = newVisitor();
      return {
        url: `${f.base}/site-spaces/${contentSiteSpaceId}/insights/pages/${pageId}/feedbacks/${visitor}`,
        payload: { rating: 'bad' },
        verify: async (allowed) =>
          assert.equal(await exists(feedbackUrl(visitor)), allowed, 'feedback recorded'),
      };
    },
  },
  {
    operationId: 'getPageFeedback',
    method: 'GET',
    success: 200,
    call: async () => ({ url: feedbackUrl(FIXTURE_VISITOR) }),
  },
  {
    operationId: 'trackViewInSpaceById',
    method: 'POST',
    success: 204,
    call: async () => {
      const before = await pageViews();
      assert.equal(typeof before, 'number', 'the page has an analytics entry');
      return {
        url: `${content()}/insights/track_view`,
        payload: { pageId, visitorId: newVisitor() },
        verify: async (allowed) =>
          assert.equal(await pageViews(), (before ?? 0) + (allowed ? 1 : 0), 'views'),
      };
    },
  },
  {
    operationId: 'trackViewInSpaceById',
    variant: "GitBook 0.91's body",
    method: 'POST',
    success: 204,
    call: async () => {
      const before = await pageViews();
      assert.equal(typeof before, 'number', 'the page has an analytics entry');
      return {
        url: `${content()}/insights/track_view`,
        payload: {
          pageId,
          visitor: { anonymousId: newVisitor() },
          url: `https://docs.example.com/${PAGE_PATH}`,
          referrer: '',
        },
        verify: async (allowed) =>
          assert.equal(await pageViews(), (before ?? 0) + (allowed ? 1 : 0), 'views'),
      };
    },
  },
  {
    operationId: 'getContentAnalyticsForSpaceById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${content()}/insights/content` }),
  },
  {
    operationId: 'getContentAnalyticsForSiteSpaceById',
    method: 'GET',
    success: 200,
    call: async () => ({
      url: `${f.base}/site-spaces/${contentSiteSpaceId}/insights/content?period=last_week`,
    }),
  },

  // Site analytics events (docs/insights.md, "Site events").
  {
    operationId: 'trackEventsInSiteById',
    method: 'POST',
    success: 204,
    call: async () => {
      const before = await eventsCount(t, f.base);
      return {
        url: `${f.base}/insights/events`,
        payload: { events: [siteEvent('page_view')] },
        verify: async (allowed) =>
          assert.equal(await eventsCount(t, f.base), before + (allowed ? 1 : 0), 'events'),
      };
    },
  },
  {
    operationId: 'aggregateSiteEvents',
    method: 'POST',
    success: 200,
    call: async () => ({
      url: `${f.base}/insights/events/aggregate`,
      payload: { range: 'last7Days', groupBy: [{ column: 'eventType' }] },
    }),
  },

  // Sites and site-spaces.
  {
    operationId: 'listSites',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/sites` }),
  },
  {
    operationId: 'createSite',
    method: 'POST',
    success: 201,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/sites`, payload: { title: 'Matrix' } }),
  },
  {
    operationId: 'getSiteById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: f.base }),
  },
  {
    operationId: 'updateSiteById',
    method: 'PATCH',
    success: 200,
    call: async () => ({ url: f.base, payload: { title: 'Docs' } }),
  },
  {
    operationId: 'deleteSiteById',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const site = await owner('POST', `/v1/orgs/${t.orgId}/sites`, 201, { title: 'Throwaway' });
      const url = `/v1/orgs/${t.orgId}/sites/${site.id as string}`;
      return deletes(url, () => exists(url));
    },
  },
  {
    operationId: 'publishSite',
    method: 'POST',
    success: 200,
    call: async () => ({ url: `${f.base}/publish` }),
  },
  {
    operationId: 'unpublishSite',
    method: 'POST',
    success: 200,
    call: async () => ({ url: `${f.base}/unpublish` }),
  },
  {
    operationId: 'listSiteSpaces',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${f.base}/site-spaces` }),
  },
  {
    operationId: 'getPublishedContentSite',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${f.base}/published` }),
  },
  {
    operationId: 'getSiteRedirectBySource',
    method: 'GET',
    // No rule matches `/old` here: a 404, the same for whoever may ask.
    success: 404,
    call: async () => ({ url: `${f.base}/redirect?source=/old` }),
  },
  {
    operationId: 'resolvePublishedContentByUrl',
    method: 'POST',
    // Any user's token; an address naming no published site is a 404 for everyone.
    success: 404,
    call: async () => ({
      url: '/v1/urls/published',
      payload: { url: 'http://livery.test/s/no-such-site' },
    }),
  },
  {
    operationId: 'getPublishedContentByUrl',
    method: 'GET',
    // As its POST form: an address naming no published site is a 404 for everyone.
    success: 404,
    call: async () => ({
      url: `/v1/urls/published?url=${encodeURIComponent('http://livery.test/s/no-such-site')}`,
    }),
  },
  {
    operationId: 'getContentByUrl',
    method: 'GET',
    // The path names no organization: a URL naming no space is the same 404 for everyone
    // (test/http/urls-content.test.ts checks a stranger's 404 for a space that exists).
    success: 404,
    call: async () => ({
      url: `/v1/urls/content?url=${encodeURIComponent('http://livery.test/v1/spaces/space_none')}`,
    }),
  },
  // Site redirect rules: each call makes its own source, so allowed calls never collide.
  {
    operationId: 'listSiteRedirects',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${f.base}/redirects` }),
  },
  {
    operationId: 'createSiteRedirect',
    method: 'POST',
    success: 201,
    call: async () => ({ url: `${f.base}/redirects`, payload: redirectRule() }),
  },
  {
    operationId: 'bulkUpsertSiteRedirects',
    method: 'PUT',
    success: 200,
    call: async () => ({ url: `${f.base}/redirects`, payload: { redirects: [redirectRule()] } }),
  },
  {
    operationId: 'updateSiteRedirectById',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const rule = await owner('POST', `${f.base}/redirects`, 201, redirectRule());
      return { url: `${f.base}/redirects/${rule.id as string}`, payload: { permanent: false } };
    },
  },
  {
    operationId: 'deleteSiteRedirectById',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const rule = await owner('POST', `${f.base}/redirects`, 201, redirectRule());
      const id = rule.id as string;
      return deletes(`${f.base}/redirects/${id}`, async () => {
        const list = await owner('GET', `${f.base}/redirects?limit=1000`, 200);
        return (list.items as { id: string }[]).some((r) => r.id === id);
      });
    },
  },
  // Custom hostnames: the path names no organization, so the table's role is checked by the
  // service against the hostname's site (test/http/custom-hostnames.test.ts); a hostname no
  // site holds answers the same to everyone.
  {
    operationId: 'getCustomHostname',
    method: 'GET',
    success: 404,
    call: async () => ({ url: '/v1/custom-hostnames/nothing.example.test' }),
  },
  {
    operationId: 'dnsRevalidateCustomHostname',
    method: 'PATCH',
    success: 400,
    call: async () => ({ url: '/v1/custom-hostnames/nothing.example.test' }),
  },
  {
    operationId: 'removeCustomHostname',
    method: 'DELETE',
    success: 204,
    call: async () => ({ url: '/v1/custom-hostnames/nothing.example.test' }),
  },
  {
    operationId: 'searchSiteContent',
    method: 'POST',
    success: 200,
    // Only published sites are searched; the site goes back to unpublished after each call.
    call: async () => {
      await owner('POST', `${f.base}/publish`, 200);
      return {
        url: `${f.base}/search`,
        payload: { query: 'welcome', mode: 'all' },
        verify: async () => {
          await owner('POST', `${f.base}/unpublish`, 200);
        },
      };
    },
  },
  {
    operationId: 'addSpaceToSite',
    method: 'POST',
    success: 201,
    call: async () => ({ url: `${f.base}/site-spaces`, payload: { spaceId: await newSpace() } }),
  },
  {
    operationId: 'updateSiteSpaceById',
    method: 'PATCH',
    success: 200,
    call: async () => ({
      url: `${f.base}/site-spaces/${f.siteSpaceIds[1]}`,
      payload: { path: 'variant-1' },
    }),
  },
  {
    operationId: 'deleteSiteSpaceById',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const added = await owner('POST', `${f.base}/site-spaces`, 201, {
        spaceId: await newSpace(),
      });
      const url = `${f.base}/site-spaces/${added.id as string}`;
      return deletes(url, () => exists(`${url}/customization`));
    },
  },

  // A whole site from Git (Livery, issue 29): each call on a new site, so that no operation of
  // an earlier call makes it a 409.
  {
    operationId: 'importSiteGitRepository',
    method: 'POST',
    success: 204,
    call: async () => ({
      url: `${await freshSite()}/git/import`,
      payload: { url: `file://${repo.dir}`, ref: 'main' },
    }),
  },
  {
    operationId: 'exportSiteToGitRepository',
    method: 'POST',
    success: 204,
    call: async () => ({
      url: `${await freshSite()}/git/export`,
      payload: {
        url: `file://${repo.dir}`,
        ref: `refs/heads/site-export-${++siteExports}`,
        commitMessage: 'Export',
      },
    }),
  },
  {
    operationId: 'getSiteGitInfo',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${await syncedSite()}/git/info` }),
  },

  // Site structure (issue 29).
  {
    operationId: 'getSiteStructure',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${(await sectionedSite()).base}/structure` }),
  },
  {
    operationId: 'listSiteSections',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${(await sectionedSite()).base}/sections` }),
  },
  {
    operationId: 'listSiteSectionGroups',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${(await sectionedSite()).base}/section-groups` }),
  },
  {
    operationId: 'addSectionToSite',
    method: 'POST',
    success: 201,
    call: async () => ({
      url: `${(await sectionedSite()).base}/sections`,
      payload: { spaceId: await newSpace() },
    }),
  },
  {
    operationId: 'addSectionGroupToSite',
    method: 'POST',
    success: 201,
    call: async () => ({
      url: `${(await sectionedSite()).base}/section-groups`,
      payload: { title: 'More' },
    }),
  },
  {
    operationId: 'addExternalLinkToSite',
    method: 'POST',
    success: 201,
    call: async () => ({
      url: `${(await sectionedSite()).base}/external-links`,
      payload: { title: 'Blog', url: 'https://blog.example.com/' },
    }),
  },
  {
    operationId: 'updateSiteSectionById',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const { base, b } = await sectionedSite();
      return { url: `${base}/sections/${b}`, payload: { title: 'Bravo' } };
    },
  },
  {
    operationId: 'updateSiteSectionGroupById',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const { base, g } = await sectionedSite();
      return { url: `${base}/section-groups/${g}`, payload: { title: 'Group' } };
    },
  },
  {
    operationId: 'updateSiteExternalLinkById',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const { base, l } = await sectionedSite();
      return { url: `${base}/external-links/${l}`, payload: { title: 'Link' } };
    },
  },
  {
    operationId: 'deleteSiteSectionById',
    method: 'DELETE',
    success: 205,
    call: () => structureNode('sections', { spaceId: null, title: 'Doomed' }),
  },
  {
    operationId: 'deleteSiteSectionGroupById',
    method: 'DELETE',
    success: 205,
    call: () => structureNode('section-groups', { title: 'Doomed' }),
  },
  {
    operationId: 'deleteSiteExternalLinkById',
    method: 'DELETE',
    success: 205,
    call: () => structureNode('external-links', { title: 'Doomed', url: 'https://x.test/' }),
  },
  {
    operationId: 'moveSiteSection',
    method: 'POST',
    success: 200,
    call: async () => {
      const { base, b } = await sectionedSite();
      return { url: `${base}/sections/${b}/move`, payload: {} };
    },
  },
  {
    operationId: 'moveSiteSectionGroup',
    method: 'POST',
    success: 200,
    call: async () => {
      const { base, g } = await sectionedSite();
      return { url: `${base}/section-groups/${g}/move`, payload: {} };
    },
  },
  {
    operationId: 'moveSiteSpace',
    method: 'POST',
    success: 200,
    call: async () => {
      const { base, variant } = await sectionedSite();
      return { url: `${base}/site-spaces/${variant}/move`, payload: {} };
    },
  },
  {
    operationId: 'duplicateSiteSpace',
    method: 'POST',
    success: 201,
    call: async () => {
      const { base, variant } = await sectionedSite();
      return { url: `${base}/site-spaces/${variant}/duplicate`, payload: {} };
    },
  },
  {
    operationId: 'sortSiteStructure',
    method: 'PATCH',
    success: 200,
    call: async () => {
      const { base, b } = await sectionedSite();
      return {
        url: `${base}/structure/sort`,
        payload: { item: { type: 'site-section', id: b }, position: {} },
      };
    },
  },

  // Customization.
  {
    operationId: 'getSiteCustomizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${f.base}/customization` }),
  },
  {
    operationId: 'updateSiteCustomizationById',
    method: 'PUT',
    success: 200,
    call: async () => ({ url: `${f.base}/customization`, payload: { title: 'Docs' } }),
  },
  {
    operationId: 'getSiteSpaceCustomizationById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization` }),
  },
  {
    operationId: 'getSiteSpaceCustomizationOverride',
    method: 'GET',
    success: 200,
    call: async () => ({
      url: `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization/override`,
    }),
  },
  {
    operationId: 'getSiteSpaceThemeCss',
    method: 'GET',
    success: 200,
    call: async () => ({
      url: `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization/theme.css`,
    }),
  },
  {
    operationId: 'getSitePublishingPreviewById',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `${f.base}/publishing/preview?siteSpace=${f.siteSpaceIds[1]}` }),
  },
  {
    operationId: 'previewSitePage',
    method: 'POST',
    success: 200,
    call: async () => ({
      url: `${f.base}/preview`,
      payload: { siteSpaceId: f.siteSpaceIds[1], customization: { title: 'Draft' } },
    }),
  },
  {
    operationId: 'overrideSiteSpaceCustomizationById',
    method: 'PATCH',
    success: 200,
    call: async () => ({
      url: `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization`,
      payload: { title: 'Variant 1' },
    }),
  },
  {
    operationId: 'deleteSiteSpaceCustomizationById',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const url = `${f.base}/site-spaces/${f.siteSpaceIds[0]}/customization`;
      await owner('PATCH', url, 200, { title: 'Overridden' });
      const overridden = async () => (await owner('GET', url, 200)).title === 'Overridden';
      return deletes(url, overridden);
    },
  },

  // Custom fonts: each write on a font of its own.
  {
    operationId: 'listCustomFonts',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/fonts` }),
  },
  {
    operationId: 'createCustomFont',
    method: 'PUT',
    success: 201,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/fonts`, payload: fontBody() }),
  },
  {
    operationId: 'getCustomFont',
    method: 'GET',
    success: 200,
    call: async () => ({ url: await newFont() }),
  },
  {
    operationId: 'updateCustomFont',
    method: 'POST',
    success: 201,
    call: async () => ({ url: await newFont(), payload: { fontFamily: 'Renamed' } }),
  },
  {
    operationId: 'deleteCustomFont',
    method: 'DELETE',
    success: 205,
    call: async () => {
      const url = await newFont();
      return deletes(url, async () => (await t.request({ method: 'GET', url })).statusCode === 200);
    },
  },

  // Customization history (Livery): reads as reading customization, restores as writing it.
  ...historyOperations('Site', () => `${f.base}/customization`, 'PUT'),
  ...historyOperations(
    'SiteSpace',
    () => `${f.base}/site-spaces/${f.siteSpaceIds[1]}/customization`,
    'PATCH',
  ),
  {
    operationId: 'listOrganizationAuditLog',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/audit-log` }),
  },
  {
    operationId: 'createOrganization',
    method: 'POST',
    success: 201,
    alsoNeeds: 'admin',
    alsoNeedsMessage:
      'Creating an organization needs the admin role in at least one organization of this server',
    nonMemberStatus: 403,
    call: async () => ({ url: '/v1/orgs', payload: { title: 'Another organization' } }),
  },
  {
    operationId: 'updateOrganizationById',
    method: 'PATCH',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}`, payload: { title: 'Test organization' } }),
  },
  {
    operationId: 'listOrganizationAuditEvents',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/audit-events` }),
  },
  {
    operationId: 'getOrganizationAuditEvent',
    method: 'GET',
    success: 200,
    call: async () => {
      const listed = await t.request({ method: 'GET', url: `/v1/orgs/${t.orgId}/audit-events` });
      const { items } = expectStatus(listed, 200) as { items: { id: string }[] };
      return { url: `/v1/orgs/${t.orgId}/audit-events/${items[0]?.id}` };
    },
  },
  {
    operationId: 'listOrganizationAuditEventActions',
    method: 'GET',
    success: 200,
    call: async () => ({ url: `/v1/orgs/${t.orgId}/audit-event-actions` }),
  },

  // Share links and visitor authentication: site-keyed, and the deprecated space-keyed forms.
  ...siteAuthOperations('Site', () => f.base),
  ...siteAuthOperations('Space', () => `/v1/spaces/${f.spaceIds[0]}`),
];

/** The four history operations of a customization; revision 1 is made by its owner first. */
function historyOperations(
  kind: 'Site' | 'SiteSpace',
  customization: () => string,
  write: 'PUT' | 'PATCH',
): Operation[] {
  const withRevision = async () => {
    await owner(write, customization(), 200, { title: 'History' });
    return `${customization()}/revisions`;
  };
  return [
    {
      operationId: `list${kind}CustomizationRevisions`,
      method: 'GET',
      success: 200,
      call: async () => ({ url: await withRevision() }),
    },
    {
      operationId: `get${kind}CustomizationRevision`,
      method: 'GET',
      success: 200,
      call: async () => ({ url: `${await withRevision()}/1` }),
    },
    {
      operationId: `compare${kind}CustomizationRevisions`,
      method: 'GET',
      success: 200,
      call: async () => ({ url: `${await withRevision()}/compare?from=0&to=1` }),
    },
    {
      operationId: `restore${kind}CustomizationRevision`,
      method: 'POST',
      success: 200,
      call: async () => ({ url: `${await withRevision()}/1/restore` }),
    },
  ];
}

/** What a member of `role` must get: the success status, or a 403 naming the role missing. */
function expectation(op: Operation, role: OrgRole): { status: number; message?: string } {
  const permission = PERMISSIONS[op.operationId];
  assert.ok(permission, `${op.operationId} is in PERMISSIONS`);
  if (permission.role !== null && !roleAtLeast(role, permission.role)) {
    return { status: 403, message: `${op.operationId} needs the ${permission.role} role` };
  }
  if (op.alsoNeeds !== undefined && !roleAtLeast(role, op.alsoNeeds)) {
    const message = op.alsoNeedsMessage ?? `${op.operationId} needs the ${op.alsoNeeds} role`;
    return { status: 403, message };
  }
  return { status: op.forMembers ?? op.success };
}

const label = (op: Operation) =>
  op.variant === undefined ? op.operationId : `${op.operationId} (${op.variant})`;

/** The same request naming an organization (or space, or user) that does not exist. */
function withBogusOwner(url: string): { url: string; hidden: string; bogus: string } {
  const match = /^\/v1\/(orgs|spaces|users)\/([^/?]+)/.exec(url);
  assert.ok(match?.[2], `${url} names an organization, a space or a user`);
  const bogus = { orgs: BOGUS_ORG, spaces: BOGUS_SPACE, users: BOGUS_USER }[match[1] as 'orgs'];
  return { url: url.replace(match[2], bogus), hidden: match[2], bogus };
}

const deprecationLink = (res: LightMyRequestResponse) => String(res.headers.link ?? '');

describe('the permission matrix', () => {
  test('the table covers every operation of PERMISSIONS', () => {
    const covered = new Set(OPERATIONS.map((op) => op.operationId));
    assert.deepEqual(
      Object.keys(PERMISSIONS).filter((id) => !covered.has(id)),
      [],
      'operations without a row',
    );
    for (const op of OPERATIONS) assert.ok(PERMISSIONS[op.operationId], op.operationId);
  });

  for (const op of OPERATIONS) {
    test(label(op), async () => {
      for (const role of ORG_ROLES) {
        const cell = `${role} ${label(op)}`;
        const call = await op.call();
        const res = await as(role, op.method, call.url, call.payload);
        if (call.url.startsWith('/v1/spaces/') && role === 'guest') {
          // A guest sees no space: the answer for a space that does not exist (issue 16: a 403
          // here confirmed that it does).
          const absent = op.absent ?? 404;
          assert.equal(res.statusCode, absent, `${cell}: ${res.body}`);
          const bogus = withBogusOwner(call.url);
          const missing = await as(role, op.method, bogus.url, call.payload);
          assert.equal(missing.statusCode, absent, `${cell} (missing space): ${missing.body}`);
          assert.equal(
            res.body.replaceAll(bogus.hidden, '<id>'),
            missing.body.replaceAll(bogus.bogus, '<id>'),
            cell,
          );
          assert.equal(
            deprecationLink(res).replaceAll(bogus.hidden, '<id>'),
            deprecationLink(missing).replaceAll(bogus.bogus, '<id>'),
            `${cell}: the same headers as for one that does not exist`,
          );
          await call.verify?.(false);
          continue;
        }
        const expected = expectation(op, role);
        if (expected.message === undefined) {
          assert.equal(res.statusCode, expected.status, `${cell}: ${res.body}`);
        } else {
          assert.equal(res.statusCode, 403, `${cell}: ${res.body}`);
          const message = expectError(res, 403);
          assert.ok(message.includes(expected.message), `${cell}: ${message}`);
        }
        await call.verify?.(expected.message === undefined);
      }

      // A non-member: the operations naming no organization work as for anyone; the others
      // answer exactly what a request naming an organization (or space, or user) that does not
      // exist gets.
      const cell = `non-member ${label(op)}`;
      const call = await op.call();
      const res = await as('non-member', op.method, call.url, call.payload);
      if (op.nonMemberStatus !== undefined) {
        assert.equal(res.statusCode, op.nonMemberStatus, `${cell}: ${res.body}`);
        await call.verify?.(false);
        return;
      }
      if (PERMISSIONS[op.operationId]?.role === null && op.nonMember === undefined) {
        assert.equal(res.statusCode, op.success, `${cell}: ${res.body}`);
        await call.verify?.(true);
        return;
      }
      const absent = op.absent ?? 404;
      assert.equal(res.statusCode, absent, `${cell}: ${res.body}`);
      const bogus = withBogusOwner(call.url);
      const missing = await as('non-member', op.method, bogus.url, call.payload);
      assert.equal(missing.statusCode, absent, `${cell} (missing owner): ${missing.body}`);
      assert.equal(
        absent === 404 ? expectError(res, 404).replaceAll(bogus.hidden, '<id>') : res.body,
        absent === 404 ? expectError(missing, 404).replaceAll(bogus.bogus, '<id>') : missing.body,
        `${cell}: the same answer as for one that does not exist`,
      );
      assert.equal(
        deprecationLink(res).replaceAll(bogus.hidden, '<id>'),
        deprecationLink(missing).replaceAll(bogus.bogus, '<id>'),
        `${cell}: the same headers as for one that does not exist`,
      );
      for (const secret of [f.siteId, ...f.siteSpaceIds, shareLinkId]) {
        if (!call.url.includes(secret)) {
          assert.equal(res.body.includes(secret), false, `${cell} reveals ${secret}`);
        }
      }
      await call.verify?.(false);
    });
  }
});

describe("a team's owners manage its members whatever their organization role", () => {
  test('read as team owner: allowed; read as team member: refused', async () => {
    const team = await newTeam();
    const base = `${teams()}/${team}/members`;
    const members = async () =>
      ((await owner('GET', base, 200)).items as { organization: { id: string } }[])
        .map((item) => item.organization.id)
        .sort();
    const reader = expectStatus(await as('read', 'GET', '/v1/user'), 200).id as string;

    await owner('PUT', `${base}/${reader}`, 204, { role: 'member' });
    const target = await newMember();
    const before = await members();
    for (const [method, url, payload] of [
      ['PUT', `${base}/${target}`, undefined],
      ['PUT', base, { add: [target] }],
      ['DELETE', `${base}/${reader}`, undefined],
    ] as const) {
      const message = expectError(await as('read', method, url, payload), 403);
      assert.match(message, /admin role in this organization or the team's owner role/);
    }
    assert.deepEqual(await members(), before, 'a plain team member changed nothing');

    await owner('PUT', `${base}/${reader}`, 204, { role: 'owner' });
    expectStatus(await as('read', 'PUT', `${base}/${target}`), 204);
    assert.ok((await members()).includes(target));
    expectStatus(await as('read', 'DELETE', `${base}/${target}`), 205);
    assert.equal((await members()).includes(target), false);
    // Owning a team gives nothing beyond its members.
    assert.match(
      expectError(await as('read', 'PATCH', `${teams()}/${team}`, { title: 'Mine' }), 403),
      /needs the admin role/,
    );
  });
});

describe('refusals come before validation', () => {
  const site = async () => owner('GET', f.base, 200);
  const space = async () => owner('GET', `/v1/spaces/${f.spaceIds[0]}`, 200);
  const spaceCount = async () =>
    (await owner('GET', `/v1/orgs/${t.orgId}/sites/${f.siteId}/site-spaces`, 200)).count;
  const customization = async () => owner('GET', `${f.base}/customization`, 200);
  const links = async () => (await linkIds(f.base)).sort();
  const spaceRows = async () =>
    (await t.db.selectFrom('spaces').select('id').orderBy('id').execute()).map((r) => r.id);

  const cases: {
    caller: Caller;
    operationId: string;
    method: Method;
    url: () => string;
    payload: object;
    status: number;
    message: RegExp;
    readBack: () => Promise<unknown>;
  }[] = [
    {
      caller: 'read',
      operationId: 'updateSiteById',
      method: 'PATCH',
      url: () => f.base,
      payload: { visibility: 'secret', title: 1, nope: true },
      status: 403,
      message: /needs the admin role/,
      readBack: site,
    },
    {
      caller: 'edit',
      operationId: 'createSpace',
      method: 'POST',
      url: () => `/v1/orgs/${t.orgId}/spaces`,
      payload: { title: 42, editMode: 'never' },
      status: 403,
      message: /needs the create role/,
      readBack: spaceRows,
    },
    {
      caller: 'comment',
      operationId: 'updateSpaceById',
      method: 'PATCH',
      url: () => `/v1/spaces/${f.spaceIds[0]}`,
      payload: { title: 'x'.repeat(51), unknown: 1 },
      status: 403,
      message: /needs the edit role/,
      readBack: space,
    },
    {
      caller: 'create',
      operationId: 'addSpaceToSite',
      method: 'POST',
      url: () => `${f.base}/site-spaces`,
      payload: { spaceId: '' },
      status: 403,
      message: /needs the admin role/,
      readBack: spaceCount,
    },
    {
      caller: 'edit',
      operationId: 'updateSiteCustomizationById',
      method: 'PUT',
      url: () => `${f.base}/customization`,
      payload: { styling: { primaryColor: 'red' }, bogus: true },
      status: 403,
      message: /needs the admin role/,
      readBack: customization,
    },
    {
      caller: 'review',
      operationId: 'createSpaceShareLink',
      method: 'POST',
      url: () => `/v1/spaces/${f.spaceIds[0]}/share-links`,
      payload: { name: 5, extra: true },
      status: 403,
      message: /needs the admin role/,
      readBack: links,
    },
    {
      caller: 'guest',
      operationId: 'createSite',
      method: 'POST',
      url: () => `/v1/orgs/${t.orgId}/sites`,
      payload: { type: 'nonsense' },
      status: 403,
      message: /needs the create role/,
      readBack: async () => (await owner('GET', `/v1/orgs/${t.orgId}/sites`, 200)).count,
    },
    {
      caller: 'read',
      operationId: 'updateChangeRequestContent',
      method: 'POST',
      url: () => `${crUrl(openCr)}/content`,
      payload: { changes: [{ operation: 'rename_page', title: '' }], extra: true },
      status: 403,
      message: /updateChangeRequestContent needs the edit role/,
      readBack: async () => [
        await changeRequest(openCr),
        await owner('GET', `${crUrl(openCr)}/content/pages`, 200),
      ],
    },
    {
      caller: 'non-member',
      operationId: 'updateSiteById',
      method: 'PATCH',
      url: () => f.base,
      payload: { visibility: 'secret' },
      status: 404,
      message: /No organization found/,
      readBack: site,
    },
    {
      caller: 'non-member',
      operationId: 'updateSpaceById',
      method: 'PATCH',
      url: () => `/v1/spaces/${f.spaceIds[0]}`,
      payload: { title: 7 },
      status: 404,
      message: /No space found/,
      readBack: space,
    },
  ];

  for (const c of cases) {
    test(`${c.caller} ${c.operationId} with an invalid body → ${c.status}, nothing changes`, async () => {
      const before = await c.readBack();
      const res = await as(c.caller, c.method, c.url(), c.payload);
      assert.match(expectError(res, c.status), c.message, `${c.caller} ${c.operationId}`);
      assert.deepEqual(await c.readBack(), before, `${c.caller} ${c.operationId}: unchanged`);
    });
  }

  test('edit with a deprecated site field: 403 naming admin, and neither the space nor the site changes', async () => {
    const spaceBefore = await space();
    const siteBefore = await site();
    for (const payload of [
      { title: 'Changed', published: !siteBefore.published },
      { title: 'Changed', visibility: 'unlisted' },
    ]) {
      const res = await as('edit', 'PATCH', `/v1/spaces/${f.spaceIds[0]}`, payload);
      assert.match(expectError(res, 403), /updateSpaceById needs the admin role/);
      assert.deepEqual(await space(), spaceBefore, JSON.stringify(payload));
      assert.deepEqual(await site(), siteBefore, JSON.stringify(payload));
    }
  });

  test('the same invalid bodies from an admin are 400s (the refusals above were not)', async () => {
    for (const c of cases) {
      const res = await as('admin', c.method, c.url(), c.payload);
      expectError(res, 400);
    }
  });
});
