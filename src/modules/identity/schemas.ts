import { type Static, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { SCOPES } from '../access/permissions.js';

const Timestamp = Type.String({ format: 'date-time' });
const Uri = Type.String({ format: 'uri' });

export const MEMBER_ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'] as const;

export const MemberRoleSchema = Enum(
  MEMBER_ROLES,
  'admin: manages everything; create: creates content; review: reviews; edit: edits; comment: comments; read: reads',
);

export const UserSchema = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String(),
    displayName: Type.String(),
    email: Type.Optional(Type.String()),
    photoURL: Type.Optional(Type.String()),
    urls: Type.Object({ location: Uri }),
  },
  { title: 'User' },
);
export type User = Static<typeof UserSchema>;

const permission = (description: string) => Type.Boolean({ description });

export const OrganizationSchema = Type.Object(
  {
    object: Type.Literal('organization'),
    id: Type.String(),
    title: Type.String({ minLength: 2, maxLength: 255 }),
    createdAt: Timestamp,
    plan: Type.String({ description: 'Livery has no billing: always "free"' }),
    type: Type.Union([Type.Literal('business'), Type.Literal('community')]),
    inviteLinks: Type.Boolean(),
    emailDomains: Type.Array(Type.String()),
    mergeRules: Type.Object(
      { type: Type.Literal('none') },
      {
        description:
          'Livery has no merge rules: a change request is merged without review, so always {"type": "none"}',
      },
    ),
    trial: Type.Object({
      status: Type.String(),
      count: Type.Integer({ description: 'Livery has no billing, so no trials: always 0' }),
    }),
    urls: Type.Object({ location: Uri, app: Uri }),
    permissions: Type.Object({
      view: permission('Can the user view the organization'),
      access: permission('Can the user open the organization (Livery has no separate app)'),
      admin: permission('Can the user manage the title, members, etc.'),
      ownTeam: permission('Does the user own a team of the organization'),
      createContent: permission('Can the user create spaces and sites'),
      createOpenAPISpec: permission('Livery has no OpenAPI specifications: always false'),
      ingestConversations: permission('Livery has no conversations: always false'),
      viewBilling: permission('Livery has no billing: always false'),
      listMembers: permission('Can the user list the members'),
      listTeams: permission('Can the user list the teams'),
      listIntegrations: permission('Livery has no integrations: always false'),
      listInstallations: permission('Livery has no integrations: always false'),
      installIntegration: permission('Livery has no integrations: always false'),
    }),
  },
  { title: 'Organization' },
);
export type Organization = Static<typeof OrganizationSchema>;

const TokenFields = {
  object: Type.Literal('api-token'),
  id: Type.String(),
  label: Type.Optional(Type.String()),
  scopes: Type.Optional(
    Type.Array(Type.String(), { description: 'Absent: all of the user’s rights' }),
  ),
  createdAt: Timestamp,
  expiresAt: Type.Optional(Timestamp),
  lastUsedAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'Recorded at most once a minute' }),
  ),
  urls: Type.Object({ location: Uri }),
};

export const ApiTokenSchema = Type.Object(TokenFields, {
  title: 'ApiToken',
  description: 'An API token of the calling user (Livery extension), without its secret',
});
export type ApiToken = Static<typeof ApiTokenSchema>;

export const CreatedApiTokenSchema = Type.Object(
  {
    ...TokenFields,
    token: Type.String({ description: 'The secret: shown in this response only' }),
  },
  { title: 'CreatedApiToken' },
);

export const CreateApiTokenSchema = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 50, description: 'What the token is for' }),
    scopes: Type.Optional(
      Type.Array(Enum(SCOPES), {
        minItems: 1,
        uniqueItems: true,
        description:
          'Restrict the token to these scopes (docs/permissions.md); leave out for all of your rights',
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'A future time; absent: never expires' }),
    ),
  },
  { additionalProperties: false, title: 'CreateApiToken' },
);
export type CreateApiToken = Static<typeof CreateApiTokenSchema>;
