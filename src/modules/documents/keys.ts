import type { JsonDocument } from './model.js';

/**
 * The document as answered by the API: every block, inline and fragment with a `key`, unique in
 * the document and the same for the same Markdown (in reading order). GitBook's documents carry
 * keys, and its renderer needs them (it refuses tabs without one and keys React lists by them).
 * Added only at the API's edge: the model itself, its Markdown and its HTML need none.
 */
export function withKeys(document: JsonDocument): JsonDocument {
  let next = 0;
  const visit = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    const { nodes, fragments, ...rest } = node as {
      object?: string;
      nodes?: unknown[];
      fragments?: unknown[];
    };
    const keyed: Record<string, unknown> =
      rest.object === 'block' || rest.object === 'inline' || rest.object === 'fragment'
        ? { ...rest, key: (next++).toString(36) }
        : { ...rest };
    if (nodes !== undefined) keyed.nodes = nodes.map(visit);
    if (fragments !== undefined) keyed.fragments = fragments.map(visit);
    return keyed;
  };
  return { ...document, nodes: document.nodes.map(visit) as JsonDocument['nodes'] };
}
