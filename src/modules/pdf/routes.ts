import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses, SpaceParams } from '../../http/schemas.js';
import type { PdfService } from './service.js';

/** GitBook 0.202's answer of getSpacePDF. */
const PdfUrlSchema = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description: 'Temporary URL to print the content. The URL will work for 1h.',
    }),
  },
  { additionalProperties: false },
);

const PdfQuery = Type.Object({
  only: Type.Optional(
    Type.Boolean({ description: 'Generate a PDF only for the provided page (needs `page`).' }),
  ),
  page: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'ID of a specific page to generate a PDF for: the page and its descendants, or the page alone with `only=true`.',
    }),
  ),
});

/** getSpacePDF (docs/pdf.md): a temporary URL to the PDF of a space or of one of its pages. */
export const pdfRoutes: FastifyPluginAsyncTypebox<{ pdf: PdfService }> = async (app, { pdf }) => {
  app.get(
    '/spaces/:spaceId/pdf',
    {
      schema: {
        operationId: 'getSpacePDF',
        summary: 'Get a temporary URL to download a space or page as PDF',
        description:
          "Returns a short-lived URL (valid for 1 hour) to download the space's content as a PDF file. The URL needs no API token: it is the capability. The PDF is made when the URL is read, from the revision current now. More than PDF_MAX_PAGES pages (default 2,000) is a 413.",
        tags: ['space-content'],
        params: SpaceParams,
        querystring: PdfQuery,
        response: responses({ 200: PdfUrlSchema }, [400, 413]),
      },
    },
    async (request, reply) => {
      const answer = await pdf.temporaryUrl(request.params.spaceId, request.query);
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
};

/**
 * The temporary URLs' answers: `{PUBLIC_URL}@livery/pdf/{token}`, readable without credentials
 * (the signed token is the capability), the PDF streamed as it is written.
 */
export const pdfDownloadRoutes: FastifyPluginAsyncTypebox<{ pdf: PdfService }> = async (
  app,
  { pdf },
) => {
  // A wildcard, not `:token`: a token may be longer than the router's longest parameter.
  app.get('/s/@livery/pdf/*', { schema: { hide: true } }, async (request, reply) => {
    const token = (request.params as { '*': string })['*'];
    let body: PassThrough | undefined;
    const written = pdf.write(
      token,
      (fileName) => {
        body = new PassThrough();
        reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .header('x-robots-tag', 'noindex');
        reply.send(body);
        return body;
      },
      request.log,
    );
    try {
      await written;
    } catch (error) {
      // Before the PDF started, the error is the answer; after, the download is cut short.
      if (body === undefined) throw error;
      request.log.error({ err: error }, 'pdf: writing failed');
      body.destroy(error as Error);
    }
    return reply;
  });
};
