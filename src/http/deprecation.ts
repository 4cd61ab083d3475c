import type { FastifyReply } from 'fastify';

/**
 * RFC 9745 `Deprecation` (a structured-field date: when the operation became deprecated) and the
 * RFC 8288 link to the explanation. The date is GitBook's 0.130.0 API release, the version whose
 * deprecation of these operations Livery reproduces.
 */
export const DEPRECATED_SINCE = '@1753833600'; // 2025-07-30T00:00:00Z

export function markDeprecated(reply: FastifyReply, explanationUrl: string): FastifyReply {
  return reply
    .header('deprecation', DEPRECATED_SINCE)
    .header('link', `<${explanationUrl}>; rel="deprecation"; type="text/markdown"`);
}
