import { type Static, Type } from 'typebox';
import { Enum, OrNull } from '../customization/schema-kit.js';
import { SiteVisibilitySchema } from '../sites/visibility.js';

const Timestamp = Type.String({ format: 'date-time' });
const Uri = Type.String({ format: 'uri' });
const flag = (description: string) => Type.Boolean({ description });

export const SpaceSchema = Type.Object(
  {
    object: Type.Literal('space'),
    id: Type.String(),
    title: Type.String({ maxLength: 50 }),
    emoji: Type.String({ description: 'An emoji for this space; empty when none was chosen' }),
    visibility: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    editMode: Type.String(),
    urls: Type.Object({ location: Uri, app: Uri, published: Type.Optional(Uri) }),
    organization: Type.String({ description: 'ID of the organization owning this space' }),
    revision: Type.String({ description: 'ID of the active revision in the space' }),
    defaultLevel: Type.String(),
    comments: Type.Number(),
    changeRequests: Type.Number(),
    changeRequestsOpen: Type.Number(),
    changeRequestsDraft: Type.Number(),
    permissions: Type.Object({
      view: flag('Can the user view the space content'),
      access: flag('Can the user access the space'),
      admin: flag('Can the user manage the space'),
      viewInviteLinks: flag('Can the user view the invite links of the space'),
      edit: flag('Can the user edit the content through a change request'),
      triggerGitSync: flag('Can the user trigger a git sync'),
      comment: flag('Can the user comment on the content'),
      merge: flag('Can the user merge change requests'),
      review: flag('Can the user review change requests'),
    }),
  },
  { title: 'Space' },
);
export type Space = Static<typeof SpaceSchema>;

export const CreateSpaceSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 50 })),
    emoji: Type.Optional(Type.String({ format: 'emoji', maxLength: 50 })),
    editMode: Type.Optional(Enum(['live', 'locked'])),
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
      OrNull(Type.String({ format: 'emoji', maxLength: 50, description: 'null removes it' })),
    ),
    editMode: Type.Optional(Enum(['live', 'locked'])),
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
export type SpaceUpdate = Pick<UpdateSpace, 'title' | 'emoji' | 'editMode'>;
