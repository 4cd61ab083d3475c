import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { optionalBody } from '../../http/optional-body.js';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, OrgParams, responses, SpaceParams } from '../../http/schemas.js';
import type { Urls } from '../../urls.js';
import { memberRoleOf, principalOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import { setRendererCache, spaceTag } from '../revalidation/cache-headers.js';
import type { SpaceKeyedScope } from '../sites/scope.js';
import type { SitesService } from '../sites/service.js';
import type { SpaceLifecycle } from './lifecycle.js';
import { spaceLifecycleRoutes } from './lifecycle-routes.js';
import { CreateSpaceSchema, MemberSpaceSchema, SpaceSchema, UpdateSpaceSchema } from './schemas.js';
import type { SpacesService } from './service.js';

export const spacesRoutes: FastifyPluginAsyncTypebox<{
  spaces: SpacesService;
  lifecycle: SpaceLifecycle;
  sites: SitesService;
  spaceKeyed: SpaceKeyedScope;
  urls: Urls;
}> = async (app, { spaces, lifecycle, sites, spaceKeyed, urls }) => {
  app.post(
    '/orgs/:organizationId/spaces',
    {
      preValidation: optionalBody,
      config: { idempotent: true },
      schema: {
        operationId: 'createSpace',
        summary: 'Create a space',
        tags: ['spaces'],
        params: OrgParams,
        body: CreateSpaceSchema,
        response: responses({ 201: created(SpaceSchema, 'Space created') }, [400, 413, 415]),
      },
    },
    async (request, reply) => {
      const space = await spaces.create(
        request.params.organizationId,
        memberRoleOf(request),
        request.body,
      );
      return reply.code(201).header('location', space.urls.location).send(space);
    },
  );

  // Removed by the changelog: every method answers 410 with the replacements in Link headers.
  const gone = () => {
    const byOrganization = `${urls.organization('%7BorganizationId%7D')}/spaces`;
    const byUser = `${urls.user('%7BuserId%7D')}/spaces`;
    throw new AppError(
      410,
      '/v1/owners/{ownerId}/spaces was removed: list spaces with GET /v1/orgs/{organizationId}/spaces or GET /v1/users/{userId}/spaces',
      {
        link: `<${byOrganization}>; rel="successor-version", <${byUser}>; rel="successor-version"`,
      },
    );
  };
  const OwnerParams = Type.Object({ ownerId: Type.String() });
  app.get(
    '/owners/:ownerId/spaces',
    {
      schema: {
        operationId: 'listSpacesForOwner',
        summary: 'Removed: list spaces of an owner',
        description:
          'Removed by the changelog. Every method answers 410 Gone, with Link headers (rel="successor-version") to listSpacesInOrganizationById and listSpacesForUser.',
        deprecated: true,
        tags: ['spaces', 'livery'],
        params: OwnerParams,
        response: responses({}, [410]),
      },
    },
    gone,
  );
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/owners/:ownerId/spaces',
    // The other methods: the same removed operation, not listed again in OpenAPI.
    schema: { hide: true, operationId: 'listSpacesForOwner', params: OwnerParams },
    handler: gone,
  });

  app.get(
    '/orgs/:organizationId/spaces',
    {
      schema: {
        operationId: 'listSpacesInOrganizationById',
        summary: 'List all spaces',
        description:
          "The organization's spaces, oldest first. Replaces /v1/owners/{ownerId}/spaces.",
        tags: ['spaces'],
        params: OrgParams,
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(SpaceSchema) }, [400]),
      },
    },
    async (request) =>
      spaces.listInOrganization(
        request.params.organizationId,
        memberRoleOf(request),
        pageRequest(request.query),
      ),
  );

  app.get(
    '/users/:userId/spaces',
    {
      schema: {
        operationId: 'listSpacesForUser',
        summary: 'List the spaces a user can access',
        description:
          "Livery extension named by the changelog (GitBook's specs do not have it); replaces /v1/owners/{ownerId}/spaces. The spaces the user can access in the organizations the caller shares with them, each with the user's role there as `permission`. `me` is the caller. A user who shares no organization with the caller is a 404.",
        tags: ['spaces', 'livery'],
        params: Type.Object({
          userId: Type.String({ description: 'The unique id of the user, or `me`' }),
        }),
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(MemberSpaceSchema) }, [400]),
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const target = request.params.userId === 'me' ? userId : request.params.userId;
      return spaces.listForUser(userId, target, pageRequest(request.query));
    },
  );

  app.delete(
    '/spaces/:spaceId',
    {
      config: { absentIsNoContent: true },
      schema: {
        operationId: 'deleteSpaceById',
        summary: 'Delete a space',
        description:
          'Puts the space in the trash (205): from then on nobody reads it, and restoreSpace brings it back within 7 days; after that it is purged with its revisions, change requests, files and insights. A space that a site shows is a 409 naming the site: remove it from the site first. A space that does not exist, is already deleted, or is of an organization the caller is not a member of, is a 204: nothing tells them apart.',
        tags: ['spaces'],
        params: SpaceParams,
        response: responses(
          {
            204: NoContent('Space did not exist'),
            205: NoContent('Space has been deleted'),
          },
          [409],
        ),
      },
    },
    async (request, reply) =>
      reply
        .code((await lifecycle.delete(request.params.spaceId, actorOf(request))) ? 205 : 204)
        .send(),
  );
  await app.register(spaceLifecycleRoutes, { lifecycle });

  app.get(
    '/spaces/:spaceId',
    {
      schema: {
        operationId: 'getSpaceById',
        summary: 'Get a space by its ID',
        tags: ['spaces'],
        params: SpaceParams,
        querystring: Type.Object({
          shareKey: Type.Optional(
            Type.String({ description: 'Accepted for compatibility; Livery does not need it' }),
          ),
        }),
        response: responses({ 200: SpaceSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { spaceId } = request.params;
      const space =
        request.siteToken === null
          ? await spaces.get(principalOf(request).userId, spaceId)
          : await spaces.getPublished(spaceId);
      setRendererCache(reply, { tags: [spaceTag(space.id)] });
      return space;
    },
  );

  app.patch(
    '/spaces/:spaceId',
    {
      schema: {
        operationId: 'updateSpaceById',
        summary: 'Update a space',
        description:
          'Updates title, emoji or icon (setting one removes the other; null removes it) and language; defaultLevel, editMode and mergeRules accept only what Livery is (inherit, live, {type: inherit}). The deprecated fields visibility and published change the one site showing the space (409 when none or several do); answers to requests using them carry Deprecation and Link headers (docs/deprecations.md).',
        tags: ['spaces'],
        params: SpaceParams,
        body: UpdateSpaceSchema,
        response: responses({ 200: SpaceSchema }, [400, 409, 413, 415]),
      },
      onSend: async (request, reply, payload) => {
        if (usesSiteFields(request.body)) await spaceKeyed.markAnswer(request, reply);
        return payload;
      },
    },
    async (request) => {
      const { visibility, published, ...own } = request.body;
      const { userId } = principalOf(request);
      // A refused field refuses the whole request, before the site changes.
      spaces.checkUpdate(own);
      if (visibility !== undefined || published !== undefined) {
        const { organizationId, siteId, role } = await spaceKeyed.target(request);
        await sites.update(
          organizationId,
          siteId,
          {
            ...(visibility === undefined ? {} : { visibility }),
            ...(published === undefined ? {} : { published }),
          },
          { ...actorOf(request), role },
        );
      }
      return Object.keys(own).length === 0
        ? spaces.get(userId, request.params.spaceId)
        : spaces.update(userId, request.params.spaceId, own);
    },
  );
};

function usesSiteFields(body: unknown): boolean {
  return typeof body === 'object' && body !== null && ('visibility' in body || 'published' in body);
}
