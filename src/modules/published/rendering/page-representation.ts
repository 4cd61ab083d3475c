import type { FastifyReply, FastifyRequest } from 'fastify';
import { BoundedCache } from '../../../bounded-cache.js';
import {
  CompressibleBody,
  type Encoded,
  setEncodingHeaders,
} from '../../../http/content-coding.js';
import { pageCsp } from './csp.js';
import { derivedBy } from './derived.js';
import type { PageAnswer } from './page-answer.js';

/**
 * A page's HTML as it is sent: its bytes with their strong ETag and compressed forms
 * (http/content-coding.ts) and its Content-Security-Policy, made once per rendered page (the
 * service keeps rendered pages; this is derived from the same object), not per request.
 */
export interface PageRepresentation {
  status: 200 | 404;
  body: CompressibleBody;
  csp: string;
  /** `insights.trackingCookie`: a visitor without the tracking cookie is given one. */
  trackingCookie: boolean;
}

type HtmlAnswer = Extract<PageAnswer, { kind: 'html' }>;

export const representationOf = derivedBy(
  (answer: HtmlAnswer): PageRepresentation => ({
    status: answer.status,
    body: new CompressibleBody(answer.html),
    csp: pageCsp(answer.settings),
    trackingCookie: answer.settings.insights.trackingCookie,
  }),
);

/**
 * A page view as anyone may be sent it: the representation of a page of a published public or
 * unlisted site, asked for without credentials. Its address alone decides it (the access rules
 * give every such visitor the same answer), so it is answered from memory while the database is
 * unchanged (KeptViews).
 */
export interface KeptView {
  page: PageRepresentation;
  noindex: boolean;
  /** The site's root (`/s/acme/`): the tracking cookie's path. */
  root: string;
}

/** Kept views' bodies, by size (mostly the same objects as the rendered pages the service keeps). */
const KEPT_VIEW_BYTES = 16 * 1024 * 1024;

/**
 * Anonymous page views of public sites, by request path, each kept with the database generation
 * it was decided under (db/database.ts generationOf): any commit, by this process or another one
 * on the same database (PostgreSQL's change notifications, SQLite's data_version), makes every
 * kept view stale, so a settings change, a publish, an unpublish or a visibility change is seen
 * by the next view, as with every cached read of the request path. A stale view is decided
 * again in full; its page is usually still rendered and compressed (the rendered pages are keyed
 * by what they are made of, not by generation).
 */
export class KeptViews {
  private readonly views = new BoundedCache<{ generation: string; view: KeptView }>(
    KEPT_VIEW_BYTES,
  );

  constructor(readonly generation: () => string | undefined) {}

  /** The view kept for `path` if it is current. */
  peek(path: string): KeptView | undefined {
    const current = this.generation();
    if (current === undefined) return undefined;
    const kept = this.views.get(path);
    return kept?.generation === current ? kept.view : undefined;
  }

  /** Keeps `view` under `generation`, read before anything the view was decided from. */
  keep(path: string, generation: string | undefined, view: KeptView): void {
    if (generation === undefined) return;
    this.views.set(path, { generation, view }, view.page.body.identity.body.length);
  }
}

/** The request's path without its query: what a kept view is found by. */
export const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
};

/**
 * Sends a page in the coding the request prefers, with the headers every page view has had
 * (Cache-Control, X-Robots-Tag, CSP, Referrer-Policy) and its validators: a 200's ETag answers
 * If-None-Match with a 304 and no body. Compressible pages vary by Accept-Encoding.
 */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: PageRepresentation,
  noindex: boolean,
  encoded: Encoded,
): FastifyReply {
  // Only a public site's pages (the one case served without noindex) may sit in shared caches.
  reply.header('cache-control', noindex ? 'private, no-cache' : 'no-cache');
  if (noindex) reply.header('x-robots-tag', 'noindex');
  if (setEncodingHeaders(request, reply, page.body, encoded, { etag: page.status === 200 })) {
    return reply.code(304).send();
  }
  return reply
    .code(page.status)
    .header('content-security-policy', page.csp)
    .header('referrer-policy', 'same-origin')
    .type('text/html; charset=utf-8')
    .send(encoded.body);
}
