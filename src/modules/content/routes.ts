import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendJsonText } from '../../http/json-text.js';
import { responses } from '../../http/schemas.js';
import { SpaceParams } from '../sites/scope.js';
import type { ChangeRequestsService } from './change-requests-service.js';
import {
  PageReadQuery,
  PagesSchema,
  RevisionPageSchema,
  RevisionSchema,
  TreeReadQuery,
} from './schemas.js';
import type { ContentService, ContentSource } from './service.js';

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

/** The content reads (docs/content.md): revisions, page trees and pages, by id and by path. */
export const contentRoutes: FastifyPluginAsyncTypebox<{
  content: ContentService;
  changeRequests: ChangeRequestsService;
}> = async (app, { content, changeRequests }) => {
  const trees = [
    ['/spaces/:spaceId/content/pages', 'listPages', 'List all space pages', SpaceParams.properties],
    [
      '/spaces/:spaceId/change-requests/:changeRequestId/content/pages',
      'listPagesInChangeRequest',
      'List all change request pages',
      CR_PARAMS,
    ],
    [
      '/spaces/:spaceId/revisions/:revisionId/pages',
      'listPagesInRevisionById',
      'List all pages in a space revision',
      REVISION_PARAMS,
    ],
  ] as const;
  for (const [url, operationId, summary, params] of trees) {
    app.get(
      url,
      {
        schema: {
          operationId,
          summary,
          tags: ['space-content'],
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
  }

  const byId = [
    [
      '/spaces/:spaceId/content/page/:pageId',
      'getPageById',
      'Get a space page by its ID',
      SpaceParams.properties,
    ],
    [
      '/spaces/:spaceId/change-requests/:changeRequestId/content/page/:pageId',
      'getPageInChangeRequestById',
      'Get a change request page by its ID',
      CR_PARAMS,
    ],
    [
      '/spaces/:spaceId/revisions/:revisionId/page/:pageId',
      'getPageInRevisionById',
      'Get a space revision page by its ID',
      REVISION_PARAMS,
    ],
  ] as const;
  for (const [url, operationId, summary, params] of byId) {
    app.get(
      url,
      {
        schema: {
          operationId,
          summary,
          tags: ['space-content'],
          params: Type.Object({ ...params, ...PAGE_ID }),
          querystring: PageReadQuery,
          response: responses({ 200: RevisionPageSchema }, [400]),
        },
      },
      async (request) =>
        content.pageById(
          request.params.spaceId,
          sourceOf(request.params),
          request.params.pageId,
          request.query.format,
        ),
    );
  }

  const byPath = [
    [
      '/spaces/:spaceId/content/path/*',
      'getPageByPath',
      'Get a space page by its path',
      SpaceParams.properties,
    ],
    [
      '/spaces/:spaceId/change-requests/:changeRequestId/content/path/*',
      'getPageInChangeRequestByPath',
      'Get a change request page by its path',
      CR_PARAMS,
    ],
    [
      '/spaces/:spaceId/revisions/:revisionId/path/*',
      'getPageInRevisionByPath',
      'Get a space revision page by its path',
      REVISION_PARAMS,
    ],
  ] as const;
  for (const [url, operationId, summary, params] of byPath) {
    app.get(
      url,
      {
        schema: {
          operationId,
          summary,
          description:
            'The page whose `path` is the rest of the URL. Send the path URL-encoded (`a%2Fb`) as the changelog asks, or with literal slashes (`a/b`) as the official client does; non-ASCII slugs are percent-encoded UTF-8. Documents and groups only; 404 names the path when no page has it.',
          tags: ['space-content'],
          params: Type.Object({ ...params, ...PAGE_PATH }),
          querystring: PageReadQuery,
          response: responses({ 200: RevisionPageSchema }, [400]),
        },
      },
      async (request) =>
        content.pageByPath(
          request.params.spaceId,
          sourceOf(request.params),
          request.params['*'],
          request.query.format,
        ),
    );
  }

  const revisions = [
    [
      '/spaces/:spaceId/content',
      'getCurrentRevision',
      'Get the current revision of a space',
      SpaceParams.properties,
    ],
    [
      '/spaces/:spaceId/change-requests/:changeRequestId/content',
      'getRevisionOfChangeRequestById',
      'Get the revision of a change request',
      CR_PARAMS,
    ],
    [
      '/spaces/:spaceId/revisions/:revisionId',
      'getRevisionById',
      'Get a revision by its ID',
      REVISION_PARAMS,
    ],
  ] as const;
  for (const [url, operationId, summary, params] of revisions) {
    app.get(
      url,
      {
        schema: {
          operationId,
          summary,
          tags: ['space-content'],
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
        return sendJsonText(reply, content.revisionJson(spaceId, revision, mergedFrom));
      },
    );
  }
};
