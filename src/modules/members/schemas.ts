import { type Static, Type } from 'typebox';
import { Enum, OrNull } from '../../http/schema-helpers.js';
import { MEMBER_ROLES, MemberRoleSchema, UserSchema } from '../identity/schemas.js';

const Timestamp = Type.String({ format: 'date-time' });

export const MemberSchema = Type.Object(
  {
    object: Type.Literal('member'),
    id: Type.String({ description: 'The user id' }),
    role: Type.Union([Type.String(), Type.Null()], { description: 'null for guests' }),
    user: UserSchema,
    disabled: Type.Boolean(),
    joinedAt: Timestamp,
    lastSeenAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "The last use of one of the user's API tokens (recorded once a minute)",
      }),
    ),
    sso: Type.Boolean({ description: 'Livery has no SSO: always false' }),
    spaces: Type.Number({ description: 'Spaces of the organization the member can access' }),
    teams: Type.Number({ description: 'Teams of the organization the member belongs to' }),
    sites: Type.Number({
      description:
        'Sites of the organization the member can access: all of them for a role, none for a guest',
    }),
  },
  { title: 'OrganizationMember' },
);
export type Member = Static<typeof MemberSchema>;

export const UpdateMemberSchema = Type.Object(
  { role: Type.Optional(OrNull(MemberRoleSchema)) },
  { additionalProperties: false, title: 'UpdateMember' },
);
export type UpdateMember = Static<typeof UpdateMemberSchema>;

export const ListMembersQuery = Type.Object({
  role: Type.Optional(Enum([...MEMBER_ROLES, 'guest'], 'Only members with this role')),
  search: Type.Optional(
    Type.String({ maxLength: 256, description: 'Only members whose name or email contains this' }),
  ),
  sort: Type.Optional(
    Enum(
      ['joinedAt', 'lastSeenAt'],
      'joinedAt (default), or lastSeenAt: then only members seen at least once are listed',
    ),
  ),
  order: Type.Optional(Enum(['asc', 'desc'], 'desc by default')),
});
export type MemberFilters = Static<typeof ListMembersQuery>;
