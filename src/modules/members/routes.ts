import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { NoContent, OrgParams, responses } from '../../http/schemas.js';
import { principalOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import { UserSchema } from '../identity/schemas.js';
import { MemberSpaceSchema } from '../spaces/schemas.js';
import { ListMembersQuery, MemberSchema, UpdateMemberSchema } from './schemas.js';
import type { MembersService } from './service.js';

const MemberParams = Type.Object({
  ...OrgParams.properties,
  userId: Type.String({ description: 'The unique ID of the User' }),
});
const tags = ['organization-members'];

export const membersRoutes: FastifyPluginAsyncTypebox<{ members: MembersService }> = async (
  app,
  { members },
) => {
  app.get(
    '/orgs/:organizationId/members',
    {
      schema: {
        operationId: 'listMembersInOrganizationById',
        summary: 'List all organization members',
        tags,
        params: OrgParams,
        querystring: Type.Object({ ...PageQuery, ...ListMembersQuery.properties }),
        response: responses({ 200: ListSchema(MemberSchema) }, [400]),
      },
    },
    async (request) => {
      const { page, limit, ...filters } = request.query;
      return members.list(request.params.organizationId, filters, pageRequest({ page, limit }));
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'getMemberInOrganizationById',
        summary: 'Get an organization member by its ID',
        tags,
        params: MemberParams,
        response: responses({ 200: MemberSchema }),
      },
    },
    async (request) => members.get(request.params.organizationId, request.params.userId),
  );

  app.patch(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'updateMemberInOrganizationById',
        summary: 'Update an organization member',
        description:
          'role: a member role, or null to make the member a guest. Demoting the last admin is a 409.',
        tags,
        params: MemberParams,
        body: UpdateMemberSchema,
        response: responses({ 200: MemberSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) =>
      members.update(
        request.params.organizationId,
        request.params.userId,
        request.body,
        actorOf(request),
      ),
  );

  app.delete(
    '/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'removeMemberFromOrganizationById',
        summary: 'Delete an organization member',
        description:
          "Ends the membership only: the user's tokens keep working in their other organizations. Removing the last admin is a 409.",
        tags,
        params: MemberParams,
        response: responses(
          {
            204: NoContent('Member did not exist in the organization.'),
            205: NoContent('The member was deleted from the organization.'),
          },
          [409],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, userId } = request.params;
      const removed = await members.remove(organizationId, userId, actorOf(request));
      return reply.code(removed ? 205 : 204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      schema: {
        operationId: 'listSpacesForOrganizationMember',
        summary: 'List an organization member space permissions',
        description:
          "The organization's spaces the member can access, with the member's permission (their organization role; guests: none).",
        tags,
        params: MemberParams,
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(MemberSpaceSchema) }, [400]),
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      return members.spacesOf(organizationId, userId, pageRequest(request.query));
    },
  );

  app.get(
    '/users/:userId',
    {
      schema: {
        operationId: 'getUserById',
        summary: 'Get a user by its ID',
        description: 'Any user who shares an organization with the caller; others are a 404.',
        tags: ['users'],
        params: Type.Object({ userId: Type.String({ description: 'The unique ID of the User' }) }),
        response: responses({ 200: UserSchema }),
      },
    },
    async (request) => members.getUser(principalOf(request).userId, request.params.userId),
  );
};
