/**
 * The one error vocabulary of Livery. Services throw these; the HTTP error handler turns them into
 * GitBook's envelope `{"error":{"code":<status>,"message":"…"}}` with the same status.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra response headers (e.g. `WWW-Authenticate`, `ETag` on a 412). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);

export const notFound = (resource: string, id: string) =>
  new AppError(404, `No ${resource} found with id ${JSON.stringify(id)}`);

export const conflict = (message: string) => new AppError(409, message);

/** A member (or token) without the right: the message names the role or scope needed. */
export const forbidden = (message: string) => new AppError(403, message);

export const preconditionFailed = (currentEtag: string) =>
  new AppError(
    412,
    `If-Match does not match the current version of this resource (its ETag is now ${currentEtag}); read it again and retry`,
    { etag: currentEtag },
  );

const REALM = 'Bearer realm="livery"';

export const missingCredentials = (message: string) =>
  new AppError(401, message, { 'www-authenticate': REALM });

export const invalidToken = (message = 'The API token is unknown, expired or has been revoked') =>
  new AppError(401, message, { 'www-authenticate': `${REALM}, error="invalid_token"` });
