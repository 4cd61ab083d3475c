import type { FastifyRequest } from 'fastify';
import { principalOf } from '../access/permission-checks.js';

/** Who made a change: the user, and the API token they used (every `/v1` write has one). */
export interface Actor {
  userId: string;
  tokenId: string | null;
}

/** The actor of an authenticated request. */
export function actorOf(request: FastifyRequest): Actor {
  const { userId, tokenId } = principalOf(request);
  return { userId, tokenId };
}

/** The actor as the API shows it: `token` only when a token made the change. */
export function actorView(userId: string, tokenId: string | null) {
  return tokenId === null ? { user: userId } : { user: userId, token: tokenId };
}
