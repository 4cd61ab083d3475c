import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, joinHtml, type SafeHtml } from '../html/safe-html.js';
import { ownUrl } from '../html/safe-url.js';
import { hostedOf } from '../modules/published/access/site-hostnames.js';
import type { PreviewEvents } from './events.js';
import type { Problem } from './load-folder.js';
import { RELOAD_SCRIPT } from './reload-script.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a preview adds to Livery's HTTP application (docs/preview.md), installed before every
 * route so that its hooks see every request:
 * - read-only: any other method than GET, HEAD and OPTIONS is refused (403), whatever the
 *   address, and the studio is off (404); no API token exists anyway (site.ts);
 * - the site is served at the root of the port, as a site at its custom hostname (site.ts,
 *   PREVIEW_HOSTNAME): every request for 127.0.0.1 is routed to it; a request for another name
 *   of the machine (`localhost`) is redirected to the same path at `origin`;
 * - the site's HTML pages get the problems banner and the live-reload script, and are sent
 *   uncompressed and uncached (a banner can change while the page's content does not);
 * - `/__livery/preview/events` (Server-Sent Events), `…/reload.js`, `…/status` (JSON).
 */
export function installPreviewHttp(
  app: FastifyInstance,
  events: PreviewEvents,
  origin: string,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (hostedOf(request.raw) === undefined) {
      // Not for 127.0.0.1 (`localhost:4000`): the one address the site is served at.
      void reply
        .code(302)
        .header('cache-control', 'no-store')
        .redirect(`${origin}${request.originalUrl}`);
      return;
    }
    if (!READS.has(request.method)) {
      void reply
        .code(403)
        .header('cache-control', 'no-store')
        .send({
          error: {
            code: 403,
            message: `livery preview is read-only: ${request.method} is refused (edit the folder's files instead)`,
          },
        });
      return;
    }
    // The path asked for, before the routing to the site (`/studio`, not `/s/{site}/studio`).
    const path = request.originalUrl.split('?')[0] ?? '';
    if (path === '/studio' || path.startsWith('/studio/')) {
      void reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The studio is off in livery preview: edit the files of the folder.\n');
      return;
    }
    if (request.url.startsWith('/s/')) {
      // Pages are rewritten on their way out (onSend): plain text, and never a 304 that would
      // bring back a page without its current banner.
      delete request.headers['accept-encoding'];
      delete request.headers['if-none-match'];
    }
    done();
  });

  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload, done) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (
      !request.url.startsWith('/s/') ||
      !type.startsWith('text/html') ||
      !(typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      done(null, payload);
      return;
    }
    reply.removeHeader('etag');
    reply.header('cache-control', 'no-store');
    const text = typeof payload === 'string' ? payload : payload.toString('utf8');
    const added = `${previewMarkup(events.problems, events.version).html}`;
    const at = text.lastIndexOf('</body>');
    done(null, at < 0 ? `${text}${added}` : `${text.slice(0, at)}${added}${text.slice(at)}`);
  });

  app.addHook('preClose', (done) => {
    events.close();
    done();
  });

  // At the root, `/__livery/preview/…` is routed as the site's `/s/{site}/__livery/preview/…`.
  const hidden = { schema: { hide: true } };
  app.get('/s/:site/__livery/preview/reload.js', hidden, async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('etag', RELOAD_SCRIPT.etag)
      .type('text/javascript; charset=utf-8')
      .send(RELOAD_SCRIPT.body),
  );
  app.get('/s/:site/__livery/preview/status', hidden, async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .send({ version: events.version, problems: events.problems }),
  );
  app.get('/s/:site/__livery/preview/events', hidden, (request, reply) => {
    reply.hijack();
    events.follow(reply.raw);
    request.raw.on('close', () => reply.raw.end());
  });
}

/** The banner (when the folder has problems) and the reload script, for the end of a page. */
export function previewMarkup(problems: readonly Problem[], version: number): SafeHtml {
  const script = html`<script src="${ownUrl('/__livery/preview/reload.js')}" data-version="${String(version)}" defer></script>`;
  if (problems.length === 0) return script;
  const errors = problems.filter((p) => p.severity === 'error').length;
  const title =
    errors > 0
      ? `livery preview: the folder has ${errors === 1 ? 'an error' : `${errors} errors`}; the last good content is shown`
      : `livery preview: ${problems.length === 1 ? 'a warning' : `${problems.length} warnings`} about the folder`;
  const items = problems.map(
    (p) =>
      html`<li><strong>${p.severity}</strong> <code>${p.file}${p.line === undefined ? '' : `:${p.line}`}</code> ${p.message}</li>`,
  );
  return html`<div id="livery-preview-banner" role="alert" style="position:fixed;z-index:2147483647;left:0;right:0;bottom:0;max-height:40vh;overflow:auto;margin:0;padding:12px 16px;font:14px/1.4 system-ui,sans-serif;color:#3b0a0a;background:${errors > 0 ? '#fde8e8' : '#fff7db'};border-top:2px solid ${errors > 0 ? '#c53030' : '#b7791f'}"><p style="margin:0 0 6px;font-weight:600">${title}</p><ul style="margin:0;padding-left:20px">${joinHtml(items, html``)}</ul></div>${script}`;
}
