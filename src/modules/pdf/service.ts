import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import type { ServerKey } from '../../server-key.js';
import type { Urls } from '../../urls.js';
import type { ContentService } from '../content/service.js';
import type { JsonDocument } from '../documents/model.js';
import type { FilesService } from '../files/service.js';
import type { PublishedSiteService } from '../published/service.js';
import type { SpacesService } from '../spaces/service.js';
import { PdfAssets } from './assets.js';
import { type PdfRequest, selectPages } from './selection.js';
import { openTicket, PDF_URL_SECONDS, type PdfTicket, signTicket } from './token.js';
import { writePdf } from './writer.js';

/** The site variant a PDF is asked from (the published site's "Export as PDF"). */
export interface ShownBy {
  siteId: string;
  siteSpaceId: string;
}

/**
 * PDF export (docs/pdf.md). `temporaryUrl` checks what is asked (the page, the size) and answers
 * a signed URL valid for an hour; the PDF is made when that URL is read, from the revision the
 * URL names, streamed as it is written, never stored. One PDF is written at a time per process
 * (its memory is bounded: docs/BENCHMARKS.md); a download meanwhile is a 503 with Retry-After.
 */
/** PDFs being written by this process (every app it builds: one counter per process). */
let writing = 0;

export class PdfService {
  constructor(
    private readonly deps: {
      content: ContentService;
      spaces: SpacesService;
      files: FilesService;
      published: PublishedSiteService;
      serverKey: ServerKey;
      urls: Urls;
      maxPages: number;
      now?: () => number;
    },
  ) {}

  private nowSeconds() {
    return Math.floor((this.deps.now?.() ?? Date.now()) / 1000);
  }

  async temporaryUrl(
    spaceId: string,
    request: PdfRequest,
    shownBy?: ShownBy,
  ): Promise<{ url: string }> {
    const revision = await this.deps.content.revisionFor(spaceId, { kind: 'space' });
    selectPages(revision.pages, request, this.deps.maxPages);
    const ticket: PdfTicket = {
      spaceId,
      revisionId: revision.id,
      ...(request.page === undefined ? {} : { page: request.page }),
      ...(request.only === true ? { only: true } : {}),
      ...(shownBy === undefined
        ? {}
        : { siteId: shownBy.siteId, siteSpaceId: shownBy.siteSpaceId }),
      expires: this.nowSeconds() + PDF_URL_SECONDS,
    };
    return {
      url: `${this.deps.urls.publicBase}@livery/pdf/${signTicket(this.deps.serverKey, ticket)}`,
    };
  }

  /**
   * The PDF of a URL's token, written to `out`; its file name first (for Content-Disposition),
   * through `start`, once the token and the content are checked (until then, errors are answers).
   */
  async write(
    token: string,
    start: (fileName: string) => NodeJS.WritableStream,
    log: FastifyBaseLogger,
  ): Promise<void> {
    const ticket = openTicket(this.deps.serverKey, token, this.nowSeconds());
    if (ticket === 'invalid') throw new AppError(404, 'token: no PDF at this address');
    if (ticket === 'expired') {
      throw new AppError(
        410,
        'token: this PDF address has expired (it works for an hour): ask getSpacePDF for a new one',
      );
    }
    const { content, spaces, files, published } = this.deps;
    const source = { kind: 'revision', revisionId: ticket.revisionId } as const;
    const revision = await content.revisionFor(ticket.spaceId, source);
    const pages = selectPages(revision.pages, ticket, this.deps.maxPages);
    const space = await spaces.getPublished(ticket.spaceId);
    const shown =
      ticket.siteId === undefined || ticket.siteSpaceId === undefined
        ? undefined
        : { siteId: ticket.siteId, siteSpaceId: ticket.siteSpaceId };
    const settings = await published.pdfSettings(ticket.spaceId, shown, log);
    const stored = await files.files(revision);
    const fileUrls = new Map(stored.map((file) => [file.id, files.present(file).downloadURL]));
    if (writing > 0) {
      log.warn({ spaceId: ticket.spaceId }, 'pdf: another PDF is being written; answered 503');
      throw new AppError(503, 'Another PDF is being written: try again in a moment', {
        'retry-after': '30',
      });
    }
    writing++;
    try {
      const title =
        pages.length === 1 && ticket.page !== undefined
          ? (pages[0]?.title ?? space.title)
          : space.title;
      // Read inside the slot: at most one PDF's fonts and logo are in memory at a time.
      const assets = new PdfAssets((hash) => files.blob(hash), this.deps.urls.publicBase, log);
      const fonts = await assets.fonts(settings);
      const logo = await assets.logo(settings);
      const out = start(fileNameOf(title));
      const started = Date.now();
      const sheets = await writePdf(
        {
          title,
          pages,
          settings,
          fileUrl: (id) => fileUrls.get(id),
          fonts,
          logo,
          imageOf: (ref) => assets.image(ref, stored),
          documentOf: async (page) =>
            page.type === 'document'
              ? (JSON.parse(
                  (await content.pageDocument(ticket.spaceId, source, page.id)).toString('utf8'),
                ) as JsonDocument)
              : undefined,
        },
        out,
      );
      log.info(
        { spaceId: ticket.spaceId, pages: pages.length, sheets, ms: Date.now() - started },
        'pdf: written',
      );
    } finally {
      writing--;
    }
  }
}

/** A download's file name: the title's letters and digits, `-` between words. */
export function fileNameOf(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base === '' ? 'export' : base}.pdf`;
}
