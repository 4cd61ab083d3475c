import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, badRequest, forbidden } from '../../errors.js';
import { html } from '../../html/safe-html.js';
import { sendAtEndOfTurn } from '../../http/coalesce-writes.js';
import { ifNoneMatchHits } from '../../http/conditional.js';
import { urlLooksIllFormed } from '../../http/text-guard.js';
import { RatingSchema } from '../insights/schemas.js';
import type { InsightsService } from '../insights/service.js';
import type { PdfService } from '../pdf/service.js';
import type { RedirectsService } from '../redirects/service.js';
import { canonicalPath } from '../redirects/source-path.js';
import { MAX_QUERY } from '../search/schemas.js';
import type { SearchService } from '../search/service.js';
import type { SiteEventsService } from '../site-insights/service.js';
import { fontFile } from '../theme/fonts.js';
import { PREVIEW_COOKIE, SHARE_COOKIE, VISITOR_COOKIE } from './access/access.js';
import { parseSiteAddress, withoutCredentials } from './access/address.js';
import { hostedOf } from './access/site-hostnames.js';
import { katexFont, siteAssets } from './assets/assets.js';
import {
  eventOfReport,
  MAX_READER_EVENTS,
  type ReaderContext,
  ReaderEventSchema,
  readerEvent,
  reportedUrl,
} from './reader-events.js';
import { pageCsp } from './rendering/csp.js';
import {
  type PageRepresentation,
  pathOf,
  representationOf,
  sendPage,
} from './rendering/page-representation.js';
import { searchBox } from './search-box.js';
import { newVisitorId, type OpenSite, type PublishedSiteService } from './service.js';

/** The tracking cookie (only when `insights.trackingCookie`): one visitor across visits. */
export const TRACKING_COOKIE = 'livery_vid';
const YEAR = 365 * 24 * 3600;

/** The answer for an address that names nothing a visitor may see: it says nothing more. */
const PLAIN_404 =
  html`<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not found</title></head><body><h1>Not found</h1></body></html>\n`
    .html;

const VISITOR_ID = /^[A-Za-z0-9_-]{8,64}$/;
const VisitorId = Type.String({ pattern: VISITOR_ID.source, description: 'A random id' });
const PageRef = { siteSpaceId: Type.String(), pageId: Type.String() };
/** Where the reader is, as site.js reports it with each view and event (reader-events.ts). */
const Whereabouts = {
  visitorId: Type.Optional(VisitorId),
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  referrer: Type.Optional(Type.String({ maxLength: 2048 })),
};

/** `/s/…`: published sites, their files, and the feedback and views their pages report. */
export const publishedRoutes: FastifyPluginAsyncTypebox<{
  published: PublishedSiteService;
  insights: InsightsService;
  search: SearchService;
  /** The site's redirect rules (docs/published-site.md, "Redirects"). */
  redirects: Pick<RedirectsService, 'resolve'>;
  /** Site analytics events (docs/insights.md, "Livery's published site"). */
  siteEvents: Pick<SiteEventsService, 'trackQuietly'>;
  secureCookies: boolean;
  /** The whole variant as a PDF ("Export as PDF", docs/pdf.md); absent, the route answers 404. */
  pdf?: Pick<PdfService, 'temporaryUrl'>;
}> = async (app, { published, insights, search, redirects, siteEvents, secureCookies, pdf }) => {
  // SameSite=Lax: no other site can send a visitor's cookies with a POST.
  const cookieOptions = (root: string, extra: { maxAge?: number } = {}) => ({
    path: root === '/' ? '/' : root.slice(0, -1),
    httpOnly: true,
    secure: secureCookies,
    sameSite: 'lax' as const,
    ...extra,
  });

  /**
   * The site of the address and the visitor's right to it; answers the request itself (plain
   * 404, 401 page, redirects) and returns undefined when the visitor may not go on.
   */
  async function admit(request: FastifyRequest, reply: FastifyReply, page: boolean) {
    const address = parseSiteAddress(request.url);
    const hosted = hostedOf(request.raw);
    const open =
      address === undefined ? undefined : await published.open(address.site, hosted?.hostname);
    if (address === undefined || open === undefined) return void plain404(reply);
    const query = request.query as Record<string, unknown>;
    const decision = await published.access(open, {
      query: page
        ? {
            share: single(query.share),
            jwt_token: single(query.jwt_token),
            preview: single(query.preview),
          }
        : {},
      cookies: request.cookies,
      authorization: request.headers.authorization,
    });
    // The site's files and reports are fetched by its pages' scripts: no sign-in page for them.
    if (!page && (decision.outcome === 'unauthorized' || decision.outcome === 'redirect')) {
      throw new AppError(
        401,
        'This site needs visitor authentication: open one of its pages first',
      );
    }
    switch (decision.outcome) {
      case 'serve':
        return { open, segments: address.segments, noindex: decision.noindex };
      case 'not-found':
        return void plain404(reply);
      case 'redirect':
        return void reply.code(302).header('cache-control', 'no-store').redirect(decision.location);
      case 'remember': {
        const { name, value } = decision.cookie;
        reply.setCookie(name, value, cookieOptions(open.root));
        // The other credential's cookie goes: one site, one way in. A publishing preview
        // (access.ts) is on top of them, and ends by itself.
        if (name !== PREVIEW_COOKIE) {
          const other = name === SHARE_COOKIE ? VISITOR_COOKIE : SHARE_COOKIE;
          reply.setCookie(other, '', cookieOptions(open.root, { maxAge: 0 }));
        }
        // At a custom hostname, the address the visitor asked for (`/page`), not the route's.
        const location =
          hosted === undefined
            ? `${published.mount}${withoutCredentials(request.url).slice(3)}`
            : withoutCredentials(request.originalUrl);
        return void reply.code(302).header('cache-control', 'no-store').redirect(location);
      }
      case 'unauthorized': {
        const signIn = await published.signInPage(open, request.log);
        return void reply
          .code(401)
          .header('cache-control', 'no-store')
          .header('x-robots-tag', 'noindex')
          .header('content-security-policy', pageCsp(signIn.settings))
          .type('text/html; charset=utf-8')
          .send(signIn.html);
      }
    }
  }

  // Ill-formed text (a NUL as `%00`, a lone surrogate as `%ED%A0%80`; http/text-guard.ts) names
  // no site, page or file: the plain 404, before anything looks it up (PostgreSQL cannot even
  // compare text holding a NUL).
  app.addHook('onRequest', (request, reply, done) => {
    if (urlLooksIllFormed(request.url)) {
      plain404(reply);
      return;
    }
    done();
  });

  // Read when the app is built: a server whose site.js is not built fails to start, and says so.
  const assets = siteAssets();
  app.get('/s/@livery/:file', { schema: { hide: true } }, async (request, reply) => {
    const file = (request.params as { file: string }).file;
    // Own keys only: `__proto__`, `toString`… are not files (they are the object's inherited keys).
    const asset = Object.hasOwn(assets, file) ? assets[file] : undefined;
    if (asset === undefined) return plain404(reply);
    return sendTagged(request, reply, asset.etag, 'public, max-age=3600', asset.type, asset.body);
  });

  app.get('/s/@livery/fonts/:file', { schema: { hide: true } }, async (request, reply) => {
    const name = (request.params as { file: string }).file;
    // The theme's fonts, and KaTeX's for formulas (assets.ts).
    const bytes = fontFile(name) ?? katexFont(name);
    if (bytes === undefined) return plain404(reply);
    // The files change only with a new release of the fonts: their name is their version.
    // Fonts are fetched with CORS: readable by any origin, including the studio's preview frame
    // (a sandboxed srcdoc, whose origin is opaque). They are the same public files for everyone.
    reply.header('access-control-allow-origin', '*');
    return sendTagged(request, reply, `"${name}"`, 'public, max-age=604800', 'font/woff2', bytes);
  });

  app.get('/s/:site/@livery/theme/:file', { schema: { hide: true } }, async (request, reply) => {
    const admitted = await admit(request, reply, false);
    if (admitted === undefined) return reply;
    const file = (request.params as { file: string }).file;
    const variant = admitted.open.variants.find((v) => `${v.id}.css` === file);
    if (variant === undefined) return plain404(reply);
    const settings = await published.settingsOf(admitted.open.site, variant.id, request.log);
    const { css, etag } = published.themeCssOf(settings);
    return sendTagged(request, reply, etag, 'private, no-cache', 'text/css; charset=utf-8', css);
  });

  app.post(
    '/s/:site/@livery/feedback',
    {
      schema: {
        hide: true,
        body: Type.Object(
          { ...PageRef, rating: RatingSchema, visitorId: Type.Optional(VisitorId) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const admitted = await admit(request, reply, false);
      if (admitted === undefined) return reply;
      const { siteSpaceId, pageId, rating, visitorId } = request.body;
      const variant = variantOf(admitted.open, siteSpaceId);
      const settings = await published.settingsOf(admitted.open.site, variant.id, request.log);
      if (!settings.feedback.enabled) {
        throw forbidden('Feedback is not enabled on this site (customization feedback.enabled)');
      }
      const visitor = trackedVisitor(request) ?? visitorId;
      if (visitor === undefined) {
        throw badRequest('body.visitorId: required when the tracking cookie is not set');
      }
      const { created, feedback } = await insights.rate(variant.spaceId, pageId, visitor, rating);
      const context = readerContext(request, admitted.open, variant, pageId, request.body);
      siteEvents.trackQuietly(admitted.open.site.id, [
        readerEvent(request, context, 'page_post_feedback', { feedback: { rating } }),
      ]);
      return reply
        .code(created ? 201 : 200)
        .header('cache-control', 'no-store')
        .send(feedback);
    },
  );

  app.post(
    '/s/:site/@livery/view',
    {
      schema: {
        hide: true,
        body: Type.Object({ ...PageRef, ...Whereabouts }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const admitted = await admit(request, reply, false);
      if (admitted === undefined) return reply;
      const { pageId } = request.body;
      const variant = variantOf(admitted.open, request.body.siteSpaceId);
      await insights.trackView(variant.spaceId, pageId);
      // Also a GitBook page_view event; dropped, not refused, when the site is flooded.
      const context = readerContext(request, admitted.open, variant, pageId, request.body);
      siteEvents.trackQuietly(admitted.open.site.id, [readerEvent(request, context, 'page_view')]);
      return reply.code(204).send();
    },
  );

  // Searches and link clicks (reader-events.ts): GitBook's events, made of site.js's reports.
  app.post(
    '/s/:site/@livery/events',
    {
      schema: {
        hide: true,
        body: Type.Object(
          {
            siteSpaceId: Type.String(),
            pageId: Type.Optional(Type.String()),
            ...Whereabouts,
            events: Type.Array(ReaderEventSchema, { maxItems: MAX_READER_EVENTS }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const admitted = await admit(request, reply, false);
      if (admitted === undefined) return reply;
      const { body } = request;
      const variant = variantOf(admitted.open, body.siteSpaceId);
      const context = readerContext(request, admitted.open, variant, body.pageId ?? null, body);
      const events = body.events.map((report) => eventOfReport(request, context, report));
      siteEvents.trackQuietly(admitted.open.site.id, events);
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  );

  // The search box (docs/search.md): the variant the visitor reads, as JSON for site.js.
  app.get(
    '/s/:site/@livery/search',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          q: Type.String({ maxLength: MAX_QUERY }),
          siteSpaceId: Type.Optional(Type.String()),
        }),
      },
    },
    async (request, reply) => {
      const admitted = await admit(request, reply, false);
      if (admitted === undefined) return reply;
      const { q, siteSpaceId } = request.query;
      const { open } = admitted;
      const variant =
        siteSpaceId === undefined
          ? (open.variants.find((v) => v.isDefault) ?? open.variants[0])
          : open.variants.find((v) => v.id === siteSpaceId);
      if (variant === undefined) {
        throw new AppError(
          404,
          `querystring.siteSpaceId: no variant ${JSON.stringify(siteSpaceId)} on this site`,
        );
      }
      const answer = await searchBox(search, { root: open.root, variant }, q);
      return reply
        .header('cache-control', 'private, no-cache')
        .header('x-robots-tag', 'noindex')
        .send(answer);
    },
  );

  // "Export as PDF" (docs/pdf.md): a reader of the site exports the variant they read, when the
  // variant's `pdf.enabled`; the answer sends them on to the PDF's temporary URL.
  app.get(
    '/s/:site/@livery/pdf',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ siteSpaceId: Type.Optional(Type.String()) }),
      },
    },
    async (request, reply) => {
      if (pdf === undefined) return plain404(reply);
      const admitted = await admit(request, reply, false);
      if (admitted === undefined) return reply;
      const { open } = admitted;
      const { siteSpaceId } = request.query;
      const variant =
        siteSpaceId === undefined
          ? (open.variants.find((v) => v.isDefault) ?? open.variants[0])
          : open.variants.find((v) => v.id === siteSpaceId);
      if (variant === undefined) {
        throw new AppError(
          404,
          `querystring.siteSpaceId: no variant ${JSON.stringify(siteSpaceId)} on this site`,
        );
      }
      const settings = await published.settingsOf(open.site, variant.id, request.log);
      if (!settings.pdf.enabled) {
        throw forbidden('PDF export is not enabled on this site (customization pdf.enabled)');
      }
      const { url } = await pdf.temporaryUrl(
        variant.spaceId,
        {},
        { siteId: open.site.id, siteSpaceId: variant.id },
      );
      // Its path on the address the visitor used (`{mount}@livery/…` is served at custom
      // hostnames too), not PUBLIC_URL's origin.
      return reply
        .code(302)
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex')
        .redirect(new URL(url).pathname);
    },
  );

  /**
   * A page view. Not async: an anonymous view of a public site's page kept in memory (KeptViews
   * in page-representation.ts) is answered without a promise, with the other answers of this
   * event-loop turn (http/coalesce-writes.ts), as the customization GET is. Anything else (a
   * credential, a protected site, a view not kept or stale) is decided in full.
   */
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.authorization === undefined) {
      const kept = published.views.peek(viewKey(request));
      if (kept !== undefined) {
        const encoded = kept.page.body.encodedFor(request.headers['accept-encoding']);
        if (!(encoded instanceof Promise)) {
          sendAtEndOfTurn(reply, () => {
            trackVisitor(request, reply, kept.page, kept.root);
            sendPage(request, reply, kept.page, kept.noindex, encoded);
          });
          return; // the reply is this handler's: Fastify sends nothing more
        }
      }
    }
    return decidedPage(request, reply);
  };

  const decidedPage = async (request: FastifyRequest, reply: FastifyReply) => {
    // Read before anything the view is decided from: a commit meanwhile leaves the view stale.
    const generation = published.views.generation();
    const admitted = await admit(request, reply, true);
    if (admitted === undefined) return reply;
    const { open, segments, noindex } = admitted;
    const answer = await published.page(open, segments, noindex, request.log);
    // A page wins; where none is, the site's redirect rules come before `.gitbook.yaml`'s.
    if (
      answer.kind === 'missing' ||
      (answer.kind === 'html' && answer.status === 404) ||
      (answer.kind === 'redirect' && answer.gitbookYaml === true)
    ) {
      const redirection = await redirects.resolve(open.site, canonicalPath(segments), open.root, {
        publicLive: anyoneMayRead(open),
        variants: open.variants,
      });
      if (redirection !== undefined) {
        return reply
          .code(redirection.status)
          .header('cache-control', noindex ? 'private, no-cache' : 'no-cache')
          .header('location', withQuery(redirection.location, request.url))
          .send();
      }
    }
    if (answer.kind === 'missing') return plain404(reply);
    if (answer.kind === 'redirect' || answer.kind === 'markdown') {
      // Only a public site's pages (the one case served without noindex) may sit in shared caches.
      reply.header('cache-control', noindex ? 'private, no-cache' : 'no-cache');
      if (answer.kind === 'redirect') {
        return reply.code(answer.permanent === true ? 301 : 302).redirect(answer.location);
      }
      // The page's source, for the page menu: never indexed apart from its page.
      return reply
        .header('x-robots-tag', 'noindex')
        .header('x-content-type-options', 'nosniff')
        .type('text/markdown; charset=utf-8')
        .send(answer.text);
    }
    const representation = representationOf(answer);
    // The same answer for every visitor without credentials: kept for the next ones.
    if (
      request.headers.authorization === undefined &&
      anyoneMayRead(open) &&
      !published.isProvisional(answer)
    ) {
      published.views.keep(viewKey(request), generation, {
        page: representation,
        noindex,
        root: open.root,
      });
    }
    const encoded = await representation.body.encodedFor(request.headers['accept-encoding']);
    trackVisitor(request, reply, representation, open.root);
    return sendPage(request, reply, representation, noindex, encoded);
  };

  /** The tracking cookie (`insights.trackingCookie`) for a visitor who has none yet. */
  const trackVisitor = (
    request: FastifyRequest,
    reply: FastifyReply,
    page: PageRepresentation,
    root: string,
  ) => {
    if (page.trackingCookie && request.cookies[TRACKING_COOKIE] === undefined) {
      reply.setCookie(TRACKING_COOKIE, newVisitorId(), cookieOptions(root, { maxAge: YEAR }));
    }
  };
  app.get('/s/:site', { schema: { hide: true } }, page);
  app.get('/s/:site/*', { schema: { hide: true } }, page);
};

/**
 * What a kept page view is found by: its path, and at a custom hostname the hostname and the
 * path asked for (the same page there is rendered for the root; NUL is in no request path).
 */
function viewKey(request: FastifyRequest): string {
  const hosted = hostedOf(request.raw);
  return hosted === undefined
    ? pathOf(request.url)
    : `\u0000${hosted.hostname}${pathOf(request.originalUrl)}`;
}

/**
 * Whether the access rules let every visitor without credentials read the site: published, and
 * public or unlisted (site-access.ts, access.ts). Share-link and visitor-authentication sites,
 * and unpublished ones, are decided per request.
 */
function anyoneMayRead(open: OpenSite): boolean {
  const { published, visibility } = open.site;
  return published === 1 && (visibility === 'public' || visibility === 'unlisted');
}

/**
 * A redirect's location with the request's query (without one-time credentials) carried over,
 * unless the location has a query of its own.
 */
function withQuery(location: string, rawUrl: string): string {
  if (/[?#]/.test(location)) return location;
  const kept = withoutCredentials(rawUrl);
  const at = kept.indexOf('?');
  if (at === -1) return location;
  return `${location}${kept.slice(at)}`;
}

/** The visitor of the tracking cookie, when it holds an id Livery could have made. */
function trackedVisitor(request: FastifyRequest): string | undefined {
  const id = request.cookies[TRACKING_COOKIE];
  return id !== undefined && VISITOR_ID.test(id) ? id : undefined;
}

/** A body with its ETag and caching, or 304 to a matching If-None-Match. */
function sendTagged(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
  cacheControl: string,
  type: string,
  body: string | Buffer,
) {
  reply.header('etag', etag).header('cache-control', cacheControl);
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(type).send(body);
}

export function plain404(reply: FastifyReply) {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(PLAIN_404);
}

/**
 * Where a reporting reader is. Their visitor id is the tracking cookie's when the site sets one
 * (`insights.trackingCookie`), else the tab's random id, which is also the session's: without
 * the cookie, a visitor is counted once per tab session.
 */
function readerContext(
  request: FastifyRequest,
  open: OpenSite,
  variant: { id: string; spaceId: string },
  pageId: string | null,
  body: { visitorId?: string; url?: string; referrer?: string },
): ReaderContext {
  const session = body.visitorId ?? newVisitorId();
  const fallback = `${request.protocol}://${request.host}${open.root}`;
  const referrer = body.referrer ? reportedUrl(body.referrer, '') : '';
  return {
    siteSpaceId: variant.id,
    spaceId: variant.spaceId,
    pageId,
    url: reportedUrl(body.url ?? request.headers.referer, fallback),
    referrer: referrer === '' ? null : referrer,
    visitorId: trackedVisitor(request) ?? session,
    sessionId: session,
  };
}

function variantOf(open: OpenSite, siteSpaceId: string) {
  const variant = open.variants.find((v) => v.id === siteSpaceId);
  if (variant === undefined) {
    throw new AppError(
      404,
      `body.siteSpaceId: no variant ${JSON.stringify(siteSpaceId)} on this site`,
    );
  }
  return variant;
}

const single = (value: unknown) =>
  typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
