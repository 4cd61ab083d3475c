import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { optionalBody } from '../../../http/optional-body.js';
import { ListSchema, PageQuery, pageRequest } from '../../../http/pagination.js';
import {
  created,
  NoContent,
  responses,
  SiteParams,
  SiteSpaceParams,
} from '../../../http/schemas.js';
import { memberRoleOf } from '../../access/permission-checks.js';
import { actorOf } from '../../audit/actor.js';
import { SiteSpaceSchema } from '../schemas.js';
import type { Caller } from '../service.js';
import type { SiteStructureChanges } from './changes-service.js';
import {
  DuplicateSiteSpaceSchema,
  MoveSiteSectionGroupSchema,
  MoveSiteSectionSchema,
  MoveSiteSpaceSchema,
  SiteExternalLinkSchema,
  SiteSectionGroupSchema,
  SiteSectionSchema,
  SiteStructureItemSchema,
  SortSiteStructureSchema,
  UpdateSiteExternalLinkSchema,
  UpdateSiteSectionGroupSchema,
  UpdateSiteSectionSchema,
} from './schemas.js';
import type { NodeKind } from './tree.js';

const callerOf = (request: FastifyRequest): Caller => ({
  ...actorOf(request),
  role: memberRoleOf(request),
});

const withId = (name: string, description: string) =>
  Type.Object({ ...SiteParams.properties, [name]: Type.String({ description }) });
const SectionParams = withId('siteSectionId', 'The unique id of the section within a site');
const GroupParams = withId('siteSectionGroupId', 'The unique id of the site group');
const LinkParams = withId('siteExternalLinkId', 'The unique ID of the site external link');

/** The three kinds of node, where their operations live, and their names in GitBook's API. */
const NODES: {
  kind: NodeKind;
  collection: string;
  param: string;
  params: TSchema;
  schema: TSchema;
  update: { operationId: string; body: TSchema; description: string };
  deleteOperationId: string;
  deleteDescription: string;
}[] = [
  {
    kind: 'site-section',
    collection: 'sections',
    param: 'siteSectionId',
    params: SectionParams,
    schema: SiteSectionSchema,
    update: {
      operationId: 'updateSiteSectionById',
      body: UpdateSiteSectionSchema,
      description:
        'path: unique in the site (409). defaultSiteSpace: a site-space of this section, not a draft. draft: not for the default section. siteSectionGroupId: into a group (last), null to the root. condition accepts only null. All or nothing.',
    },
    deleteOperationId: 'deleteSiteSectionById',
    deleteDescription:
      "Deletes the section with its site-spaces (their spaces remain). The default section's role goes to the first remaining section. The last section cannot be deleted while section groups or external links remain (400).",
  },
  {
    kind: 'site-section-group',
    collection: 'section-groups',
    param: 'siteSectionGroupId',
    params: GroupParams,
    schema: SiteSectionGroupSchema,
    update: {
      operationId: 'updateSiteSectionGroupById',
      body: UpdateSiteSectionGroupSchema,
      description:
        'parentSectionGroupId: into a root group (last), null to the root; groups nest one level and never into themselves (400). All or nothing.',
    },
    deleteOperationId: 'deleteSiteSectionGroupById',
    deleteDescription:
      'Deletes the group; what it held takes its place in its parent, in order (nothing it held is deleted).',
  },
  {
    kind: 'site-external-link',
    collection: 'external-links',
    param: 'siteExternalLinkId',
    params: LinkParams,
    schema: SiteExternalLinkSchema,
    update: {
      operationId: 'updateSiteExternalLinkById',
      body: UpdateSiteExternalLinkSchema,
      description:
        'url: absolute http or https. parent: into a group (last), null to the root. localizedTitle / localizedDescription null remove them. condition accepts only null. All or nothing.',
    },
    deleteOperationId: 'deleteSiteExternalLinkById',
    deleteDescription: 'Deletes the external link.',
  },
];

/** The listing, update, deletion, move and sort operations of a site's structure. */
export const structureChangeRoutes: FastifyPluginAsyncTypebox<{
  changes: SiteStructureChanges;
}> = async (app, { changes }) => {
  const base = '/orgs/:organizationId/sites/:siteId';
  const params = (request: FastifyRequest) => request.params as Record<string, string>;

  for (const [operationId, collection, summary, schema] of [
    ['listSiteSections', 'sections', 'List the sections of a site', SiteSectionSchema],
    [
      'listSiteSectionGroups',
      'section-groups',
      'List the section groups of a site',
      SiteSectionGroupSchema,
    ],
  ] as const) {
    app.get(
      `${base}/${collection}`,
      {
        schema: {
          operationId,
          summary,
          description: 'In reading order (through groups, a group before what it holds).',
          tags: ['site-structure'],
          params: SiteParams,
          querystring: Type.Object({
            ...PageQuery,
            ...(collection === 'sections'
              ? {
                  shareKey: Type.Optional(
                    Type.String({
                      description: 'Accepted for compatibility; Livery does not need it',
                    }),
                  ),
                }
              : {}),
          }),
          response: responses({ 200: ListSchema(schema) }, [400]),
        },
      },
      async (request) => {
        const { organizationId, siteId } = request.params;
        const page = pageRequest(request.query, 'integer');
        const role = memberRoleOf(request);
        return collection === 'sections'
          ? changes.listSections(organizationId, role, siteId, page)
          : changes.listGroups(organizationId, role, siteId, page);
      },
    );
  }

  for (const node of NODES) {
    app.patch(
      `${base}/${node.collection}/:${node.param}`,
      {
        schema: {
          operationId: node.update.operationId,
          summary: `Update a ${node.kind.replace('site-', 'site ').replaceAll('-', ' ')}`,
          description: node.update.description,
          tags: ['site-structure'],
          params: node.params,
          body: node.update.body,
          response: responses({ 200: node.schema }, [400, 409, 413, 415]),
        },
      },
      async (request) => {
        const p = params(request);
        const { organizationId = '', siteId = '' } = p;
        const id = p[node.param] ?? '';
        const caller = callerOf(request);
        const body = request.body as never;
        if (node.kind === 'site-section') {
          return changes.updateSection(organizationId, siteId, id, body, caller);
        }
        if (node.kind === 'site-section-group') {
          return changes.updateGroup(organizationId, siteId, id, body, caller);
        }
        return changes.updateLink(organizationId, siteId, id, body, caller);
      },
    );

    app.delete(
      `${base}/${node.collection}/:${node.param}`,
      {
        schema: {
          operationId: node.deleteOperationId,
          summary: `Delete a ${node.kind.replace('site-', 'site ').replaceAll('-', ' ')}`,
          description: node.deleteDescription,
          tags: ['site-structure'],
          params: node.params,
          response: responses(
            {
              204: NoContent(`The ${node.kind} did not exist`),
              205: NoContent(`The ${node.kind} has been deleted`),
            },
            [400],
          ),
        },
      },
      async (request, reply) => {
        const p = params(request);
        const existed = await changes.delete(
          p.organizationId ?? '',
          p.siteId ?? '',
          node.kind,
          p[node.param] ?? '',
          actorOf(request),
        );
        return reply.code(existed ? 205 : 204).send();
      },
    );
  }

  app.post(
    `${base}/sections/:siteSectionId/move`,
    {
      preValidation: optionalBody,
      schema: {
        operationId: 'moveSiteSection',
        summary: 'Move a site section',
        description:
          'Next to another section (joining its group), or last at the root without a position. 400 for an unknown reference, the section itself, or both before and after.',
        tags: ['site-structure'],
        params: SectionParams,
        body: MoveSiteSectionSchema,
        response: responses({ 200: SiteSectionSchema }, [400, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionId } = request.params as Record<string, string>;
      return changes.moveSection(
        organizationId ?? '',
        siteId ?? '',
        siteSectionId ?? '',
        request.body ?? {},
        callerOf(request),
      );
    },
  );

  app.post(
    `${base}/section-groups/:siteSectionGroupId/move`,
    {
      preValidation: optionalBody,
      schema: {
        operationId: 'moveSiteSectionGroup',
        summary: 'Move a site section group',
        description:
          'Next to a section or group (joining its parent), or last at the root. A move into itself or its own group, or a third level of groups, is a 400.',
        tags: ['site-structure'],
        params: GroupParams,
        body: MoveSiteSectionGroupSchema,
        response: responses({ 200: SiteSectionGroupSchema }, [400, 413, 415]),
      },
    },
    async (request) => {
      const p = request.params as Record<string, string>;
      return changes.moveGroup(
        p.organizationId ?? '',
        p.siteId ?? '',
        p.siteSectionGroupId ?? '',
        request.body ?? {},
        callerOf(request),
      );
    },
  );

  app.post(
    `${base}/site-spaces/:siteSpaceId/move`,
    {
      preValidation: optionalBody,
      schema: {
        operationId: 'moveSiteSpace',
        summary: 'Move a site space',
        description:
          'Next to another site-space (joining its section: 409 when its path is taken there; 400 when it would leave its own section empty), or last in its section without a position. A default that leaves its section hands the default to the first remaining site-space.',
        tags: ['site-spaces'],
        params: SiteSpaceParams,
        body: MoveSiteSpaceSchema,
        response: responses({ 200: SiteSpaceSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return changes.moveSiteSpace(
        organizationId,
        siteId,
        siteSpaceId,
        request.body ?? {},
        callerOf(request),
      );
    },
  );

  app.post(
    `${base}/site-spaces/:siteSpaceId/duplicate`,
    {
      preValidation: optionalBody,
      config: { idempotent: true },
      schema: {
        operationId: 'duplicateSiteSpace',
        summary: 'Duplicate a site space',
        description:
          'A copy of its space (current pages, files, reusable content) in a new site-space right after it, in the same section, "(copy)" in the titles and "-copy" in the path; its customization override is copied too. draft: the copy is a draft.',
        tags: ['site-spaces'],
        params: SiteSpaceParams,
        body: DuplicateSiteSpaceSchema,
        response: responses(
          { 201: created(SiteSpaceSchema, 'Space duplicated in the site structure') },
          [400, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const copy = await changes.duplicateSiteSpace(
        organizationId,
        siteId,
        siteSpaceId,
        request.body ?? {},
        callerOf(request),
      );
      return reply.code(201).header('location', copy.urls.location).send(copy);
    },
  );

  app.patch(
    `${base}/structure/sort`,
    {
      schema: {
        operationId: 'sortSiteStructure',
        summary: 'Move an item of the site structure',
        description:
          'item: a site-space, section, section group or external link; position: before or after an item of the same level (site-spaces among site-spaces, the others among each other), {} for last. Answers the moved item.',
        tags: ['site-structure'],
        params: SiteParams,
        body: SortSiteStructureSchema,
        response: responses({ 200: SiteStructureItemSchema }, [400, 409, 413, 415]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return changes.sort(organizationId, siteId, request.body, callerOf(request));
    },
  );
};
