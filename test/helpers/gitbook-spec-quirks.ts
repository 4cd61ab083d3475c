import { isDeepStrictEqual } from 'node:util';

/**
 * The lists the GitBook conformance tests (test/gitbook-conformance-*.test.ts) rest on, kept
 * in one place so that every exception to "valid under the spec" is visible and has its reason.
 */

export type SpecVersion = '0.202' | '0.130' | '0.91';

/**
 * GitBook schema parts that no body can satisfy. test/helpers/gitbook-spec.ts patches exactly
 * these out of its copy of the spec before compiling it (and refuses to start when one no longer
 * applies, so a stale entry cannot hide anything); the conformance tests print them.
 *
 * - `undefined-required`: `required` names a property the schema never defines (no type, no
 *   meaning). A server could only satisfy it by inventing a field with an arbitrary value, and
 *   GitBook's own generated TypeScript types leave the name out. 0.202 fixed each of these.
 * - `replace`: a union branch no value can match; the schema at `at` (which must still be
 *   `was`) is replaced by `by`, which says what the branch means.
 */
export type SchemaPatch =
  | {
      kind: 'undefined-required';
      version: SpecVersion;
      /** JSON pointer to the schema object that carries the `required` list. */
      schema: string;
      name: string;
      reason: string;
    }
  | {
      kind: 'replace';
      version: SpecVersion;
      /** JSON pointer to the schema replaced. */
      at: string;
      was: unknown;
      by: unknown;
      reason: string;
    };

const undefinedIn130 = (schema: string, name: string, fixed: string): SchemaPatch => ({
  kind: 'undefined-required',
  version: '0.130',
  schema,
  name,
  reason: `0.130 requires "${name}" but never defines it (no property of that name, so no type or meaning); ${fixed}`,
});

/**
 * A document page is `allOf [RevisionPageBase, Document, {…}]`, and `Document` is
 * `oneOf [MarkdownDocument, {document}, Empty]` where Empty is `{properties: {}, additionalProperties:
 * false}`: an object with no property at all. Inside the allOf a page always has `id`, `title`…,
 * so Empty never matches, and a page without its body (tree reads; a page read without `format`,
 * which GitBook answers with `documentId` only) matches no branch. Empty means "no body": here it
 * becomes "neither `markdown` nor `document`". (As a request body, where Empty is `{}`, `Document`
 * is left as it is.)
 */
const pageBody = (version: SpecVersion): SchemaPatch => ({
  kind: 'replace',
  version,
  at: '/components/schemas/RevisionPageDocument/allOf/1',
  was: { $ref: '#/components/schemas/Document' },
  by: {
    anyOf: [
      { $ref: '#/components/schemas/Document' },
      { not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } },
    ],
  },
  reason: `${version}: RevisionPageDocument = allOf [RevisionPageBase, Document, …] and Document's "Empty" branch ({properties: {}, additionalProperties: false}) can never match an object that also has a page's fields, so a document page without its body matches no branch of Document; the branch is read as "no markdown and no document"`,
});

/**
 * `PlainObject` (an integration block's `props`) is `{properties: {}, additionalProperties:
 * {oneOf: [PlainObject, string, boolean, number, array]}}` without `type: object`: a string, a
 * boolean, a number or an array then matches the PlainObject branch too, so every primitive
 * value matches two branches of the oneOf and only nested objects could ever be props. It means
 * an object of those values: the patch adds `type: object` (arrays are not objects there).
 */
const PLAIN_VALUE = {
  oneOf: [
    { $ref: '#/components/schemas/PlainObject' },
    { type: 'string' },
    { type: 'boolean' },
    { type: 'number' },
    {
      type: 'array',
      items: {
        oneOf: [
          { type: 'string' },
          { type: 'boolean' },
          { type: 'number' },
          { $ref: '#/components/schemas/PlainObject' },
        ],
      },
    },
  ],
};
const plainObject: SchemaPatch = {
  kind: 'replace',
  version: '0.202',
  at: '/components/schemas/PlainObject',
  was: { properties: {}, additionalProperties: PLAIN_VALUE },
  by: { type: 'object', properties: {}, additionalProperties: PLAIN_VALUE },
  reason:
    'PlainObject has no `type: object`: every primitive prop matches two branches of its oneOf, so integration blocks could hold no string, number or boolean prop',
};

/**
 * An inline button's data is `allOf [{label, kind, size, icon}, oneOf [{ref}, {action}]]`, each
 * branch of the oneOf with `additionalProperties: false`: inside the allOf the data always has
 * `label` and `kind`, which both branches refuse, so no button matches. The branches mean "a
 * reference or an action, not both": they are read so.
 */
const buttonTarget: SchemaPatch = {
  kind: 'replace',
  version: '0.202',
  at: '/components/schemas/DocumentInlineButton/properties/data/allOf/1',
  was: {
    oneOf: [
      {
        type: 'object',
        properties: { ref: { $ref: '#/components/schemas/ContentRef' } },
        required: ['ref'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { action: { $ref: '#/components/schemas/DocumentAction' } },
        required: ['action'],
        additionalProperties: false,
      },
    ],
  },
  by: {
    type: 'object',
    properties: {
      ref: { $ref: '#/components/schemas/ContentRef' },
      action: { $ref: '#/components/schemas/DocumentAction' },
    },
    oneOf: [
      { required: ['ref'], not: { required: ['action'] } },
      { required: ['action'], not: { required: ['ref'] } },
    ],
  },
  reason:
    "0.202: DocumentInlineButton.data = allOf [{label, kind, …}, oneOf [{ref}, {action}]] and each oneOf branch has additionalProperties: false, so the label and kind every button has make both branches fail; the oneOf is read as 'a ref or an action, not both'",
};

/**
 * A table record's value is `oneOf [number, string|null, boolean, string[], ContentRef,
 * DocumentTableImageRecord]`, and both ContentRef and DocumentTableImageRecord have
 * ContentRefFile and ContentRefURL as branches: a cell that links a URL or a file (a content-ref
 * column to a web page, an image column) matches two branches, so no such cell is valid. The
 * union is read as "any of".
 */
const tableRecordValue: SchemaPatch = {
  kind: 'replace',
  version: '0.202',
  at: '/components/schemas/DocumentTableRecord/properties/values/additionalProperties',
  was: {
    oneOf: [
      { type: 'number' },
      { type: ['string', 'null'] },
      { type: 'boolean' },
      { type: 'array', items: { type: 'string' } },
      { $ref: '#/components/schemas/ContentRef' },
      { $ref: '#/components/schemas/DocumentTableImageRecord' },
    ],
  },
  by: {
    anyOf: [
      { type: 'number' },
      { type: ['string', 'null'] },
      { type: 'boolean' },
      { type: 'array', items: { type: 'string' } },
      { $ref: '#/components/schemas/ContentRef' },
      { $ref: '#/components/schemas/DocumentTableImageRecord' },
    ],
  },
  reason:
    '0.202: DocumentTableRecord.values is oneOf [number, string, boolean, string[], ContentRef, DocumentTableImageRecord], and ContentRefFile and ContentRefURL are branches of both ContentRef and DocumentTableImageRecord, so a cell holding a URL or file reference matches two branches; the union is read as anyOf',
};

export const UNSATISFIABLE: readonly SchemaPatch[] = [
  plainObject,
  pageBody('0.202'),
  buttonTarget,
  tableRecordValue,
  pageBody('0.130'),
  pageBody('0.91'),
  undefinedIn130('/components/schemas/Site', 'defaultSpace', '0.202 drops it from Site.required.'),
  undefinedIn130('/components/schemas/Space', 'type', '0.202 drops it from Space.required.'),
  undefinedIn130(
    '/components/schemas/SiteSpace/properties/urls',
    'location',
    '0.202 drops the required list of SiteSpace.urls.',
  ),
];

/**
 * Where GitBook 0.130 and 0.202 contradict each other: a body valid under 0.202 (which Livery
 * must answer) cannot also be valid under 0.130. A 0.130 violation is accepted only when it
 * matches an entry here: same keyword, the same offending value (`actual`, JSON), and a JSON
 * path matching `path` (`*` stands for one segment, e.g. an array index; a leading `**` for any
 * number of them). Every entry is listed in docs/api.md with its reason.
 */
export interface Contradiction {
  path: string;
  keyword: string;
  actual: string;
  reason: string;
}

export const CONTRADICTIONS_0130: readonly Contradiction[] = [
  {
    path: '/internationalization/locale',
    keyword: 'enum',
    actual: '"ru"',
    reason:
      'CustomizationLocale: 0.202 adds "ru" to the locales of 0.130 (en, fr, es, zh, ja, de, nl, no, pt-br)',
  },
  {
    path: '/themes/default',
    keyword: 'enum',
    actual: '"system"',
    reason:
      'themes.default: 0.202 (CustomizationDefaultThemeMode) allows "system"; 0.130 (CustomizationThemeMode) only light and dark',
  },
  {
    path: '**/to/kind',
    keyword: 'enum',
    actual: '"tag"',
    reason:
      'ContentRef: 0.202 adds the kind "tag" (ContentRefTag) to the link targets of header, footer and announcement links; 0.130 has no such kind',
  },
];

const sameParts = (want: string[], have: string[]) =>
  want.length === have.length && want.every((part, i) => part === '*' || part === have[i]);

export function matchesPath(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want[0] !== '**') return sameParts(want, have);
  const tail = want.slice(1);
  return have.length > tail.length && sameParts(tail, have.slice(have.length - tail.length));
}

/**
 * GitBook request fields for features Livery does not have (sections, drafts, templates, access
 * levels per site or space…), valid under 0.202 (most under 0.130 too). Livery accepts exactly
 * the values in `accepted` (what is true of Livery; an empty list: only leaving the field out)
 * and changes nothing for them; any other value is a 400 whose message starts with
 * `body.<field>: Livery has no …` and says what is accepted, and nothing is stored. The
 * conformance tests expect that 400 for exactly the bodies carrying such a value, whatever status
 * their scenario names for the body otherwise, and for nothing else; the 400 is then judged
 * against the spec like any answer, except that a spec declaring no 400 for the operation is not
 * a violation. Every entry is listed in docs/api.md ("GitBook 0.202's inputs") with its reason.
 * Livery's own list: src/modules/{sites,spaces}/unsupported.ts, src/modules/visitor-auth/schemas.ts.
 */
export interface NotImplementedInput {
  operationId: string;
  /** A top-level field of the request body. */
  field: string;
  accepted: readonly unknown[];
  reason: string;
}

const notImplemented = (
  operationId: string,
  field: string,
  accepted: readonly unknown[],
  reason: string,
): NotImplementedInput => ({ operationId, field, accepted, reason });

const NO_LEVELS =
  'Livery has no access levels per site or space: members reach them through their organization role';
const NO_TEMPLATES = 'Livery has no space templates';
const NO_STRUCTURE_CONDITIONS =
  'Livery has no conditional structure: every section and link is shown to every visitor';
const NO_HOME_PAGES = "Livery has no custom home pages: a variant starts at its space's first page";
const NO_LOCKING = 'Livery has no locked spaces: every space is edited through change requests';

export const NOT_IMPLEMENTED_0202_INPUTS: readonly NotImplementedInput[] = [
  notImplemented('updateSiteById', 'defaultLevel', ['inherit'], NO_LEVELS),
  notImplemented(
    'updateSiteById',
    'adaptiveContent',
    [{ enabled: false }],
    'Livery has no adaptive content',
  ),
  notImplemented('updateSiteById', 'styleguide', [null], 'Livery has no style guides'),
  notImplemented('addSpaceToSite', 'pageId', [null], NO_HOME_PAGES),
  notImplemented('addSpaceToSite', 'template', [], NO_TEMPLATES),
  notImplemented('addSectionToSite', 'template', [], NO_TEMPLATES),
  notImplemented('addSectionToSite', 'pageId', [], NO_HOME_PAGES),
  notImplemented('updateSiteSectionById', 'condition', [null], NO_STRUCTURE_CONDITIONS),
  notImplemented('addExternalLinkToSite', 'condition', [null], NO_STRUCTURE_CONDITIONS),
  notImplemented('updateSiteExternalLinkById', 'condition', [null], NO_STRUCTURE_CONDITIONS),
  notImplemented('updateSiteSpaceById', 'pageId', [null], NO_HOME_PAGES),
  notImplemented(
    'updateSiteSpaceById',
    'condition',
    [null],
    'Livery has no conditional site-spaces: every variant is served to every visitor (null removes a condition an earlier Livery stored without evaluating it)',
  ),
  notImplemented(
    'updateSitePublishingAuthById',
    'backend',
    ['custom'],
    'Livery has no integrations, so "integration" cannot authenticate visitors',
  ),
  notImplemented('createSpace', 'editMode', ['live'], NO_LOCKING),
  notImplemented('createSpace', 'parent', [], 'Livery has no collections'),
  notImplemented('createSpace', 'template', [], NO_TEMPLATES),
  notImplemented('createSpace', 'computedSource', [], 'Livery has no computed content'),
  notImplemented('updateSpaceById', 'editMode', ['live'], NO_LOCKING),
  notImplemented('updateSpaceById', 'defaultLevel', ['inherit'], NO_LEVELS),
  notImplemented(
    'updateSpaceById',
    'mergeRules',
    [{ type: 'inherit' }],
    "Livery has no merge rules per space: the organization's (none) apply",
  ),
  notImplemented(
    'createOrganization',
    'emailDomains',
    [[]],
    'Livery has no joining by email domain',
  ),
  notImplemented(
    'createOrganization',
    'onboardingPreferences',
    [],
    'Livery has no default site to apply onboarding preferences to',
  ),
  notImplemented(
    'updateOrganizationById',
    'emailDomains',
    [[]],
    'Livery has no joining by email domain',
  ),
  notImplemented('updateOrganizationById', 'hostname', [], 'Livery has no organization hostname'),
  notImplemented('updateOrganizationById', 'defaultRole', [], 'Livery has no default role'),
  notImplemented(
    'updateOrganizationById',
    'defaultContent',
    [null],
    'Livery has no default content',
  ),
  notImplemented('updateOrganizationById', 'logo', [null], 'Livery has no organization logo'),
  notImplemented('updateOrganizationById', 'sso', [false], 'Livery has no SSO'),
  notImplemented('updateOrganizationById', 'ai', [false], 'Livery has no AI features'),
  notImplemented(
    'updateOrganizationById',
    'inviteLinks',
    [true],
    'Livery has no way to turn invite links off',
  ),
  notImplemented(
    'updateOrganizationById',
    'mergeRules',
    [{ type: 'none' }],
    'Livery has no merge rules',
  ),
];

/** The listed fields of `body` whose value Livery refuses for `operationId`. */
export function refusedInputs(operationId: string, body: unknown): NotImplementedInput[] {
  if (typeof body !== 'object' || body === null) return [];
  const values = body as Record<string, unknown>;
  return NOT_IMPLEMENTED_0202_INPUTS.filter(
    (input) =>
      input.operationId === operationId &&
      values[input.field] !== undefined &&
      !input.accepted.some((value) => isDeepStrictEqual(value, values[input.field])),
  );
}
