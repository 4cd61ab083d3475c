import type { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { badRequest } from '../../errors.js';
import { type StorageService, UPLOAD_SEGMENT } from './service.js';

const PATH = `/s/${UPLOAD_SEGMENT}/:token`;

/**
 * The upload URLs generateStorageUploadURL hands out (docs/uploads.md): `PUT
 * {PUBLIC_URL}@livery/uploads/{token}` with the file's bytes as the body, as to a cloud
 * bucket's signed URL. The token is the credential (no cookie, no API token), so any origin may
 * PUT (`Access-Control-Allow-Origin: *`): the studio's, when PUBLIC_URL is another origin. The
 * token, the Content-Type and the Content-Length are checked before the body is read, and the
 * body is never read past the declared size.
 */
export const uploadRoutes: FastifyPluginAsync<{ storage: StorageService }> = async (
  app,
  { storage },
) => {
  // Any body, as a stream: the service checks its type and the handler bounds its length.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.addHook('onSend', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store');
  });

  app.options(PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'PUT')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '600')
      .send(),
  );

  app.put(PATH, { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const length = request.headers['content-length'];
    const upload = await storage.begin(
      token,
      request.headers['content-type'],
      length === undefined ? undefined : Number(length),
    );
    const data = await readAtMost(request.body as Readable | undefined, upload.size);
    const object = await storage.finish(upload, data);
    return reply.code(200).send({
      key: object.key,
      name: object.name,
      contentType: object.contentType,
      size: object.size,
      url: object.url,
    });
  });
};

/** The body, read up to one byte past `limit` (enough to tell it is too long), never more. */
async function readAtMost(body: Readable | undefined, limit: number): Promise<Buffer> {
  if (body === undefined) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      chunks.push(buffer);
      total += buffer.length;
      if (total > limit) break;
    }
  } catch {
    throw badRequest('The body ended before it was complete');
  }
  return Buffer.concat(chunks, total).subarray(0, Math.min(total, limit + 1));
}
