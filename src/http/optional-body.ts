import type { FastifyRequest } from 'fastify';

/**
 * `preValidation` hook for operations whose body is optional in GitBook's API (createSite,
 * createSpace): a request without a body is validated as `{}`.
 */
export async function optionalBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
