import { type Static, Type } from 'typebox';
import { Enum, OrNull } from '../../http/schema-helpers.js';
import { TRANSLATION_LANGUAGES } from '../../settings/vocabulary.js';
import { GitBookShapes, unsupportedField } from '../../unsupported-inputs.js';
import { GitSyncStateSchema } from '../git-sync/schemas.js';
import { MemberRoleSchema } from '../identity/schemas.js';
import { SiteVisibilitySchema } from './site-visibility.js';
import { SPACE_INPUTS } from './unsupported.js';

const Timestamp = Type.String({ format: 'date-time' });
const Uri = Type.String({ format: 'uri' });
const flag = (description: string) => Type.Boolean({ description });

export const SpaceSchema = Type.Object(
  {
    object: Type.Literal('space'),
    id: Type.String(),
    title: Type.String({ maxLength: 50 }),
    emoji: Type.String({ description: 'An emoji for this space; empty when none was chosen' }),
    icon: Type.Optional(
      Type.String({
        format: 'uri',
        description:
          "The space's icon (an absolute URL), when it has one instead of an emoji. Livery extension: GitBook's Space has no such field, though updateSpaceById sets it",
      }),
    ),
    visibility: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    editMode: Type.String(),
    urls: Type.Object({ location: Uri, app: Uri, published: Type.Optional(Uri) }),
    organization: Type.String({ description: 'ID of the organization owning this space' }),
    revision: Type.String({ description: 'ID of the active revision in the space' }),
    defaultLevel: Type.String(),
    mergeRules: Type.Object(
      { type: Type.Literal('inherit') },
      {
        description:
          'Livery has no merge rules per space: the organization\'s apply (none), so always {"type": "inherit"}',
      },
    ),
    language: Type.Optional(
      Type.String({
        description:
          'The language set by createSpace or updateSpaceById; else the internationalization.locale of the site-spaces showing the space, when they agree on one; absent otherwise',
      }),
    ),
    gitSync: Type.Optional(GitSyncStateSchema),
    comments: Type.Number(),
    changeRequests: Type.Number(),
    changeRequestsOpen: Type.Number(),
    changeRequestsDraft: Type.Number(),
    permissions: Type.Object({
      view: flag('Can the user view the space content'),
      access: flag('Can the user access the space (Livery has no separate app: as view)'),
      admin: flag('Can the user manage the space (delete it)'),
      viewInviteLinks: flag('Livery has no invite links per space: always false'),
      edit: flag('Can the user edit the content through a change request'),
      triggerGitSync: flag('Can the user import the space from a Git repository'),
      comment: flag('Livery has no comments: always false'),
      merge: flag('Can the user merge change requests'),
      review: flag('Livery has no reviews (change requests merge without them): always false'),
      installIntegration: flag('Livery has no integrations: always false'),
    }),
  },
  { title: 'Space' },
);
export type Space = Static<typeof SpaceSchema>;

const EditMode = Enum(['live', 'locked']);
const Language = Enum(
  TRANSLATION_LANGUAGES,
  "The space's language (GitBook's TranslationLanguage)",
);

export const CreateSpaceSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 50 })),
    emoji: Type.Optional(Type.String({ format: 'emoji', maxLength: 50 })),
    language: Type.Optional(Language),
    editMode: unsupportedField(SPACE_INPUTS.editMode, EditMode),
    parent: unsupportedField(SPACE_INPUTS.parent, Type.String()),
    template: unsupportedField(SPACE_INPUTS.template, GitBookShapes.object),
    computedSource: unsupportedField(SPACE_INPUTS.computedSource, GitBookShapes.object),
    empty: Type.Optional(
      Type.Literal(true, {
        description: 'Every new space is empty (one empty revision): accepted, changes nothing',
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateSpace' },
);
export type CreateSpace = Static<typeof CreateSpaceSchema>;

/**
 * updateSpaceById. `visibility` and `published` are the deprecated space-keyed way to change the
 * site showing the space (docs/deprecations.md); the rest are the space's own fields.
 */
export const UpdateSpaceSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 50, description: 'Title of the space' })),
    emoji: Type.Optional(
      OrNull(
        Type.String({
          format: 'emoji',
          maxLength: 50,
          description: 'Replaces the icon, if any; null removes the emoji',
        }),
      ),
    ),
    icon: Type.Optional(
      OrNull(
        Type.String({
          format: 'uri',
          pattern: '^[hH][tT][tT][pP][sS]?://',
          maxLength: 2048,
          description:
            'An absolute http(s) URL of an icon, which replaces the emoji; null removes it. Not together with an emoji',
        }),
      ),
    ),
    language: Type.Optional(Language),
    editMode: unsupportedField(SPACE_INPUTS.editMode, EditMode),
    defaultLevel: unsupportedField(SPACE_INPUTS.defaultLevel, GitBookShapes.defaultLevel),
    mergeRules: unsupportedField(SPACE_INPUTS.mergeRules, GitBookShapes.object),
    visibility: Type.Optional(
      Type.Unsafe<Static<typeof SiteVisibilitySchema>>({
        ...SiteVisibilitySchema,
        deprecated: true,
        description:
          '(Deprecated) Changes the visibility of the one site showing this space (409 when none or several do); use updateSiteById',
      }),
    ),
    published: Type.Optional(
      Type.Boolean({
        deprecated: true,
        description:
          '(Deprecated) Publishes or unpublishes the one site showing this space (409 when none or several do); use publishSite / unpublishSite',
      }),
    ),
  },
  { additionalProperties: false, title: 'UpdateSpace' },
);
export type UpdateSpace = Static<typeof UpdateSpaceSchema>;
export type SpaceUpdate = Omit<UpdateSpace, 'visibility' | 'published'>;

/** A space with a user's role where it is (listSpacesForUser, listSpacesForOrganizationMember). */
export const MemberSpaceSchema = Type.Object(
  {
    permission: MemberRoleSchema,
    space: SpaceSchema,
  },
  { title: 'MemberContentPermission' },
);

const SpacePointerSchema = Type.Object(
  {
    type: Type.Literal('space'),
    space: Type.String({ description: 'Unique identifier for the space' }),
  },
  { additionalProperties: false, title: 'SpacePointer' },
);
const CollectionPointerSchema = Type.Object(
  {
    type: Type.Literal('collection'),
    collection: Type.String({
      description: 'Unique identifier for the collection (Livery has none: a 400)',
    }),
  },
  { additionalProperties: false, title: 'CollectionPointer' },
);
const ContentPointer = Type.Union([SpacePointerSchema, CollectionPointerSchema]);

/** moveSpace's body, GitBook 0.202's: a parent collection and a position, at least one. */
export const MoveSpaceSchema = Type.Object(
  {
    parent: Type.Optional(
      OrNull(
        Type.String({
          description:
            'The unique id of the parent collection. Livery has no collections: only null (the top level of the organization) is accepted',
        }),
      ),
    ),
    position: Type.Optional(
      Type.Object(
        { before: Type.Optional(ContentPointer), after: Type.Optional(ContentPointer) },
        {
          additionalProperties: false,
          title: 'ContentPosition',
          description:
            'Where to move the space: before or after a space of the same organization. Livery lists spaces by creation, so no position changes anything (a 409)',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1, title: 'MoveSpace' },
);
export type MoveSpace = Static<typeof MoveSpaceSchema>;
