import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListSchema, PageQuery, pageRequest } from '../../http/pagination.js';
import { created, NoContent, responses } from '../../http/schemas.js';
import { principalOf } from '../access/permission-checks.js';
import { actorOf } from '../audit/actor.js';
import { ApiTokenSchema, CreateApiTokenSchema, CreatedApiTokenSchema } from './schemas.js';
import type { TokensService } from './tokens-service.js';

const DESCRIPTION =
  'Livery extension (GitBook issues tokens in its web app). Needs a token without scopes.';

/** The calling user's API tokens (Livery extension, tag `livery`). */
export const tokenRoutes: FastifyPluginAsyncTypebox<{ tokens: TokensService }> = async (
  app,
  { tokens },
) => {
  app.get(
    '/user/tokens',
    {
      schema: {
        operationId: 'listUserTokens',
        summary: 'List your API tokens',
        description: `${DESCRIPTION} Revoked and expired tokens are not listed; secrets never are.`,
        tags: ['livery'],
        querystring: Type.Object(PageQuery),
        response: responses({ 200: ListSchema(ApiTokenSchema) }, [400]),
      },
    },
    async (request) => tokens.list(principalOf(request).userId, pageRequest(request.query)),
  );

  app.post(
    '/user/tokens',
    {
      schema: {
        operationId: 'createUserToken',
        summary: 'Create an API token',
        description: `${DESCRIPTION} The secret is in this response only (only its hash is stored). Not idempotent: a replay would keep the secret.`,
        tags: ['livery'],
        body: CreateApiTokenSchema,
        response: responses(
          { 201: created(CreatedApiTokenSchema, 'The token, with its secret') },
          [400, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const token = await tokens.create(actorOf(request), request.body);
      return reply.code(201).header('location', token.urls.location).send(token);
    },
  );

  app.get(
    '/user/tokens/:tokenId',
    {
      schema: {
        operationId: 'getUserTokenById',
        summary: 'Get one of your API tokens',
        description: `${DESCRIPTION} Without its secret; a revoked, expired or another user's token is a 404.`,
        tags: ['livery'],
        params: Type.Object({ tokenId: Type.String({ description: 'The id of the token' }) }),
        response: responses({ 200: ApiTokenSchema }),
      },
    },
    async (request) => tokens.get(principalOf(request).userId, request.params.tokenId),
  );

  app.delete(
    '/user/tokens/:tokenId',
    {
      schema: {
        operationId: 'deleteUserTokenById',
        summary: 'Revoke an API token',
        description: `${DESCRIPTION} Revocation is immediate. Only your own tokens: another user's token id answers 204 like an unknown one.`,
        tags: ['livery'],
        params: Type.Object({ tokenId: Type.String({ description: 'The id of the token' }) }),
        response: responses({
          204: NoContent('No token of yours with this id (or already revoked)'),
          205: NoContent('The token has been revoked'),
        }),
      },
    },
    async (request, reply) => {
      const revoked = await tokens.revoke(actorOf(request), request.params.tokenId);
      return reply.code(revoked ? 205 : 204).send();
    },
  );
};
