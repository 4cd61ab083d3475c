import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface RawResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A GET over a real connection, the path sent exactly as written. `app.inject` parses its URL
 * with WHATWG URL, which resolves `..` and `%2E%2E` segments before the server sees them, and
 * Node's HTTP server answers some headers (`Expect`) before any route: a browser or curl
 * (`--path-as-is`) sends them as they are. The app listens on a free loopback port, once.
 */
export async function rawRequest(
  app: FastifyInstance,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  const raw = await rawGet(`http://127.0.0.1:${address.port}`, path, headers);
  return { ...raw, body: raw.bytes.toString('utf8') };
}

/** What a raw GET answered: the body's bytes untouched (still compressed when they were). */
export interface RawBytes {
  statusCode: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

/** A GET of `path`, sent exactly as written, to a server at `origin` (`http://host:port`). */
export function rawGet(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawBytes> {
  const { hostname: host, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host, port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers,
          bytes: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
