import type { FastifyReply } from 'fastify';
import { always, type Precondition, type Representation } from '../versioned.js';

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

/** The precondition an `If-Match` header sets (none when it is absent). */
export function ifMatch(header: string | undefined): Precondition {
  if (header === undefined) return always;
  const accepted = tags(header);
  return (etag) => accepted.some((tag) => tag === '*' || tag === etag);
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
