import { type Static, type TSchema, Type } from 'typebox';

/** GitBook's error body, used by every error response of every route. */
const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer({ description: 'The HTTP status code' }),
      message: Type.String({ description: 'What went wrong, naming the offending field if any' }),
    }),
  },
  { title: 'Error' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request: the message names the offending field and the rule',
  401: 'Unauthorized: missing, malformed, unknown, expired or revoked API token',
  403: 'Forbidden: your role or your token scopes do not allow this operation (docs/permissions.md); the message names the role or scope needed',
  404: 'Not Found (also for resources of an organization the caller is not a member of)',
  409: 'Conflict',
  410: 'Gone: the invite was used, expired or disabled',
  412: 'Precondition Failed: If-Match does not match the current ETag',
  413: 'Payload Too Large: bodies are limited to 1 MiB',
  415: 'Unsupported Media Type: bodies must be JSON',
  500: 'Internal server error (details are in the server log under the request id)',
};

/** Errors every authenticated route can answer. */
const AUTHENTICATED = [401, 403, 404, 500];

/**
 * A route's `response` map: its success bodies plus the error responses it can give, so the
 * OpenAPI document lists them and the serializer knows their shape.
 */
export function responses(
  success: Record<number, TSchema>,
  errors: number[] = [],
): Record<number, TSchema> {
  const all: Record<number, TSchema> = { ...success };
  for (const status of new Set([...AUTHENTICATED, ...errors])) {
    all[status] = Type.Object(ErrorSchema.properties, {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
    });
  }
  return all;
}

/** A 201 response: the created object, with the `Location` of its API URL. */
export function created<T extends TSchema>(schema: T, description: string) {
  return Type.Unsafe<Static<T>>({
    ...schema,
    description,
    headers: {
      location: { type: 'string', format: 'uri', description: 'API URL of the created object' },
    },
  });
}

/** A response with no body (204/205), documented with its meaning. */
export const NoContent = (description: string) => Type.Null({ description });

export const OrgParams = Type.Object({
  organizationId: Type.String({ description: 'The unique id of the organization' }),
});
export const SiteParams = Type.Object({
  organizationId: Type.String({ description: 'The unique id of the organization' }),
  siteId: Type.String({ description: 'The unique id of the site' }),
});
export const SpaceParams = Type.Object({
  spaceId: Type.String({ description: 'The unique id of the space' }),
});
export const SiteSpaceParams = Type.Object({
  organizationId: Type.String({ description: 'The unique id of the organization' }),
  siteId: Type.String({ description: 'The unique id of the site' }),
  siteSpaceId: Type.String({ description: 'The unique id of the site-space relationship' }),
});
