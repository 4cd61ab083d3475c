import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// Short, printable, no separators that could split a log line or a header.
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's `X-Request-Id` when it is sane, so one id follows a request across systems. */
export function requestIdFrom(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE.test(incoming) ? incoming : randomUUID();
}
