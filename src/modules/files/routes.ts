import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { ifNoneMatchHits } from '../../http/conditional.js';
import { sendJsonText } from '../../http/json-text.js';
import { ListSchema, PageQuery, pageRequest, toPage } from '../../http/pagination.js';
import { responses, SpaceParams } from '../../http/schemas.js';
import { DocumentReadQuery } from '../content/schemas.js';
import type { ContentService, ContentSource } from '../content/service.js';
import { JsonDocumentSchema } from '../documents/schema.js';
import { contentTypeOf, INLINE_IMAGES } from './file-types.js';
import { ReusableContentSchema, RevisionFileSchema } from './schemas.js';
import type { FilesService } from './service.js';

type Params = { spaceId: string; revisionId?: string; changeRequestId?: string };
const sourceOf = (p: Params): ContentSource =>
  p.changeRequestId !== undefined
    ? { kind: 'change-request', changeRequest: p.changeRequestId }
    : p.revisionId !== undefined
      ? { kind: 'revision', revisionId: p.revisionId }
      : { kind: 'space' };

const REVISION = { revisionId: Type.String({ description: 'The unique id of the revision' }) };
const CHANGE_REQUEST = {
  changeRequestId: Type.String({
    description: 'The unique ID of the change request or its number identifier in the space',
  }),
};
const FILE = { fileId: Type.String({ description: 'The unique id of the file' }) };
const REUSABLE = {
  reusableContentId: Type.String({ description: 'The unique id of the reusable content' }),
};

/** Where each read of files and reusable contents takes its revision from, and its operations. */
const SOURCES = [
  {
    url: '/spaces/:spaceId/content',
    params: {},
    ops: ['listFiles', 'getFileById', 'getReusableContentById'],
  },
  {
    url: '/spaces/:spaceId/revisions/:revisionId',
    params: REVISION,
    ops: ['listFilesInRevisionById', 'getFileInRevisionById', 'getReusableContentInRevisionById'],
  },
  {
    url: '/spaces/:spaceId/change-requests/:changeRequestId/content',
    params: CHANGE_REQUEST,
    ops: [
      'listFilesInChangeRequestById',
      'getFileInChangeRequestById',
      'getReusableContentInChangeRequestById',
    ],
  },
] as const;

/**
 * A revision's files and reusable contents (GitBook's space-content reads; docs/git-sync.md).
 * Files listed at `/files` (revisions) or `/content/files` (the space, change requests).
 */
export const fileRoutes: FastifyPluginAsyncTypebox<{
  files: FilesService;
  content: ContentService;
}> = async (app, { files, content }) => {
  for (const { url, params, ops } of SOURCES) {
    const [listOp, getOp, reusableOp] = ops;
    const base = url.endsWith('/content') ? `${url}/files` : `${url}/files`;
    app.get(
      base,
      {
        schema: {
          operationId: listOp,
          summary: 'List the files of a revision',
          tags: ['space-content'],
          params: Type.Object({ ...SpaceParams.properties, ...params }),
          querystring: Type.Object(
            {
              ...PageQuery,
              metadata: Type.Optional(Type.Boolean()),
              computed: Type.Optional(Type.Boolean()),
            },
            { additionalProperties: false },
          ),
          response: responses({ 200: ListSchema(RevisionFileSchema) }, [400]),
        },
      },
      async (request) => {
        const revision = await content.revisionFor(
          request.params.spaceId,
          sourceOf(request.params),
        );
        // Files sort by path: the cursor's key is the last one's path.
        const { cursor, limit } = pageRequest(request.query);
        const all = await files.files(revision);
        const after =
          cursor === undefined
            ? all
            : all.filter(
                (f) => f.path > String(cursor.key) || (f.path === cursor.key && f.id > cursor.id),
              );
        return toPage(
          after.slice(0, limit + 1),
          limit,
          all.length,
          (f) => files.present(f),
          (f) => f.path,
        );
      },
    );
    app.get(
      `${base}/:fileId`,
      {
        schema: {
          operationId: getOp,
          summary: 'Get a file of a revision by its ID',
          tags: ['space-content'],
          params: Type.Object({ ...SpaceParams.properties, ...params, ...FILE }),
          response: responses({ 200: RevisionFileSchema }),
        },
      },
      async (request) => {
        const revision = await content.revisionFor(
          request.params.spaceId,
          sourceOf(request.params),
        );
        return files.file(revision, request.params.fileId);
      },
    );
    app.get(
      `${url}/reusable-contents/:reusableContentId`,
      {
        schema: {
          operationId: reusableOp,
          summary: 'Get a reusable content of a revision by its ID',
          tags: ['space-content'],
          params: Type.Object({ ...SpaceParams.properties, ...params, ...REUSABLE }),
          response: responses({ 200: ReusableContentSchema }),
        },
      },
      async (request) => {
        const revision = await content.revisionFor(
          request.params.spaceId,
          sourceOf(request.params),
        );
        return files.presentReusable(
          await files.reusableContent(revision, request.params.reusableContentId),
        );
      },
    );
  }
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId/document',
    {
      schema: {
        operationId: 'getReusableContentDocumentInRevisionById',
        summary: 'Get the document of a reusable content in a revision',
        tags: ['space-content'],
        params: Type.Object({ ...SpaceParams.properties, ...REVISION, ...REUSABLE }),
        querystring: DocumentReadQuery,
        response: responses({ 200: JsonDocumentSchema }, [400]),
      },
    },
    async (request, reply) => {
      const { spaceId, revisionId, reusableContentId } = request.params;
      const revision = await content.revisionFor(spaceId, { kind: 'revision', revisionId });
      const item = await files.reusableContent(revision, reusableContentId);
      const json = await content.reusableDocumentJson(revision, item);
      return sendJsonText(reply, json);
    },
  );
};

/**
 * The bytes of revision files, at the address `downloadURL` gives: `/s/@livery/files/{hash}/{name}`.
 * The hash names the bytes, so an answer is cached for a year and its ETag is the hash. Raster
 * images are shown inline; anything else (SVG, which may hold script; HTML…) as an attachment,
 * or, for SVG shown by an `<img>`, under a policy that runs nothing.
 */
export const fileDownloadRoutes: FastifyPluginAsyncTypebox<{ files: FilesService }> = async (
  app,
  { files },
) => {
  app.get('/s/@livery/files/:hash/:name', { schema: { hide: true } }, async (request, reply) => {
    const { hash, name } = request.params as { hash: string; name: string };
    if (!/^[A-Za-z0-9_-]{43}$/.test(hash)) return notFound(reply);
    const etag = `"${hash}"`;
    reply
      .header('etag', etag)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('access-control-allow-origin', '*');
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
    const bytes = await files.blob(hash);
    if (bytes === undefined) return notFound(reply);
    const type = contentTypeOf(name);
    if (type === 'image/svg+xml') {
      reply.header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
    } else if (!INLINE_IMAGES.has(type)) {
      reply.header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
    }
    return reply.type(type).send(bytes);
  });
};

const notFound = (reply: FastifyReply) =>
  reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send('Not found');
