import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { type Db, generationOf } from '../../../db/database.js';

/**
 * Custom hostnames (docs/sites.md, "Custom hostnames"): a request whose host is a site's
 * hostname is that site's, served at the root (`/` is its home page), as `/s/{site}/…` is.
 *
 * Fastify routes a request before any hook can wait for the database, so the decision is made
 * in its `rewriteUrl` (synchronous) from a map of every hostname held, kept in memory: the
 * request's path becomes the site's `/s/{siteId}/…` path and the request is marked (HOSTED) so
 * that pages are rendered for the root. The map is loaded at start-up and again whenever the
 * database's generation changes (any commit, by this process or another: the change
 * notifications of db/), and awaited by the writes of this process that change a hostname, so
 * that the answer to a PATCH is followed by requests the new hostname serves. A hostname set by
 * another process is served from the moment its change notification has arrived and the map
 * is read again (a query on the `sites_hostname` index).
 */

/** The mark of a request for a site's hostname, on the raw request. */
const HOSTED = Symbol('livery.hosted');

export interface Hosted {
  /** The hostname as the site holds it (lower case). */
  hostname: string;
  siteId: string;
}

export class SiteHostnames {
  private byHost = new Map<string, string>();
  private loadedAt: string | undefined | null = null;
  private loading: Promise<void> | undefined;
  private readonly generation: () => string | undefined;
  private onError: (error: unknown) => void = () => {};

  constructor(private readonly db: Db) {
    this.generation = generationOf(db);
  }

  /** Where a failed reload is reported (the map in use stays). */
  useLog(onError: (error: unknown) => void): void {
    this.onError = onError;
  }

  /** Reads the map again now; concurrent calls share one read. */
  reload(): Promise<void> {
    if (this.loading !== undefined) {
      // A read already under way may have begun before the change: read once more after it.
      return this.loading.then(() => this.reload());
    }
    const generation = this.generation();
    this.loading = this.db
      .selectFrom('sites')
      .select(['id', 'hostname'])
      .where('hostname', 'is not', null)
      .execute()
      .then((rows) => {
        this.byHost = new Map(rows.map((row) => [row.hostname as string, row.id]));
        this.loadedAt = generation;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  /** The site whose hostname `host` is (lower case, no port), from the map. */
  siteFor(host: string): string | undefined {
    const generation = this.generation();
    if ((generation === undefined || generation !== this.loadedAt) && this.loading === undefined) {
      this.reload().catch(this.onError);
    }
    return this.byHost.get(host);
  }

  /**
   * Fastify's `rewriteUrl`: a request for a site's hostname goes to the site's `/s/{siteId}/…`
   * path (Livery's shared files, `{mount}@livery/…`, to `/s/@livery/…`) and is marked; any
   * other request is left as it is.
   */
  rewrite(request: IncomingMessage, options: { trustProxy: boolean; mount: string }): string {
    const url = request.url ?? '/';
    try {
      return this.routed(request, url, options);
    } catch {
      // The database cannot even be asked its generation (closed, gone): route as an unknown
      // host, so that /readyz answers its 503 and every other route its own fault.
      return url;
    }
  }

  private routed(
    request: IncomingMessage,
    url: string,
    options: { trustProxy: boolean; mount: string },
  ): string {
    if (this.byHost.size === 0 && this.loadedAt === this.generation()) return url;
    const host = requestHost(request.headers, options.trustProxy);
    if (host === undefined) return url;
    const siteId = this.siteFor(host);
    if (siteId === undefined) return url;
    (request as IncomingMessage & { [HOSTED]?: Hosted })[HOSTED] = { hostname: host, siteId };
    return hostedPath(url, siteId, options.mount);
  }
}

/** The mark `rewrite` left on a request for a site's hostname, if any. */
export function hostedOf(raw: IncomingMessage): Hosted | undefined {
  return (raw as IncomingMessage & { [HOSTED]?: Hosted })[HOSTED];
}

/**
 * The host a visitor asked for, lower case and without its port: the first X-Forwarded-Host
 * when the proxy is trusted and sends one, else Host. Undefined when there is none or it is not
 * a plain name (an IPv6 literal is never a site's hostname).
 */
export function requestHost(headers: IncomingHttpHeaders, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? headers['x-forwarded-host'] : undefined;
  const raw = (typeof forwarded === 'string' ? forwarded.split(',', 1)[0] : headers.host)?.trim();
  if (raw === undefined || raw === '' || raw.startsWith('[')) return undefined;
  const colon = raw.indexOf(':');
  const name = (colon === -1 ? raw : raw.slice(0, colon)).toLowerCase();
  // A fully qualified name may end with a dot: `docs.acme.com.` is `docs.acme.com`.
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/** The path a hosted request is routed by: the site's, or Livery's shared files. */
export function hostedPath(url: string, siteId: string, mount: string): string {
  const shared = `${mount}@livery/`;
  if (url.startsWith(shared)) return `/s/@livery/${url.slice(shared.length)}`;
  return url.startsWith('/') ? `/s/${siteId}${url}` : `/s/${siteId}/${url}`;
}
