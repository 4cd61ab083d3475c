/**
 * A stored document as Livery answers it: its canonical JSON text, a strong version tag (the
 * ETag) that changes with every change of the text, and the time of its last change.
 */
export interface Representation {
  json: string;
  etag: string;
  /** ISO-8601 time of the last change. */
  lastModified: string;
}

/**
 * A write's precondition on the current version tag (from `If-Match`); checked inside the
 * serialized write, so that it holds for the state the write changes.
 */
export type Precondition = (currentEtag: string) => boolean;

export const always: Precondition = () => true;
