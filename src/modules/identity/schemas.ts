import { type Static, Type } from 'typebox';

const Timestamp = Type.String({ format: 'date-time' });
const Uri = Type.String({ format: 'uri' });

export const MEMBER_ROLES = ['admin', 'create', 'edit', 'review', 'comment', 'read'] as const;

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
    trial: Type.Object({ status: Type.String() }),
    urls: Type.Object({ location: Uri, app: Uri }),
    permissions: Type.Object({
      view: permission('Can the user view the organization'),
      admin: permission('Can the user manage the title, members, etc.'),
      ownTeam: permission('Is the user a team owner'),
      createContent: permission('Can the user create spaces and sites'),
      createOpenAPISpec: permission('Can the user create OpenAPI specifications'),
      ingestConversations: permission('Can the user ingest conversations'),
      viewBilling: permission('Can the user view billing details'),
      listMembers: permission('Can the user list the members'),
      listTeams: permission('Can the user list the teams'),
      listIntegrations: permission('Can the user list the integrations'),
    }),
  },
  { title: 'Organization' },
);
export type Organization = Static<typeof OrganizationSchema>;
