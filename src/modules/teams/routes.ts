import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, OrgParams, responses } from '../../http/schemas.js';
import type { Urls } from '../../urls.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import {
  AddTeamMemberSchema,
  CreateTeamSchema,
  ListTeamsQuery,
  MemberTeamSchema,
  TeamMembershipSchema,
  TeamSchema,
  UpdateTeamMembersSchema,
  UpdateTeamSchema,
} from './schemas.js';
import type { Caller, TeamsService } from './service.js';

const TeamParams = Type.Object({
  ...OrgParams.properties,
  teamId: Type.String({ description: 'The unique id of the team' }),
});
const TeamMemberParams = Type.Object({
  ...TeamParams.properties,
  userId: Type.String({ description: 'The unique ID of the User' }),
});
const tags = ['teams'];
const callerOf = (request: FastifyRequest): Caller => ({
  ...actorOf(request),
  role: memberRoleOf(request),
});

export const teamsRoutes: FastifyPluginAsyncTypebox<{ teams: TeamsService; urls: Urls }> = async (
  app,
  { teams, urls },
) => {
  const base = '/orgs/:organizationId/teams';

  app.get(
    base,
    {
      schema: {
        operationId: 'listTeamsInOrganizationById',
        summary: 'List all teams',
        tags,
        params: OrgParams,
        querystring: Type.Object({ ...PageQuery, ...ListTeamsQuery.properties }),
        response: responses({ 200: ListSchema(TeamSchema) }, [400]),
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      const { organizationId } = request.params;
      return teams.list(organizationId, callerOf(request), filters, pageRequest({ page, limit }));
    },
  );

  app.put(
    base,
    {
      schema: {
        operationId: 'createOrganizationTeam',
        summary: 'Create a team',
        description:
          'Teams are created with PUT (GitBook). title: 1 to 64 characters, unique in the organization ignoring case (409). members: user ids of organization members.',
        tags,
        params: OrgParams,
        body: CreateTeamSchema,
        response: responses({ 201: created(TeamSchema, 'The team') }, [400, 409, 413, 415]),
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const team = await teams.create(organizationId, callerOf(request), request.body);
      return reply.code(201).header('location', urls.team(organizationId, team.id)).send(team);
    },
  );

  app.get(
    `${base}/:teamId`,
    {
      schema: {
        operationId: 'getTeamInOrganizationById',
        summary: 'Get a team by its ID',
        tags,
        params: TeamParams,
        response: responses({ 200: TeamSchema }),
      },
    },
    async (request) =>
      teams.get(request.params.organizationId, callerOf(request), request.params.teamId),
  );

  app.patch(
    `${base}/:teamId`,
    {
      schema: {
        operationId: 'updateTeamInOrganizationById',
        summary: 'Update a team',
        tags,
        params: TeamParams,
        body: UpdateTeamSchema,
        response: responses({ 200: TeamSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      return teams.rename(organizationId, callerOf(request), teamId, request.body.title);
    },
  );

  app.delete(
    `${base}/:teamId`,
    {
      schema: {
        operationId: 'removeTeamFromOrganizationById',
        summary: 'Delete a team',
        tags,
        params: TeamParams,
        response: responses({
          204: NoContent('The team did not exist in the organization.'),
          205: NoContent('The team was deleted from the organization.'),
        }),
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      const deleted = await teams.delete(organizationId, callerOf(request), teamId);
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  app.get(
    `${base}/:teamId/members`,
    {
      schema: {
        operationId: 'listTeamMembersInOrganizationById',
        summary: 'List team members',
        tags,
        params: TeamParams,
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(TeamMembershipSchema) }, [400]),
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      return teams.listMembers(organizationId, teamId, pageRequest(request.query));
    },
  );

  app.put(
    `${base}/:teamId/members`,
    {
      schema: {
        operationId: 'updateMembersInOrganizationTeam',
        summary: 'Update members of a team',
        description:
          'Adds (add), sets team roles (memberships) and removes (remove) members, all or nothing; users by id or email, each a member of the organization (400 naming the entry). A user both added and removed is removed. Organization admins and the team owners may.',
        tags,
        params: TeamParams,
        body: UpdateTeamMembersSchema,
        response: responses({ 204: NoContent('Members updated') }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      await teams.updateMembers(organizationId, callerOf(request), teamId, request.body);
      return reply.code(204).send();
    },
  );

  app.put(
    `${base}/:teamId/members/:userId`,
    {
      preValidation: async (request) => {
        // The body is optional (GitBook's client sends none).
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: {
        operationId: 'addMemberToOrganizationTeamById',
        summary: 'Add or update a team member',
        description: 'role: owner or member (default member; an existing member keeps theirs).',
        tags,
        params: TeamMemberParams,
        body: AddTeamMemberSchema,
        response: responses({ 204: NoContent('Member added or updated') }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      const caller = callerOf(request);
      await teams.addMember(organizationId, caller, teamId, userId, request.body.role);
      return reply.code(204).send();
    },
  );

  app.delete(
    `${base}/:teamId/members/:userId`,
    {
      schema: {
        operationId: 'deleteMemberFromOrganizationTeamById',
        summary: 'Remove a team member',
        tags,
        params: TeamMemberParams,
        response: responses({
          204: NoContent('Member was not part of the team'),
          205: NoContent('Member has been deleted from the team'),
        }),
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      const removed = await teams.removeMember(organizationId, callerOf(request), teamId, userId);
      return reply.code(removed ? 205 : 204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/teams',
    {
      schema: {
        operationId: 'listTeamsForOrganizationMember',
        summary: 'List all organization member teams',
        tags: ['organization-members'],
        params: Type.Object({
          ...OrgParams.properties,
          userId: Type.String({ description: 'The unique ID of the User' }),
        }),
        querystring: Type.Object({
          ...PageQuery,
          title: Type.Optional(Type.String({ maxLength: 256 })),
        }),
        response: responses({ 200: ListSchema(MemberTeamSchema) }, [400]),
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const { page, limit, title } = request.query;
      return teams.teamsOf(
        organizationId,
        callerOf(request),
        userId,
        title,
        pageRequest({ page, limit }),
      );
    },
  );
};
