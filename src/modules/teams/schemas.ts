import { type Static, Type } from 'typebox';
import { Enum } from '../../http/schema-helpers.js';
import { MemberSchema } from '../members/schemas.js';

export const TEAM_ROLES = ['owner', 'member'] as const;
export const TeamRoleSchema = Enum(
  TEAM_ROLES,
  'owner: manages the team members; member: is a member of the team',
);
const TeamTitle = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Title of the team, unique in the organization (ignoring case)',
});

export const TeamSchema = Type.Object(
  {
    object: Type.Literal('team'),
    id: Type.String(),
    title: TeamTitle,
    members: Type.Integer({ description: 'Count of members in this team' }),
    spaces: Type.Number({
      description: 'Spaces the team has access to: Livery has no team grants yet (0)',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    permissions: Type.Object({
      admin: Type.Boolean({ description: 'Can the caller manage the team' }),
      view: Type.Boolean({ description: 'Can the caller view the team and its members' }),
    }),
  },
  { title: 'OrganizationTeam' },
);
export type Team = Static<typeof TeamSchema>;

export const TeamMemberSchema = Type.Object({ role: TeamRoleSchema }, { title: 'TeamMember' });

export const TeamMembershipSchema = Type.Object(
  {
    organization: MemberSchema,
    team: TeamMemberSchema,
    permissions: Type.Object({ view: Type.Boolean() }),
  },
  { title: 'OrganizationTeamMember' },
);

export const MemberTeamSchema = Type.Object({ team: TeamSchema, member: TeamMemberSchema });

export const CreateTeamSchema = Type.Object(
  {
    title: TeamTitle,
    members: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        maxItems: 1000,
        description: 'User ids of organization members to add (as members)',
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateOrganizationTeam' },
);
export type CreateTeam = Static<typeof CreateTeamSchema>;

export const UpdateTeamSchema = Type.Object(
  { title: TeamTitle },
  { additionalProperties: false, title: 'UpdateOrganizationTeam' },
);

const UserRef = Type.String({ minLength: 1, description: 'A user id or an email' });
export const UpdateTeamMembersSchema = Type.Object(
  {
    add: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
    memberships: Type.Optional(
      Type.Record(Type.String(), TeamMemberSchema, {
        description: 'Team roles by user id (or email), for members added or already there',
      }),
    ),
    remove: Type.Optional(Type.Array(UserRef, { maxItems: 1000 })),
  },
  { additionalProperties: false, title: 'UpdateMembersInOrganizationTeam' },
);
export type UpdateTeamMembers = Static<typeof UpdateTeamMembersSchema>;

export const AddTeamMemberSchema = Type.Object(
  { role: Type.Optional(TeamRoleSchema) },
  { additionalProperties: false, title: 'AddMemberToOrganizationTeam' },
);

export const ListTeamsQuery = Type.Object({
  owner: Type.Optional(
    Type.String({ description: 'A member id: only the teams they can manage (they own)' }),
  ),
  title: Type.Optional(
    Type.String({ maxLength: 256, description: 'Only teams whose title contains this, any case' }),
  ),
});
