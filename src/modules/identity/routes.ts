import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { OrgParams, responses } from '../../http/schemas.js';
import { memberRoleOf, principalOf } from '../access/permission-checks.js';
import { OrganizationSchema, UserSchema } from './schemas.js';
import type { IdentityService } from './service.js';

export const identityRoutes: FastifyPluginAsyncTypebox<{ identity: IdentityService }> = async (
  app,
  { identity },
) => {
  app.get(
    '/user',
    {
      schema: {
        operationId: 'getAuthenticatedUser',
        summary: 'Get profile of authenticated user',
        tags: ['users'],
        response: responses({ 200: UserSchema }),
      },
    },
    async (request) => identity.currentUser(principalOf(request).userId),
  );

  app.get(
    '/orgs',
    {
      schema: {
        operationId: 'listOrganizationsForAuthenticatedUser',
        summary: 'List the organizations the authenticated user is a member of',
        tags: ['organizations'],
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(OrganizationSchema) }, [400]),
      },
    },
    async (request) =>
      identity.listOrganizations(principalOf(request).userId, pageRequest(request.query)),
  );

  app.get(
    '/orgs/:organizationId',
    {
      schema: {
        operationId: 'getOrganizationById',
        summary: 'Get details about an organization',
        tags: ['organizations'],
        params: OrgParams,
        response: responses({ 200: OrganizationSchema }),
      },
    },
    async (request) =>
      identity.getOrganization(
        request.params.organizationId,
        principalOf(request).userId,
        memberRoleOf(request),
      ),
  );
};
