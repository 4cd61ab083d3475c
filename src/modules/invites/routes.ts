import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../errors.js';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, OrgParams, responses } from '../../http/schemas.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import type { IdentityService } from '../identity/service.js';
import {
  CreatedUserSchema,
  CreateLinkInviteSchema,
  CreateUserSchema,
  InviteUsersResultSchema,
  InviteUsersSchema,
  LinkInviteSchema,
  UpdateLinkInviteSchema,
} from './schemas.js';
import type { InvitesService } from './service.js';

const InviteParams = Type.Object({
  ...OrgParams.properties,
  inviteId: Type.String({ description: 'The unique id of the invite' }),
});
const tags = ['organization-invites'];

export const invitesRoutes: FastifyPluginAsyncTypebox<{
  invites: InvitesService;
  identity: IdentityService;
}> = async (app, { invites, identity }) => {
  app.post(
    '/orgs/:organizationId/invites',
    {
      schema: {
        operationId: 'inviteUsersToOrganization',
        summary: 'Invite users to an organization',
        description:
          'Creates pending email invites (Livery sends no mail): the answer lists each invite with its acceptance URL, to hand to the invited. An address of a member is a 409 naming it; an invalid one a 400 naming it.',
        tags,
        params: OrgParams,
        body: InviteUsersSchema,
        response: responses({ 200: InviteUsersResultSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) =>
      invites.inviteByEmail(request.params.organizationId, actorOf(request), request.body),
  );

  app.post(
    '/orgs/:organizationId/invites/:inviteId',
    {
      schema: {
        operationId: 'joinOrganizationWithInvite',
        summary: 'Join organization with an invite',
        description:
          'The caller (not yet a member) joins with the invite’s role. An email invite is single-use, expires and must match the caller’s email when they have one (403); used, expired or disabled → 410; already a member → 409.',
        tags,
        params: InviteParams,
        response: responses(
          {
            200: Type.Object({
              organization: Type.String(),
              role: Type.Union([Type.String(), Type.Null()]),
            }),
          },
          [400, 409, 410],
        ),
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const { userId, tokenId } = actorOf(request);
      return invites.join(organizationId, userId, inviteId, Date.now(), tokenId);
    },
  );

  const links = '/orgs/:organizationId/link-invites';
  app.get(
    links,
    {
      schema: {
        operationId: 'listOrganizationInviteLinks',
        summary: 'List invite links of an organization',
        tags,
        params: OrgParams,
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(LinkInviteSchema) }, [400]),
      },
    },
    async (request) =>
      invites.listLinks(
        request.params.organizationId,
        memberRoleOf(request),
        pageRequest(request.query),
      ),
  );

  app.post(
    links,
    {
      config: { idempotent: true },
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | null;
        for (const field of ['space', 'collection', 'level']) {
          if (body !== null && typeof body === 'object' && field in body) {
            throw badRequest(
              `body.${field}: Livery has invites to the organization only (body {role}); it has no permissions per space and no collections`,
            );
          }
        }
      },
      schema: {
        operationId: 'createOrganizationInvite',
        summary: 'Create an invite link',
        description:
          'Organization invites only ({role}; null = guest): space and collection invites are a 400, Livery has neither permissions per space nor collections.',
        tags,
        params: OrgParams,
        body: CreateLinkInviteSchema,
        response: responses({ 201: created(LinkInviteSchema, 'The invite link') }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const caller = { actor: actorOf(request), role: memberRoleOf(request) };
      const link = await invites.createLink(organizationId, caller, request.body.role);
      return reply
        .code(201)
        .header('location', invites.linkLocation(organizationId, link.id))
        .send(link);
    },
  );

  app.get(
    `${links}/:inviteId`,
    {
      schema: {
        operationId: 'getOrganizationInviteLink',
        summary: 'Get an invite link',
        tags,
        params: InviteParams,
        response: responses({ 200: LinkInviteSchema }),
      },
    },
    async (request) =>
      invites.getLink(
        request.params.organizationId,
        memberRoleOf(request),
        request.params.inviteId,
      ),
  );

  app.patch(
    `${links}/:inviteId`,
    {
      schema: {
        operationId: 'updateOrganizationInviteById',
        summary: 'Update an invite link',
        description: 'role (null = guest) and/or enabled (Livery extension).',
        tags,
        params: InviteParams,
        body: UpdateLinkInviteSchema,
        response: responses({ 200: LinkInviteSchema }, [400, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const caller = { actor: actorOf(request), role: memberRoleOf(request) };
      return invites.updateLink(organizationId, caller, inviteId, request.body);
    },
  );

  app.delete(
    `${links}/:inviteId`,
    {
      schema: {
        operationId: 'deleteOrganizationInviteById',
        summary: 'Delete an invite link',
        tags,
        params: InviteParams,
        response: responses({
          204: NoContent('Organization invite did not exist'),
          205: NoContent('The organization invite has been deleted'),
        }),
      },
    },
    async (request, reply) => {
      const { organizationId, inviteId } = request.params;
      const deleted = await invites.deleteLink(organizationId, inviteId, actorOf(request));
      return reply.code(deleted ? 205 : 204).send();
    },
  );

  app.post(
    '/users',
    {
      schema: {
        operationId: 'createUser',
        summary: 'Create a user (Livery extension)',
        description:
          'With inviteId: no token needed; the new user joins through the invite (an email invite needs the same email). Without: an admin of organizationId creates a member with role (default read). The answer holds the user’s first API token, shown only here.',
        tags: ['livery'],
        body: CreateUserSchema,
        response: responses(
          { 201: created(CreatedUserSchema, 'The user and their first token') },
          [400, 409, 410, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const caller = request.principal === null ? null : actorOf(request);
      const role =
        caller === null
          ? undefined
          : await identity
              .requireMember(caller.userId, request.body.organizationId)
              .catch(() => undefined);
      const result = await invites.createUser(request.body, caller, role);
      return reply.code(201).header('location', result.user.urls.location).send(result);
    },
  );
};
