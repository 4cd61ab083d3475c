/**
 * JSON Patch (as history writes it) → readable field changes: the dotted settings path, the value
 * before (looked up in the document the patch starts from, when known) and after.
 */
import type { PatchOperation } from '../../api/history';
import type { FieldChange, Json } from '../../state/editor';

/** "/styling/primaryColor/light" → "styling.primaryColor.light" (RFC 6901 escapes undone). */
export function dottedPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function valueAt(document: Json | undefined, pointer: string): Json | undefined {
  let node: Json | undefined = document;
  for (const token of dottedPath(pointer).split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(token)] : node[token];
  }
  return node;
}

export function readableChanges(patch: PatchOperation[], before?: Json): FieldChange[] {
  return patch.map((operation) => ({
    path: dottedPath(operation.path) || '(everything)',
    before: before === undefined ? undefined : valueAt(before, operation.path),
    after: operation.op === 'remove' ? undefined : operation.value,
  }));
}

/** A short text for a value: strings as they are, anything else as compact JSON. */
export function shortValue(value: Json | undefined): string {
  if (value === undefined) return '(not set)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
