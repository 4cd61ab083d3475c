import type { FastifyRequest } from 'fastify';
import { forbidden, invalidToken } from '../../errors.js';
import type { NamedResources, SiteTokenGate } from '../site-tokens/gate.js';
import {
  type SiteTokenClaims,
  SiteTokenRefused,
  type SiteTokens,
} from '../site-tokens/site-token.js';
import type { Permission } from './permissions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the bearer is a site token (modules/site-tokens): the site it opens. */
    siteToken: SiteTokenClaims | null;
  }
}

export interface SiteTokenAuth {
  tokens: SiteTokens;
  gate: SiteTokenGate;
}

/**
 * Meant as a site token: a JWT's JSON header (`eyJ`) and a dot. API tokens (`gb_…`) never look
 * like one. Whether it is one, exactly (three canonical segments, nothing more), is for
 * SiteTokens.verify to say: anything else is its 401.
 */
export const looksLikeSiteToken = (token: string) => token.startsWith('eyJ') && token.includes('.');

/**
 * A site token as the bearer: valid and unexpired (401 otherwise), for an operation the
 * permission table opens to site tokens (403 otherwise: it can write nothing, read no member or
 * token data), naming only what its site shows (404 otherwise, site-tokens/gate.ts).
 */
export async function authenticateSiteToken(
  request: FastifyRequest,
  token: string,
  permission: Permission | undefined,
  auth: SiteTokenAuth,
): Promise<void> {
  let claims: SiteTokenClaims;
  try {
    claims = await auth.tokens.verify(token);
  } catch (error) {
    if (error instanceof SiteTokenRefused) throw refused(error.message);
    throw error;
  }
  if (permission?.siteToken !== true) {
    const operation = (request.routeOptions.schema as { operationId?: string } | undefined)
      ?.operationId;
    throw forbidden(
      `${operation} cannot be called with a site token: it reads only its published site`,
    );
  }
  try {
    await auth.gate.authorize(claims, request.params as NamedResources);
  } catch (error) {
    if (error instanceof SiteTokenRefused) throw refused(error.message);
    throw error;
  }
  request.siteToken = claims;
}

const refused = (why: string) =>
  invalidToken(`The site token is refused: ${why}; look the URL up again`);
