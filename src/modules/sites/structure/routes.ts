import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
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

  /** An addition: POST …/{kind}, 201 with the new item and its Location (one shape, three kinds). */
  const addition = <B extends TSchema, R extends TSchema>(
    kind: 'sections' | 'section-groups' | 'external-links',
    doc: { operationId: string; summary: string; description: string; created: string },
    body: B,
    item: R,
    add: (
      organizationId: string,
      siteId: string,
      body: Static<B>,
      caller: Caller,
    ) => Promise<{ id: string }>,
  ) =>
    app.post(
      `/orgs/:organizationId/sites/:siteId/${kind}`,
      {
        config: { idempotent: true },
        schema: {
          operationId: doc.operationId,
          summary: doc.summary,
          description: doc.description,
          tags: ['site-structure'],
          params: SiteParams,
          body,
          response: responses({ 201: created(item, doc.created) }, [400, 409, 413, 415]),
        },
      },
      async (request, reply) => {
        const { organizationId, siteId } = request.params;
        // TypeBox cannot narrow a generic schema's Static; B is exactly the route's body schema.
        const added = await add(
          organizationId,
          siteId,
          request.body as Static<B>,
          callerOf(request),
        );
        return reply
          .code(201)
          .header('location', structure.location(organizationId, siteId, kind, added.id))
          .send(added);
      },
    );

  addition(
    'sections',
    {
      operationId: 'addSectionToSite',
      summary: 'Add a section to a site',
      description:
        "A section with one site-space: spaceId's space, or a new space (spaceId null). Its path is derived from its title (title, else the space's). The first section of a site that has site-spaces first gathers them into a default section. siteSectionGroupId puts it in a group. template and pageId are not available in Livery.",
      created: 'Section added to the site',
    },
    AddSectionToSiteSchema,
    SiteSectionSchema,
    (organizationId, siteId, body, caller) =>
      structure.addSection(organizationId, siteId, body, caller),
  );

  addition(
    'section-groups',
    {
      operationId: 'addSectionGroupToSite',
      summary: 'Add a section group to a site',
      description:
        'The site must have sections. parent: a group at the root (groups nest one level). sections: sections of the site moved into the group, in that order. The group goes last among its siblings.',
      created: 'Section group added to the site',
    },
    AddSectionGroupToSiteSchema,
    SiteSectionGroupSchema,
    (organizationId, siteId, body, caller) =>
      structure.addGroup(organizationId, siteId, body, caller),
  );

  addition(
    'external-links',
    {
      operationId: 'addExternalLinkToSite',
      summary: 'Add an external link to a site',
      description:
        'The site must have sections (400 otherwise). url: absolute http or https. parent: a section group of the site, else the root. condition accepts only null.',
      created: 'External link added to the site',
    },
    AddExternalLinkToSiteSchema,
    SiteExternalLinkSchema,
    (organizationId, siteId, body, caller) =>
      structure.addLink(organizationId, siteId, body, caller),
  );
  await app.register(structureChangeRoutes, { changes });
};
