import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { sendJsonText } from '../../http/json-text.js';
import { responses, SpaceParams } from '../../http/schemas.js';
import { JsonDocumentSchema } from '../documents/schema.js';
import { setRendererCache, spaceTag } from '../revalidation/cache-headers.js';
import type { ChangeRequestsService } from './change-requests-service.js';
import {
  DocumentReadQuery,
  PageReadQuery,
  PagesSchema,
  RevisionPageSchema,
  RevisionSchema,
  TreeReadQuery,
} from './schemas.js';
import type { ContentService, ContentSource, PresentedPage } from './service.js';

const CR_PARAMS = {
  ...SpaceParams.properties,
  changeRequestId: Type.String({
    description: 'The unique ID of the change request or its number identifier in the space',
  }),
};
const REVISION_PARAMS = {
  ...SpaceParams.properties,
  revisionId: Type.String({ description: 'The unique id of the revision' }),
};
const PAGE_ID = { pageId: Type.String({ description: 'The unique id of the page' }) };
/** `*`: the rest of the URL, so both `a/b` (what GitBook's client sends) and `a%2Fb` arrive as `a/b`. */
const PAGE_PATH = {
  '*': Type.String({
    description:
      'The path of the page in the revision (its `path`), URL-encoded (`getting-started%2Finstall`) or with literal slashes (`getting-started/install`)',
  }),
};

type Params = { spaceId: string; changeRequestId?: string; revisionId?: string };
const sourceOf = (params: Params): ContentSource =>
  params.changeRequestId !== undefined
    ? { kind: 'change-request', changeRequest: params.changeRequestId }
    : params.revisionId !== undefined
      ? { kind: 'revision', revisionId: params.revisionId }
      : { kind: 'space' };

/** A page read: with its document, JSON bytes sent as they are; else the route's serializer. */
const sendPage = (reply: FastifyReply, page: PresentedPage | Buffer) =>
  Buffer.isBuffer(page) ? sendJsonText(reply, page) : page;

interface Source {
  /** The revision's URL; its pages are at `/pages`, `/page/{pageId}` and `/path/{pagePath}` below. */
  url: string;
  params: typeof SpaceParams.properties;
  /** operationIds and summaries: revision, page tree, page by id, page by path. */
  operations: [string, string][];
}

const SOURCES: Source[] = [
  {
    url: '/spaces/:spaceId/content',
    params: SpaceParams.properties,
    operations: [
      ['getCurrentRevision', 'Get the current revision of a space'],
      ['listPages', 'List all space pages'],
      ['getPageById', 'Get a space page by its ID'],
      ['getPageByPath', 'Get a space page by its path'],
    ],
  },
  {
    url: '/spaces/:spaceId/change-requests/:changeRequestId/content',
    params: CR_PARAMS,
    operations: [
      ['getRevisionOfChangeRequestById', 'Get the revision of a change request'],
      ['listPagesInChangeRequest', 'List all change request pages'],
      ['getPageInChangeRequestById', 'Get a change request page by its ID'],
      ['getPageInChangeRequestByPath', 'Get a change request page by its path'],
    ],
  },
  {
    url: '/spaces/:spaceId/revisions/:revisionId',
    params: REVISION_PARAMS,
    operations: [
      ['getRevisionById', 'Get a revision by its ID'],
      ['listPagesInRevisionById', 'List all pages in a space revision'],
      ['getPageInRevisionById', 'Get a space revision page by its ID'],
      ['getPageInRevisionByPath', 'Get a space revision page by its path'],
    ],
  },
];

const BY_PATH =
  'The page whose `path` is the rest of the URL. Send the path URL-encoded (`a%2Fb`) as the changelog asks, or with literal slashes (`a/b`) as the official client does; non-ASCII slugs are percent-encoded UTF-8. Documents and groups only; 404 names the path when no page has it.';

/**
 * The content reads (docs/content.md), each in three forms: of the space's current revision, of a
 * change request and of a revision.
 */
export const contentRoutes: FastifyPluginAsyncTypebox<{
  content: ContentService;
  changeRequests: ChangeRequestsService;
}> = async (app, { content, changeRequests }) => {
  // What is read in a revision by id never changes: GitBook's renderer may keep it (docs/renderer-cache.md).
  app.addHook('onSend', (request, reply, payload, done) => {
    const { spaceId, revisionId } = (request.params ?? {}) as Partial<Params>;
    if (spaceId !== undefined && revisionId !== undefined && reply.statusCode === 200) {
      setRendererCache(reply, { tags: [spaceTag(spaceId)], immutable: true });
    }
    done(null, payload);
  });
  for (const { url, params, operations } of SOURCES) {
    const [revisionOp, treeOp, byIdOp, byPathOp] = operations as [
      [string, string],
      [string, string],
      [string, string],
      [string, string],
    ];
    const schema = ([operationId, summary]: [string, string]) => ({
      operationId,
      summary,
      tags: ['space-content'],
    });

    app.get(
      url,
      {
        schema: {
          ...schema(revisionOp),
          params: Type.Object(params),
          querystring: TreeReadQuery,
          response: responses({ 200: RevisionSchema }, [400]),
        },
      },
      async (request, reply) => {
        const { spaceId } = request.params;
        const revision = await content.revisionFor(spaceId, sourceOf(request.params));
        const mergedFrom =
          revision.mergedFrom === null
            ? undefined
            : await changeRequests.get(spaceId, revision.mergedFrom);
        return sendJsonText(reply, await content.revisionJson(spaceId, revision, mergedFrom));
      },
    );

    app.get(
      `${url}/pages`,
      {
        schema: {
          ...schema(treeOp),
          params: Type.Object(params),
          querystring: TreeReadQuery,
          response: responses({ 200: PagesSchema }, [400]),
        },
      },
      async (request, reply) =>
        sendJsonText(
          reply,
          await content.listPages(request.params.spaceId, sourceOf(request.params)),
        ),
    );

    app.get(
      `${url}/page/:pageId`,
      {
        schema: {
          ...schema(byIdOp),
          params: Type.Object({ ...params, ...PAGE_ID }),
          querystring: PageReadQuery,
          response: responses({ 200: RevisionPageSchema }, [400]),
        },
      },
      async (request, reply) => {
        const { spaceId, pageId } = request.params;
        const source = sourceOf(request.params);
        return sendPage(
          reply,
          await content.pageById(spaceId, source, pageId, request.query.format),
        );
      },
    );

    if (byIdOp[0] === 'getPageInRevisionById') {
      app.get(
        `${url}/page/:pageId/document`,
        {
          schema: {
            operationId: 'getPageDocumentInRevisionById',
            summary: 'Get the raw document body of a page in a historical revision',
            description:
              'The page\'s body as GitBook\'s JSON document (docs/content.md, "Page documents"); a group or a link has none: 404.',
            tags: ['space-content'],
            params: Type.Object({ ...params, ...PAGE_ID }),
            querystring: DocumentReadQuery,
            response: responses({ 200: JsonDocumentSchema }, [400]),
          },
        },
        async (request, reply) => {
          const { spaceId, pageId } = request.params;
          return sendJsonText(
            reply,
            await content.pageDocument(spaceId, sourceOf(request.params), pageId),
          );
        },
      );
    }

    app.get(
      `${url}/path/*`,
      {
        schema: {
          ...schema(byPathOp),
          description: BY_PATH,
          params: Type.Object({ ...params, ...PAGE_PATH }),
          querystring: PageReadQuery,
          response: responses({ 200: RevisionPageSchema }, [400]),
        },
      },
      async (request, reply) => {
        const { spaceId, '*': path } = request.params;
        const source = sourceOf(request.params);
        return sendPage(
          reply,
          await content.pageByPath(spaceId, source, path, request.query.format),
        );
      },
    );
  }
};
