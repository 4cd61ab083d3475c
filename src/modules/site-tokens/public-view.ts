import type { Settings } from '../../settings/settings-schema.js';
import type { Revision } from '../content/repository.js';

/**
 * What a site token may read (docs/renderer.md, "What a site token reads"): the one allow-list.
 * A site token is public (GitBook's renderer embeds it in page HTML), so it reads what a visitor
 * of the published site may see, and nothing else: published settings, published revisions, and
 * no change request in any form. Everything here is an allow-list: a field not listed is left
 * out, so a field added later stays unpublished until it is listed.
 *
 * `SITE_TOKEN_READS` says, for every operation the permission table opens to site tokens, how
 * its answer is made public; access/site-token-answers.ts applies it to every such answer.
 */

// ---------------------------------------------------------------------------------------------
// Settings: every field of the settings object, published or not.

/** How one settings field reaches a site token. */
export class Publication {
  private constructor(
    readonly kind: 'published' | 'never' | 'while',
    readonly why: string,
    /** For `while`: whether the field is published, given the whole settings object. */
    readonly when: (settings: Settings) => boolean = () => kind === 'published',
  ) {}

  static readonly published = new Publication('published', 'what the published site shows');
  static never = (why: string) => new Publication('never', why);
  static onlyWhile = (why: string, when: (settings: Settings) => boolean) =>
    new Publication('while', why, when);
}

/** A group of settings: each field classified, or a group classified field by field. */
export interface SettingsPublication {
  readonly [field: string]: Publication | SettingsPublication;
}

const P = Publication.published;
const ANNOUNCED = Publication.onlyWhile(
  'a banner switched off is a draft that no page shows',
  (s) => s.announcement?.enabled === true,
);
const FOR_THE_AI = Publication.onlyWhile(
  'shown only by an AI search or assistant: with ai.mode none, by nothing',
  (s) => s.ai?.mode !== 'none',
);

/** Every settings field (settings-schema.ts): a test walks the schema against this list. */
export const SETTINGS_PUBLICATION: SettingsPublication = {
  title: P,
  localizedTitle: P,
  styling: {
    theme: P,
    primaryColor: P,
    tint: P,
    infoColor: P,
    successColor: P,
    warningColor: P,
    dangerColor: P,
    corners: P,
    depth: P,
    links: P,
    font: P,
    headingFont: P,
    monospaceFont: P,
    background: P,
    icons: P,
    codeTheme: { default: P, openapi: P },
    sidebar: { background: P, list: P },
    search: P,
  },
  internationalization: { locale: P },
  favicon: P,
  header: { preset: P, logo: P, primaryLink: P, backgroundColor: P, linkColor: P, links: P },
  footer: { logo: P, groups: P, copyright: P },
  announcement: {
    enabled: ANNOUNCED,
    message: ANNOUNCED,
    localizedMessage: ANNOUNCED,
    link: ANNOUNCED,
    style: ANNOUNCED,
  },
  themes: { default: P, toggeable: P },
  pdf: { enabled: P },
  feedback: { enabled: P },
  aiSearch: { enabled: P },
  ai: {
    mode: P,
    greeting: FOR_THE_AI,
    localizedGreeting: FOR_THE_AI,
    suggestions: FOR_THE_AI,
    instructions: Publication.never("the assistant's instructions: GitBook never publishes them"),
    pageLinkSummaries: { enabled: P },
  },
  advancedCustomization: { enabled: P },
  git: { showEditLink: P },
  pageActions: P,
  externalLinks: { target: P },
  pagination: { enabled: P },
  trademark: { enabled: P },
  privacyPolicy: { url: P },
  socialPreview: { url: P },
  socialAccounts: P,
  insights: { trackingCookie: P },
};

/**
 * The settings as a site token reads them. A group that had fields and has none left (an
 * announcement switched off) is left out rather than sent empty: GitBook requires its fields.
 */
export function publicSettings(settings: Settings): Partial<Settings> {
  return pickSettings(settings, SETTINGS_PUBLICATION, settings) as Partial<Settings>;
}

function pickSettings(
  group: Record<string, unknown>,
  fields: SettingsPublication,
  root: Settings,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(fields)) {
    if (!Object.hasOwn(group, field)) continue;
    const value = group[field];
    if (rule instanceof Publication) {
      if (rule.when(root)) out[field] = value;
    } else if (typeof value === 'object' && value !== null) {
      const inner = pickSettings(value as Record<string, unknown>, rule, root);
      const emptied = Object.keys(inner).length === 0 && Object.keys(value).length > 0;
      if (!emptied) out[field] = inner;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Records: GitBook 0.202's fields, each kept, or given a neutral value where GitBook requires
// the field and its value would name a change request.

type Fields = Readonly<Record<string, true | ((value: unknown) => unknown)>>;

/** Fields kept as they are, named in one string. */
const kept = (names: string): Fields =>
  Object.fromEntries(names.split(/\s+/).map((n) => [n, true]));

function pick(record: unknown, fields: Fields): Record<string, unknown> {
  const source = record as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [field, keep] of Object.entries(fields)) {
    if (!Object.hasOwn(source, field)) continue;
    out[field] = keep === true ? source[field] : keep(source[field]);
  }
  return out;
}

/** A counter of change requests: required by GitBook, 0 to a site token. */
const NO_CHANGE_REQUESTS = () => 0;

const SPACE: Fields = {
  ...kept(`object id title emoji icon visibility createdAt updatedAt editMode urls organization
    revision defaultLevel mergeRules language comments permissions`),
  changeRequests: NO_CHANGE_REQUESTS,
  changeRequestsOpen: NO_CHANGE_REQUESTS,
  changeRequestsDraft: NO_CHANGE_REQUESTS,
};

/**
 * A published revision (the gate lets no other through). `mergedFrom` (the change request) is
 * left out; GitBook requires it of a `merge`, so a merge reads as what it is on the published
 * line, `edits` with one parent: the published revision it was made from (its second parent is
 * the change request's revision).
 */
const REVISION: Fields = {
  ...kept('object id pages files reusableContents variables tags createdAt urls git'),
  type: (type) => (type === 'merge' ? 'edits' : type),
  parents: (parents) => (parents as string[]).slice(0, 1),
};

const SITE: Fields = kept(`object id type appliedType title basename proxy visibility defaultLevel
  permissions published siteSpaces createdAt agentsContext features urls`);

const SITE_SPACE: Fields = {
  ...kept('object id path section title localizedTitle default draft condition hidden urls'),
  space: (space) => pick(space, SPACE),
};

const SITE_SECTION: Fields = {
  ...kept(`object id title localizedTitle description localizedDescription default draft path
    sectionGroup urls icon`),
  siteSpaces: (variants) => (variants as unknown[]).map((v) => pick(v, SITE_SPACE)),
};

const SITE_EXTERNAL_LINK: Fields = kept(`object id title localizedTitle description
  localizedDescription icon url sectionGroup draft`);

/** A node of a sectioned site's structure (docs/sites.md, "Sections"). */
function structureNode(node: unknown): Record<string, unknown> {
  switch ((node as { object?: unknown }).object) {
    case 'site-section':
      return pick(node, SITE_SECTION);
    case 'site-section-group':
      return pick(node, SITE_SECTION_GROUP);
    case 'site-external-link':
      return pick(node, SITE_EXTERNAL_LINK);
    default:
      return pick(node, SITE_SPACE);
  }
}

const SITE_SECTION_GROUP: Fields = {
  ...kept('object id title localizedTitle sectionGroup draft icon'),
  sections: (sections) => (sections as unknown[]).map((n) => pick(n, SITE_SECTION)),
  children: (children) => (children as unknown[]).map(structureNode),
};

const PUBLISHED_CONTENT_SITE: Fields = {
  object: true,
  site: (site) => pick(site, SITE),
  structure: (structure) => {
    const { type, structure: nodes } = structure as { type: string; structure: unknown[] };
    return { type, structure: nodes.map(structureNode) };
  },
  customizations: (customizations) => {
    const { site, siteSpaces } = customizations as {
      site: Settings;
      siteSpaces: Record<string, Settings>;
    };
    const variants = Object.entries(siteSpaces).map(([id, s]) => [id, publicSettings(s)]);
    return { site: publicSettings(site), siteSpaces: Object.fromEntries(variants) };
  },
  scripts: true,
};

/**
 * Published revisions: the space's own line, its first revision (no parent) and the merges of
 * change requests into it. A change request's revisions, of any type (`edits` with a parent,
 * `update`), are not published.
 */
export function isPublishedRevision(
  revision: Pick<Revision, 'type' | 'parents' | 'mergedFrom'> & {
    git?: unknown;
    standalone?: boolean;
  },
) {
  if (revision.type === 'merge') return revision.mergedFrom !== null;
  if (revision.type !== 'edits') return false;
  // An import made it the space's current revision, unless it was standalone (docs/git-sync.md).
  if (revision.git !== undefined) return revision.standalone !== true;
  return revision.parents.length === 0;
}

// ---------------------------------------------------------------------------------------------
// Operations: every one a site token may call (permissions.ts, `siteToken: true`).

export interface PublicRead {
  /** Why its answer is public once made so. */
  why: string;
  /** Makes the answer public; absent when the answer carries nothing else. */
  answer?: (answer: unknown) => unknown;
}

const IN_A_PUBLISHED_REVISION =
  'pages of a published revision (the gate answers 404 for any other revision)';

export const SITE_TOKEN_READS: Readonly<Record<string, PublicRead>> = {
  getPublishedContentSite: {
    why: 'the site, its variants and their published settings',
    answer: (view) => pick(view, PUBLISHED_CONTENT_SITE),
  },
  getSpaceById: {
    why: 'the space, without its change-request counters',
    answer: (space) => pick(space, SPACE),
  },
  getRevisionById: {
    why: 'a published revision, without the change request it merged',
    answer: (revision) => pick(revision, REVISION),
  },
  listPagesInRevisionById: { why: IN_A_PUBLISHED_REVISION },
  getPageInRevisionById: { why: IN_A_PUBLISHED_REVISION },
  getPageInRevisionByPath: { why: IN_A_PUBLISHED_REVISION },
  getPageDocumentInRevisionById: { why: IN_A_PUBLISHED_REVISION },
  listFilesInRevisionById: {
    why: 'files of a published revision (images and downloads its pages show)',
  },
  getFileInRevisionById: { why: 'a file of a published revision' },
  getReusableContentInRevisionById: { why: 'a reusable content of a published revision' },
  getReusableContentDocumentInRevisionById: { why: 'a reusable content of a published revision' },
  listRevisionPageMetaLinks: {
    why: "page ids of the site's variants, in their current (published) revisions",
  },
  listSpacePageMetaLinks: {
    why: "page ids of the site's variants, in their current (published) revisions",
  },
  getSiteRedirectBySource: {
    why: "the redirects of the site's published variants (`.gitbook.yaml`), to its own pages",
  },
  searchSiteContent: {
    why: "the pages of the site's variants in their current (published) revisions",
  },
  trackEventsInSiteById: {
    why: "no answer (204): the token reports its own site's reader events, which it cannot read back",
  },
};
