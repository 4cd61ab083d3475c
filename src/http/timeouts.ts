import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * The server's timeouts (docs/operations.md, "Request size and time"), as Fastify options:
 *
 * - `requestTimeout`: the whole request, headers and body, must arrive within REQUEST_TIMEOUT_MS
 *   of its first byte, or the client gets a 408 and the connection is closed (slow or stalled
 *   clients cannot hold connections and memory). It does not limit how long Livery takes to
 *   answer. Node checks it every `connectionsCheckingInterval` (its default, 30 s, would let a
 *   stalled client stay up to 30 s longer than allowed): here a tenth of the timeout, at most 1 s.
 * - `headersTimeout`: Node's 60 s, or REQUEST_TIMEOUT_MS if shorter. Node expects it to be no
 *   longer than `requestTimeout`: otherwise (Node 20) a client that sent its headers and stalls
 *   in its body is cut off only after `headersTimeout`. With REQUEST_TIMEOUT_MS=0 it still
 *   bounds the headers.
 * - `keepAliveTimeout` stays Fastify's 72 s, longer than the usual idle timeout (60 s) of load
 *   balancers, which must close idle connections first to never reuse one Livery is closing.
 */
export function serverTimeouts(config: Pick<Config, 'requestTimeoutMs'>) {
  const timeout = config.requestTimeoutMs;
  return {
    requestTimeout: timeout,
    http: {
      headersTimeout: timeout === 0 ? 60_000 : Math.min(60_000, timeout),
      connectionsCheckingInterval:
        timeout === 0 ? 1000 : Math.min(1000, Math.max(10, Math.floor(timeout / 10))),
    },
    clientErrorHandler,
  };
}

/**
 * Errors Node reports before a request reaches Fastify (a timeout, malformed HTTP, headers too
 * large): answered in GitBook's envelope, like every other error, then the connection is closed.
 * Otherwise as Fastify's default handler.
 */
function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  // A reset connection is gone already: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status: number;
  let message: string;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'The request was not received in time';
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'The request headers are too large';
  } else {
    status = 400;
    message = 'The request is not valid HTTP';
  }
  this.log.debug({ err: error }, `client error ${status}`);
  if (socket.writable) {
    const body = JSON.stringify({ error: { code: status, message } });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
