import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { ListSchema } from '../../http/pagination.js';
import { created, NoContent, OrgParams, responses } from '../../http/schemas.js';
import type { Urls } from '../../urls.js';
import { memberRoleOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import { CreateCustomFontSchema, CustomFontSchema, UpdateCustomFontSchema } from './schemas.js';
import type { Caller, CustomFontsService } from './service.js';

const tags = ['custom-fonts'];
const FontParams = Type.Object({
  ...OrgParams.properties,
  fontId: Type.String({ description: 'The unique ID of a font' }),
});
const callerOf = (request: FastifyRequest): Caller => ({
  ...actorOf(request),
  role: memberRoleOf(request),
});

/** A route's answers plus GitBook's 412 of a font without its regular face (not If-Match's). */
function withoutRegular(answers: Record<number, TSchema>): Record<number, TSchema> {
  const error = answers[400] as ReturnType<typeof Type.Object>;
  return {
    ...answers,
    412: Type.Object(error.properties, {
      description: 'Precondition Failed: the font would have no face of weight 400 (regular)',
    }),
  };
}

/** GitBook 0.202's custom-fonts operations (docs/customization.md, "Custom fonts"). */
export const customFontsRoutes: FastifyPluginAsyncTypebox<{
  fonts: CustomFontsService;
  urls: Urls;
}> = async (app, { fonts, urls }) => {
  const base = '/orgs/:organizationId/fonts';

  app.get(
    base,
    {
      schema: {
        operationId: 'listCustomFonts',
        summary: 'List all custom fonts',
        description: 'Every custom font of the organization, oldest first, on one page.',
        tags,
        params: OrgParams,
        response: responses({ 200: ListSchema(CustomFontSchema) }),
      },
    },
    async (request) => fonts.list(request.params.organizationId, callerOf(request)),
  );

  app.put(
    base,
    {
      schema: {
        operationId: 'createCustomFont',
        summary: 'Create a custom font',
        description:
          'A font family from files uploaded with generateStorageUploadURL (kind `customization_font`), one per weight. 412 without a weight 400 face; 400 naming the face whose storage key names no font file of the organization.',
        tags,
        params: OrgParams,
        body: CreateCustomFontSchema,
        response: withoutRegular(
          responses(
            { 201: created(CustomFontSchema, 'Custom font created') },
            [400, 409, 413, 415],
          ),
        ),
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const font = await fonts.create(organizationId, request.body, callerOf(request));
      return reply
        .code(201)
        .header('location', `${urls.organization(organizationId)}/fonts/${font.id}`)
        .send(font);
    },
  );

  app.get(
    `${base}/:fontId`,
    {
      schema: {
        operationId: 'getCustomFont',
        summary: 'Get a custom font by its ID',
        tags,
        params: FontParams,
        response: responses({ 200: CustomFontSchema }),
      },
    },
    async (request) => {
      const { organizationId, fontId } = request.params;
      return fonts.get(organizationId, fontId, callerOf(request));
    },
  );

  app.post(
    `${base}/:fontId`,
    {
      schema: {
        operationId: 'updateCustomFont',
        summary: 'Update a custom font',
        description:
          'Renames the family and adds, replaces (by weight) or removes (`storageKey: null`) faces; 412 when no weight 400 face would remain. Sites keep the definition they were given until chosen again (docs/customization.md).',
        tags,
        params: FontParams,
        body: UpdateCustomFontSchema,
        response: withoutRegular(
          responses({ 201: created(CustomFontSchema, 'The font as updated') }, [400, 413, 415]),
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, fontId } = request.params;
      const font = await fonts.update(organizationId, fontId, request.body, callerOf(request));
      // GitBook 0.202 answers its update with 201; Livery's 201s all say where the object is.
      return reply
        .code(201)
        .header('location', `${urls.organization(organizationId)}/fonts/${font.id}`)
        .send(font);
    },
  );

  app.delete(
    `${base}/:fontId`,
    {
      schema: {
        operationId: 'deleteCustomFont',
        summary: 'Delete a custom font',
        description:
          '205 when deleted, 204 when there was no such font; 409 naming the sites whose customization uses it.',
        tags,
        params: FontParams,
        response: responses(
          {
            204: NoContent('Font did not exist'),
            205: NoContent('Custom font deleted'),
          },
          [409],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, fontId } = request.params;
      const existed = await fonts.delete(organizationId, fontId, callerOf(request));
      return reply.code(existed ? 205 : 204).send();
    },
  );
};
