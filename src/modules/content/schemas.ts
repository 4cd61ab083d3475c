import { type Static, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { UserSchema } from '../identity/schemas.js';

const Timestamp = Type.String({ format: 'date-time' });
const Uri = Type.String({ format: 'uri' });
/** GitBook's EntityId: ids in paths and bodies. */
export const EntityId = (description: string) =>
  Type.String({ pattern: '^[a-zA-Z0-9_-]+$', maxLength: 128, description });

export const PageFormat = Enum(['document', 'markdown'], 'Output format for the content');

/** GitBook's `evaluated` switch: true, false or `deterministic-only` (what its renderer sends). */
const Evaluated = Type.Union([Type.Boolean(), Type.Literal('deterministic-only')], {
  description: 'Accepted; Livery has no expressions to evaluate',
});

/** Query parameters of GitBook's page reads; only `format` changes Livery's answer. */
export const PageReadQuery = Type.Object({
  format: Type.Optional(PageFormat),
  evaluated: Type.Optional(Evaluated),
  metadata: Type.Optional(
    Type.Boolean({
      description:
        "Accepted: the Git metadata (Revision.git, a page's git blob) is always included",
    }),
  ),
  computed: Type.Optional(
    Type.Boolean({ description: 'Accepted; Livery has no computed content' }),
  ),
});
/** `…/page/{pageId}/document`'s query: GitBook's two switches, accepted; neither changes the answer. */
export const DocumentReadQuery = Type.Object({
  evaluated: Type.Optional(Evaluated),
  dereferenced: Type.Optional(
    Type.Union([Type.Boolean(), Type.Literal('reusable-contents')], {
      description:
        "Accepted (true, false or `reusable-contents`, what GitBook's renderer sends); reusable-content blocks stay references (the published site renders them in place)",
    }),
  ),
});

export const TreeReadQuery = Type.Object({
  metadata: Type.Optional(
    Type.Boolean({
      description:
        "Accepted: the Git metadata (Revision.git, a page's git blob) is always included",
    }),
  ),
  computed: Type.Optional(
    Type.Boolean({ description: 'Accepted; Livery has no computed content' }),
  ),
});

const shows = (what: string) => Type.Boolean({ description: `Does the page show ${what}` });

/** A document's layout options (GitBook's RevisionPageLayoutOptions): the same on every page. */
const RevisionPageLayoutSchema = Type.Object(
  {
    width: Enum(['default', 'wide']),
    cover: shows('its cover (Livery has no cover images: false)'),
    coverSize: Enum(['hero', 'full', 'background']),
    coverMask: Enum(['none', 'radial'], 'Livery has no cover images: none'),
    title: shows('its title'),
    description: shows('its description'),
    tableOfContents: shows('the table of contents'),
    outline: shows('its outline, "on this page" (Livery shows none: false)'),
    pagination: shows('pagination'),
    metadata: shows('its metadata, last update and contributors (Livery shows none: false)'),
    tags: shows('tags (Livery has none: false)'),
    actions: shows("page actions (the site's pageActions.items)"),
    anchors: shows('anchor links on headings (Livery shows none: false)'),
  },
  { title: 'RevisionPageLayoutOptions' },
);

/**
 * GitBook's RevisionPage (document, group or link). The declared fields are those every page
 * has or that Livery sets; `pages` holds the child pages, each a RevisionPage.
 */
export const RevisionPageSchema = Type.Object(
  {
    id: Type.String({ description: 'Unique identifier for the page in the revision' }),
    title: Type.String(),
    type: Enum(['document', 'group', 'link']),
    kind: Type.String({ deprecated: true, description: 'sheet, group or link' }),
    slug: Type.Optional(Type.String({ description: "Page's slug in its direct parent" })),
    path: Type.Optional(
      Type.String({ description: 'Complete path to access the page in the revision' }),
    ),
    layout: Type.Optional(RevisionPageLayoutSchema),
    tags: Type.Optional(
      Type.Array(Type.Object({}), {
        description: 'Documents: the tags of the page; Livery has no tags, so always empty',
      }),
    ),
    pages: Type.Optional(
      Type.Array(
        Type.Unsafe<Record<string, unknown>>({
          type: 'object',
          additionalProperties: true,
          description: 'A child page (RevisionPage)',
        }),
      ),
    ),
  },
  { title: 'RevisionPage', additionalProperties: true },
);

export const PagesSchema = Type.Object({ pages: Type.Array(RevisionPageSchema) });

export const ChangeRequestStatuses = ['draft', 'open', 'archived', 'merged'] as const;

export const ChangeRequestSchema = Type.Object(
  {
    object: Type.Literal('change-request'),
    id: Type.String(),
    number: Type.Number({ description: 'Incremental identifier of the change request' }),
    status: Enum(ChangeRequestStatuses),
    subject: Type.String({ maxLength: 100 }),
    createdBy: UserSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    space: Type.String({ description: 'ID of the space in which the change request was created' }),
    revision: Type.String({ description: 'ID of the active revision in the change request' }),
    revisionInitial: Type.String({
      description: 'ID of the revision of the space the change request was created from',
    }),
    revisionMergedAncestor: Type.Optional(
      Type.String({ description: 'ID of the space revision of the last update from main' }),
    ),
    revisionMerged: Type.Optional(
      Type.String({ description: 'When merged, ID of the revision resulting from the merge' }),
    ),
    comments: Type.Number(),
    outdated: Type.Boolean({
      description:
        'True while the space has moved on since the change request was created or updated',
    }),
    urls: Type.Object({ app: Uri, location: Uri }),
  },
  { title: 'ChangeRequest' },
);
export type ChangeRequest = Static<typeof ChangeRequestSchema>;

export const CreatedChangeRequestSchema = Type.Object(
  {
    ...ChangeRequestSchema.properties,
    changeRequest: Type.String({
      deprecated: true,
      description:
        '(Deprecated) The id of the change request, as the response carried before it returned the whole object; will be removed. Use `id`.',
    }),
  },
  { title: 'CreatedChangeRequest' },
);

export const RevisionSchema = Type.Object(
  {
    object: Type.Literal('revision'),
    id: Type.String(),
    type: Enum(['edits', 'merge', 'update']),
    parents: Type.Array(Type.String()),
    pages: Type.Array(RevisionPageSchema),
    files: Type.Array(Type.Object({})),
    reusableContents: Type.Array(Type.Object({})),
    variables: Type.Object({}),
    tags: Type.Array(Type.Object({}), {
      description: "GitBook's revision tags: Livery has no tags, so always empty",
    }),
    createdAt: Timestamp,
    urls: Type.Object({ app: Uri }),
    mergedFrom: Type.Optional(ChangeRequestSchema),
  },
  { title: 'Revision' },
);

export const CreateChangeRequestSchema = Type.Object(
  {
    subject: Type.Optional(
      Type.String({ maxLength: 100, description: 'Subject of the change-request' }),
    ),
  },
  { additionalProperties: false, title: 'CreateChangeRequest' },
);

export const UpdateChangeRequestSchema = Type.Object(
  {
    subject: Type.Optional(Type.String({ minLength: 0, maxLength: 100 })),
    status: Type.Optional(Enum(['draft', 'open', 'archived'])),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateChangeRequest' },
);

const LinkTargetSchema = Type.Object(
  {
    kind: Enum(['url', 'page']),
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    page: Type.Optional(EntityId('ID of the page the link goes to')),
  },
  { additionalProperties: false, description: 'Livery extension: the target of a link page' },
);

/**
 * One change (GitBook 0.202's ChangeRequestContentChange, minus files). Which fields an
 * operation needs is checked when the list is applied, naming `changes[i]`.
 */
const ChangeSchema = Type.Object(
  {
    operation: Enum(['insert_page', 'update_page', 'delete_page']),
    page: Type.Optional(EntityId('ID of the page to update or delete')),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    slug: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          "Slug of the page in its parent (one path segment: letters, digits, '-', '_', '.'). Derived from the title when omitted on insert.",
      }),
    ),
    emoji: Type.Optional(Type.String({ maxLength: 50, description: 'Empty string removes it' })),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    hidden: Type.Optional(Type.Boolean()),
    document: Type.Optional(
      Type.Object(
        {
          markdown: Type.Optional(
            Type.String({
              description:
                'The page body. At most PAGE_MAX_BYTES bytes of UTF-8 (2 MiB unless the operator set otherwise) and PAGE_MAX_BLOCKS blocks (50,000): larger is a 413 (docs/content.md, "Limits")',
            }),
          ),
          document: Type.Optional(Type.Unknown({ description: 'Not accepted: send markdown' })),
        },
        { additionalProperties: false, description: '{"markdown": "…"}' },
      ),
    ),
    into: Type.Optional(
      Type.Union([EntityId('ID of the parent page'), Type.Null()], {
        description: 'Parent page; null (on update) moves the page to the top level',
      }),
    ),
    at: Type.Optional(Type.Integer({ minimum: 0, description: 'Zero-based index among siblings' })),
    type: Type.Optional(
      Enum(['document', 'group', 'link'], 'Livery extension: the kind of page to insert'),
    ),
    target: Type.Optional(LinkTargetSchema),
  },
  { additionalProperties: false, title: 'ChangeRequestContentChange' },
);

export const UpdateContentSchema = Type.Object(
  { changes: Type.Array(ChangeSchema, { minItems: 1, maxItems: 50 }) },
  { additionalProperties: false, title: 'UpdateChangeRequestContent' },
);
export type UpdateContent = Static<typeof UpdateContentSchema>;

export const MergeResultSchema = Type.Object({
  revision: Type.String({ description: 'ID of the resulting revision' }),
  result: Enum(['merge']),
});
export const UpdateResultSchema = Type.Object({
  revision: Type.String({ description: 'ID of the resulting revision' }),
  result: Enum(['update']),
});
