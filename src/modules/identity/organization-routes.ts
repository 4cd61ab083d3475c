import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { created, OrgParams, responses } from '../../http/schemas.js';
import { GitBookShapes, unsupportedField } from '../../unsupported-inputs.js';
import type { Urls } from '../../urls.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import { ORGANIZATION_INPUTS as I } from './organization-inputs.js';
import type { OrganizationsService } from './organizations.js';
import { MemberRoleSchema, OrganizationSchema } from './schemas.js';

/** GitBook's OrganizationTitle. */
const OrganizationTitle = Type.String({
  minLength: 2,
  maxLength: 255,
  pattern: '\\S.*\\S',
  description: 'Name of the organization',
});

const strings = Type.Array(Type.String(), { maxItems: 100 });
const nullableObject = Type.Unsafe<object | null>({ type: ['object', 'null'] });

const CreateOrganizationSchema = Type.Object(
  {
    title: OrganizationTitle,
    emailDomains: unsupportedField(I.emailDomains, strings),
    onboardingPreferences: unsupportedField(I.onboardingPreferences, GitBookShapes.object),
  },
  { additionalProperties: false, title: 'CreateOrganization' },
);

const UpdateOrganizationSchema = Type.Object(
  {
    title: Type.Optional(OrganizationTitle),
    emailDomains: unsupportedField(I.emailDomains, strings),
    hostname: unsupportedField(I.hostname, Type.String({ minLength: 3, maxLength: 32 })),
    defaultRole: unsupportedField(
      I.defaultRole,
      Type.Unsafe<string | null>({ anyOf: [MemberRoleSchema, { type: 'null' }] }),
    ),
    defaultContent: unsupportedField(I.defaultContent, nullableObject),
    logo: unsupportedField(I.logo, GitBookShapes.nullableString),
    sso: unsupportedField(I.sso, Type.Boolean()),
    ai: unsupportedField(I.ai, Type.Boolean()),
    inviteLinks: unsupportedField(I.inviteLinks, Type.Boolean()),
    mergeRules: unsupportedField(I.mergeRules, GitBookShapes.object),
  },
  { additionalProperties: false, title: 'UpdateOrganization' },
);

export const organizationRoutes: FastifyPluginAsyncTypebox<{
  organizations: OrganizationsService;
  urls: Urls;
}> = async (app, { organizations, urls }) => {
  app.post(
    '/orgs',
    {
      schema: {
        operationId: 'createOrganization',
        summary: 'Create an organization',
        description:
          'The caller becomes its admin. Only a user who is an admin of at least one organization of this server may create one (docs/members.md).',
        tags: ['organizations'],
        querystring: Type.Object({
          withDefaultSite: Type.Optional(
            Type.Boolean({ description: 'Livery creates no default site: only false is accepted' }),
          ),
          openapiUrl: Type.Optional(
            Type.String({ description: 'Livery has no OpenAPI specifications: it cannot be set' }),
          ),
        }),
        body: CreateOrganizationSchema,
        response: responses(
          { 201: created(OrganizationSchema, 'The organization') },
          [400, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const organization = await organizations.create(
        actorOf(request),
        request.body,
        request.query,
      );
      return reply
        .code(201)
        .header('location', urls.organization(organization.id))
        .send(organization);
    },
  );

  app.patch(
    '/orgs/:organizationId',
    {
      schema: {
        operationId: 'updateOrganizationById',
        summary: 'Update an organization',
        description:
          'Admins only. Livery stores the title; the other fields of GitBook accept only the value true of Livery (docs/members.md).',
        tags: ['organizations'],
        params: OrgParams,
        body: UpdateOrganizationSchema,
        response: responses({ 200: OrganizationSchema }, [400, 413, 415]),
      },
    },
    async (request) =>
      organizations.update(
        request.params.organizationId,
        actorOf(request),
        memberRoleOf(request),
        request.body,
      ),
  );
};
