import type { FastifyReply } from 'fastify';

/**
 * Sends JSON text as it is: Fastify does not run the route's serializer on a string. For large
 * answers whose shape the schema describes only loosely (page trees, content analytics), where
 * the schema-compiled serializer is several times slower than JSON.stringify, or where the text
 * was rendered once and kept; or its UTF-8 bytes (a page's document, made on a worker thread).
 */
export function sendJsonText(reply: FastifyReply, text: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
