import { type Static, Type } from 'typebox';
import { OrNull } from '../../http/schema-helpers.js';
import { MemberRoleSchema, UserSchema } from '../identity/schemas.js';

const Role = OrNull(MemberRoleSchema);
const Email = Type.String({ minLength: 3, maxLength: 254, description: 'An email address' });

export const InviteUsersSchema = Type.Object(
  {
    emails: Type.Array(
      Type.Union([
        Email,
        Type.Object({ email: Email, role: Role }, { additionalProperties: false }),
      ]),
      { minItems: 1, maxItems: 100 },
    ),
    role: Type.Optional(Role),
    sso: Type.Optional(Type.Boolean({ description: 'Livery has no SSO: only false is accepted' })),
  },
  { additionalProperties: false, title: 'InviteUsersToOrganization' },
);
export type InviteUsers = Static<typeof InviteUsersSchema>;

export const EmailInviteSchema = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  email: Type.String(),
  role: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.String({ format: 'date-time' }),
  urls: Type.Object({
    accept: Type.String({
      format: 'uri',
      description: 'POST here (joinOrganizationWithInvite) with the invited user’s token',
    }),
  }),
});

export const InviteUsersResultSchema = Type.Object(
  {
    users: Type.Array(Type.String(), {
      description: 'Users added at once: always empty (invites are accepted by the invited)',
    }),
    invited: Type.Number({ description: 'How many invites were created' }),
    invites: Type.Array(EmailInviteSchema, {
      description: 'Livery extension: the pending invites (no mail is sent; hand these over)',
    }),
  },
  { title: 'InviteUsersToOrganizationResult' },
);

export const LinkInviteSchema = Type.Object(
  {
    object: Type.Literal('invite'),
    id: Type.String(),
    role: Type.Union([Type.String(), Type.Null()], { description: 'null: guest' }),
    redundant: Type.Boolean({
      description: 'The caller already has at least this role in the organization',
    }),
    enabled: Type.Boolean({ description: 'Livery extension: a disabled link joins nobody' }),
    urls: Type.Object({
      accept: Type.String({ format: 'uri', description: 'POST here to join' }),
    }),
  },
  { title: 'InviteLinkToOrganization' },
);
export type LinkInvite = Static<typeof LinkInviteSchema>;

export const CreateLinkInviteSchema = Type.Object(
  { role: Role },
  { additionalProperties: false, title: 'CreateInviteToOrganization' },
);

export const UpdateLinkInviteSchema = Type.Object(
  {
    role: Type.Optional(Role),
    enabled: Type.Optional(Type.Boolean({ description: 'Livery extension' })),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateOrganizationInvite' },
);
export type UpdateLinkInvite = Static<typeof UpdateLinkInviteSchema>;

export const CreateUserSchema = Type.Object(
  {
    displayName: Type.String({ minLength: 1, maxLength: 100 }),
    email: Type.Optional(Email),
    organizationId: Type.String({ minLength: 1, description: 'The organization to join' }),
    inviteId: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'An invite of that organization: then no token is needed',
      }),
    ),
    role: Type.Optional(Role),
  },
  { additionalProperties: false, title: 'CreateUser' },
);
export type CreateUser = Static<typeof CreateUserSchema>;

export const CreatedUserSchema = Type.Object(
  {
    user: UserSchema,
    organization: Type.String(),
    tokenId: Type.String(),
    token: Type.String({ description: 'The new user’s first API token: shown only here' }),
  },
  { title: 'CreatedUser' },
);
