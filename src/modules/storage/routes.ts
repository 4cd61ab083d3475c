import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { created, OrgParams, responses } from '../../http/schemas.js';
import { principalOf } from '../access/permission-checks.js';
import { GenerateUploadUrlSchema, StorageUploadUrlSchema } from './schemas.js';
import type { StorageService } from './service.js';

/** `POST /orgs/{organizationId}/storage/upload` (GitBook 0.202's storage tag; docs/uploads.md). */
export const storageRoutes: FastifyPluginAsyncTypebox<{ storage: StorageService }> = async (
  app,
  { storage },
) => {
  app.post(
    '/orgs/:organizationId/storage/upload',
    {
      schema: {
        operationId: 'generateStorageUploadURL',
        summary: 'Create a signed URL to upload a file',
        description:
          "Generate a pre-signed URL that can be used to upload a file to storage. PUT the file's bytes to `url` within 15 minutes, once, with `Content-Type` the declared `file.type`; the bytes must be `file.size` long and what the type says (checked by their content). Types and sizes by `kind`: docs/uploads.md.",
        tags: ['storage'],
        params: OrgParams,
        body: GenerateUploadUrlSchema,
        response: responses(
          { 201: created(StorageUploadUrlSchema, 'The upload URL; Location is the same URL') },
          [400, 413, 415],
        ),
      },
    },
    async (request, reply) => {
      const answer = await storage.createUploadUrl(
        request.params.organizationId,
        request.body,
        principalOf(request).userId,
      );
      return reply.code(201).header('location', answer.url).send(answer);
    },
  );
};
