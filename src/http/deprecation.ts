import type { FastifyReply } from 'fastify';

/**
 * RFC 9745 `Deprecation` (a structured-field date: when the operation became deprecated) and the
 * RFC 8288 link to the explanation, plus the operation that replaces it when there is one. The
 * date is GitBook's 0.130.0 API release, the version whose deprecations Livery reproduces.
 */
export const DEPRECATED_SINCE = '@1753833600'; // 2025-07-30T00:00:00Z

export function markDeprecated(
  reply: FastifyReply,
  explanationUrl: string,
  successorUrl?: string,
): FastifyReply {
  const links = [`<${explanationUrl}>; rel="deprecation"; type="text/markdown"`];
  if (successorUrl !== undefined) links.push(`<${successorUrl}>; rel="successor-version"`);
  return reply
    .header('deprecation', DEPRECATED_SINCE)
    .header('link', links.length === 1 ? links[0] : links);
}
