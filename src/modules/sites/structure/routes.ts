import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { created, responses, SiteParams } from '../../../http/schemas.js';
import { memberRoleOf } from '../../access/permission-checks.js';
import { actorOf } from '../../audit/actor.js';
import type { Caller } from '../service.js';
import { structureChangeRoutes } from './change-routes.js';
import type { SiteStructureChanges } from './changes-service.js';
import {
  AddExternalLinkToSiteSchema,
  AddSectionGroupToSiteSchema,
  AddSectionToSiteSchema,
  SiteExternalLinkSchema,
  SiteSectionGroupSchema,
  SiteSectionSchema,
  SiteStructureSchema,
} from './schemas.js';
import type { SiteStructureService } from './service.js';

const callerOf = (request: FastifyRequest): Caller => ({
  ...actorOf(request),
  role: memberRoleOf(request),
});

/** A site's structure: getSiteStructure and the additions (docs/sites.md, "Sections"). */
export const siteStructureRoutes: FastifyPluginAsyncTypebox<{
  structure: SiteStructureService;
  changes: SiteStructureChanges;
}> = async (app, { structure, changes }) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/structure',
    {
      schema: {
        operationId: 'getSiteStructure',
        summary: 'Get the structure of a site',
        description:
          "{type: 'sections'} with the site's sections, section groups and external links in order when it has sections (each section with its site-spaces), else {type: 'siteSpaces'} with its site-spaces.",
        tags: ['site-structure'],
        params: SiteParams,
        querystring: Type.Object({
          shareKey: Type.Optional(
            Type.String({ description: 'Accepted for compatibility; Livery does not need it' }),
          ),
        }),
        response: responses({ 200: SiteStructureSchema }, [400]),
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return structure.structure(organizationId, memberRoleOf(request), siteId);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/sections',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'addSectionToSite',
        summary: 'Add a section to a site',
        description:
          "A section with one site-space: spaceId's space, or a new space (spaceId null). Its path is derived from its title (title, else the space's). The first section of a site that has site-spaces first gathers them into a default section. siteSectionGroupId puts it in a group. template and pageId are not available in Livery.",
        tags: ['site-structure'],
        params: SiteParams,
        body: AddSectionToSiteSchema,
        response: responses(
          { 201: created(SiteSectionSchema, 'Section added to the site') },
          [400, 409, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const section = await structure.addSection(
        organizationId,
        siteId,
        request.body,
        callerOf(request),
      );
      return reply
        .code(201)
        .header('location', structure.location(organizationId, siteId, 'sections', section.id))
        .send(section);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/section-groups',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'addSectionGroupToSite',
        summary: 'Add a section group to a site',
        description:
          'The site must have sections. parent: a group at the root (groups nest one level). sections: sections of the site moved into the group, in that order. The group goes last among its siblings.',
        tags: ['site-structure'],
        params: SiteParams,
        body: AddSectionGroupToSiteSchema,
        response: responses(
          { 201: created(SiteSectionGroupSchema, 'Section group added to the site') },
          [400, 409, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const group = await structure.addGroup(
        organizationId,
        siteId,
        request.body,
        callerOf(request),
      );
      return reply
        .code(201)
        .header('location', structure.location(organizationId, siteId, 'section-groups', group.id))
        .send(group);
    },
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/external-links',
    {
      config: { idempotent: true },
      schema: {
        operationId: 'addExternalLinkToSite',
        summary: 'Add an external link to a site',
        description:
          'The site must have sections (400 otherwise). url: absolute http or https. parent: a section group of the site, else the root. condition accepts only null.',
        tags: ['site-structure'],
        params: SiteParams,
        body: AddExternalLinkToSiteSchema,
        response: responses(
          { 201: created(SiteExternalLinkSchema, 'External link added to the site') },
          [400, 409, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const link = await structure.addLink(organizationId, siteId, request.body, callerOf(request));
      return reply
        .code(201)
        .header('location', structure.location(organizationId, siteId, 'external-links', link.id))
        .send(link);
    },
  );
  await app.register(structureChangeRoutes, { changes });
};
