/**
 * The one API client of the studio. Same-origin requests carry the session cookie; unsafe
 * methods carry the CSRF token the session endpoint gave. Every non-2xx answer becomes an
 * ApiError built from GitBook's envelope `{"error":{"code","message"}}`, with the field path the
 * message names (Livery's 400s start with it: "body.styling.primaryColor.light must …").
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Dotted settings path the message names ("styling.primaryColor.light"), if any. */
    readonly path: string | undefined,
    /** The current ETag a 412 answers with, if any. */
    readonly etag: string | undefined,
  ) {
    super(message);
  }
}

/** "body.header.links[0].to must …" → "header.links.0.to"; undefined when no body path. */
export function settingsPathOf(message: string): string | undefined {
  const match = /^body\.([A-Za-z0-9_.[\]]+)/.exec(message);
  if (match?.[1] === undefined) return undefined;
  return match[1].replace(/\[(\d+)\]/g, '.$1').replace(/^(customization|site)\./, '');
}

let csrfToken: string | undefined;
/** Set by the session model after GET/POST /studio/session. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** Called on any 401 from the API (the session expired or was revoked). */
let onUnauthorized: () => void = () => {};
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export interface Answer<T> {
  status: number;
  body: T;
  etag: string | undefined;
}

export interface RequestOptions {
  body?: unknown;
  ifMatch?: string;
  signal?: AbortSignal;
  /** Answer the body as text (HTML previews), not JSON. */
  text?: boolean;
}

const SAFE = new Set(['GET', 'HEAD']);

export async function request<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {
    accept: options.text ? 'text/html' : 'application/json',
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
  if (!SAFE.has(method) && csrfToken !== undefined) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    // GitBook's reads carry Last-Modified and no Cache-Control: without this the browser may
    // answer a read after a save from its heuristic cache (stale ETag → every save a 412).
    // no-cache still revalidates, so an unchanged answer costs a 304.
    cache: 'no-cache',
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const etag = response.headers.get('etag') ?? undefined;
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      const envelope = (await response.json()) as { error?: { message?: string } };
      if (typeof envelope.error?.message === 'string') message = envelope.error.message;
    } catch {
      // not JSON: keep the status line
    }
    if (response.status === 401) onUnauthorized();
    throw new ApiError(response.status, message, settingsPathOf(message), etag);
  }
  const body =
    response.status === 204 || response.status === 205
      ? (undefined as T)
      : options.text
        ? ((await response.text()) as T)
        : ((await response.json()) as T);
  return { status: response.status, body, etag };
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
