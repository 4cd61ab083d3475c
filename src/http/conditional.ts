import type { FastifyReply } from 'fastify';

/**
 * RFC 9110 conditional requests over strong ETags.
 * - `If-None-Match` (reads) uses the weak comparison: `W/"x"` matches `"x"`.
 * - `If-Match` (writes) uses the strong comparison; `*` matches any existing representation.
 */

function tags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return tags(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

export function ifMatchHolds(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  return tags(header).some((tag) => tag === '*' || tag === etag);
}

export interface Representation {
  json: string;
  etag: string;
  /** ISO-8601 time of the last change. */
  lastModified: string;
}

// Representations are cached and sent many times: their HTTP date and their UTF-8 bytes are
// computed once, not on every response.
const encoded = new WeakMap<Representation, { lastModified: string; body: Buffer }>();

function encodingOf(representation: Representation) {
  let found = encoded.get(representation);
  if (found === undefined) {
    found = {
      lastModified: new Date(representation.lastModified).toUTCString(),
      body: Buffer.from(representation.json, 'utf8'),
    };
    encoded.set(representation, found);
  }
  return found;
}

export function setValidators(reply: FastifyReply, representation: Representation): FastifyReply {
  return reply
    .header('etag', representation.etag)
    .header('last-modified', encodingOf(representation).lastModified);
}

/** Sends a JSON document that is already serialized (and cached) as is. */
export function sendRepresentation(reply: FastifyReply, representation: Representation) {
  return setValidators(reply, representation)
    .type('application/json; charset=utf-8')
    .send(encodingOf(representation).body);
}
