import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { sendAtEndOfTurn } from '../../http/coalesce-writes.js';
import {
  ifMatch,
  ifNoneMatchHits,
  sendRepresentation,
  setValidators,
} from '../../http/conditional.js';
import { markDeprecated } from '../../http/deprecation.js';
import { NoContent, responses, SiteParams, SiteSpaceParams } from '../../http/schemas.js';
import {
  OverridePatchSchema,
  SettingsInputSchema,
  SettingsSchema,
} from '../../settings/settings-schema.js';
import type { Urls } from '../../urls.js';
import type { Representation } from '../../versioned.js';
import { actorOf } from '../audit/actor.js';
import type { CustomizationService } from './service.js';

const GET_DEPRECATION =
  'Deprecated by GitBook in favour of the internal operation getRawCustomizationSettingsById, which is not part of this interface; Livery keeps it working. See /docs/deprecations.';

const UnmaskedQuery = Type.Object({
  unmasked: Type.Optional(
    Type.Boolean({
      deprecated: true,
      description:
        '(Deprecated) Accepted for compatibility; Livery never masks settings, so it changes nothing.',
    }),
  ),
});

const IfMatch = Type.Object({
  'if-match': Type.Optional(
    Type.String({ description: 'Apply only if the current ETag matches (else 412)' }),
  ),
});
const IfNoneMatch = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: 'Answer 304 if the current ETag matches' }),
  ),
});

export const customizationRoutes: FastifyPluginAsyncTypebox<{
  customization: CustomizationService;
  urls: Urls;
}> = async (app, { customization, urls }) => {
  /** Both reads are deprecated and answer 304 to a matching If-None-Match. */
  const sendRead = (
    request: FastifyRequest,
    reply: FastifyReply,
    representation: Representation,
  ) => {
    markDeprecated(reply, urls.deprecations());
    if (ifNoneMatchHits(request.headers['if-none-match'], representation.etag)) {
      return setValidators(reply, representation).code(304).send();
    }
    return sendRepresentation(reply, representation);
  };

  const site = '/orgs/:organizationId/sites/:siteId/customization';
  const variant = '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization';

  app.get(
    site,
    {
      schema: {
        operationId: 'getSiteCustomizationById',
        summary: 'Get a site customization settings',
        description: `The site's settings; a site never customized answers the complete defaults. ${GET_DEPRECATION}`,
        tags: ['site-customization'],
        deprecated: true,
        params: SiteParams,
        querystring: UnmaskedQuery,
        headers: IfNoneMatch,
        response: responses({ 200: SettingsSchema, 304: NoContent('Not modified') }, [400]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      return sendRead(request, reply, await customization.getSite(organizationId, siteId));
    },
  );

  app.put(
    site,
    {
      schema: {
        operationId: 'updateSiteCustomizationById',
        summary: 'Update a site customization settings',
        description:
          'Full replacement: fields left out, or null, take their defaults. Accepts bodies of GitBook 0.130 and 0.202 alike (pageActions as {items} or {externalAI, markdown}; docs/customization.md). Answers the complete stored settings.',
        tags: ['site-customization'],
        params: SiteParams,
        headers: IfMatch,
        body: SettingsInputSchema,
        response: responses({ 200: SettingsSchema }, [400, 412, 413, 415]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const representation = await customization.putSite(
        organizationId,
        siteId,
        request.body,
        ifMatch(request.headers['if-match']),
        actorOf(request),
      );
      return sendRepresentation(reply, representation);
    },
  );

  app.get(
    variant,
    {
      schema: {
        operationId: 'getSiteSpaceCustomizationById',
        summary: 'Get a site space customization settings',
        description: `The effective settings of the variant: the site's settings with the variant's override applied. ${GET_DEPRECATION}`,
        tags: ['site-customization'],
        deprecated: true,
        params: SiteSpaceParams,
        querystring: UnmaskedQuery,
        headers: IfNoneMatch,
        response: responses({ 200: SettingsSchema, 304: NoContent('Not modified') }, [400]),
      },
    },
    // Not async: a variant kept in memory is answered without a promise (the hot read), with
    // the other answers of this event-loop turn (http/coalesce-writes.ts).
    (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const kept = customization.peekVariant(organizationId, siteId, siteSpaceId);
      if (kept !== undefined) {
        sendAtEndOfTurn(reply, () => sendRead(request, reply, kept));
        return; // the reply is this handler's: Fastify sends nothing more
      }
      return customization
        .getVariant(organizationId, siteId, siteSpaceId)
        .then((representation) => sendRead(request, reply, representation));
    },
  );

  app.get(
    `${variant}/override`,
    {
      schema: {
        operationId: 'getSiteSpaceCustomizationOverride',
        summary: "A site space's stored override itself",
        description:
          "Livery extension. The fields the variant overrides, exactly as stored (`{}` when it overrides none), with the variant's ETag: the one PATCH and DELETE take in If-Match. Livery Studio reads it to tell inherited fields from overridden ones.",
        tags: ['site-customization', 'livery'],
        params: SiteSpaceParams,
        response: responses(
          {
            200: Type.Object({
              override: Type.Unsafe<Record<string, unknown>>(OverridePatchSchema),
            }),
          },
          [400],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const { override, etag } = await customization.getOverride(
        organizationId,
        siteId,
        siteSpaceId,
      );
      return reply.header('etag', etag).header('cache-control', 'no-cache').send({ override });
    },
  );

  app.patch(
    variant,
    {
      schema: {
        operationId: 'overrideSiteSpaceCustomizationById',
        summary: 'Override a site space customization settings',
        description:
          "Merges the body into the variant's stored override: absent fields are unchanged, groups merge field by field, other values replace whole, null removes the field from the override (title: null unsets the title). Every settings field but ai, advancedCustomization and insights may be overridden. Answers the new effective settings.",
        tags: ['site-customization'],
        params: SiteSpaceParams,
        headers: IfMatch,
        body: OverridePatchSchema,
        response: responses({ 200: SettingsSchema }, [400, 412, 413, 415]),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const representation = await customization.patchVariant(
        organizationId,
        siteId,
        siteSpaceId,
        request.body,
        ifMatch(request.headers['if-match']),
        actorOf(request),
      );
      return sendRepresentation(reply, representation);
    },
  );

  app.delete(
    variant,
    {
      schema: {
        operationId: 'deleteSiteSpaceCustomizationById',
        summary: 'Delete a site space customization settings',
        description: "Removes the variant's override, so it shows the site's settings again.",
        tags: ['site-customization'],
        params: SiteSpaceParams,
        headers: IfMatch,
        response: responses(
          {
            204: NoContent('Customization settings did not exist'),
            205: NoContent('Site space customization removed'),
          },
          [412],
        ),
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const { existed } = await customization.deleteOverride(
        organizationId,
        siteId,
        siteSpaceId,
        ifMatch(request.headers['if-match']),
        actorOf(request),
      );
      return reply.code(existed ? 205 : 204).send();
    },
  );
};
