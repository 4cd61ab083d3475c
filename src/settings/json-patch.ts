import { isDeepStrictEqual } from 'node:util';
import type { JsonObject, JsonValue } from './merge.js';

/**
 * RFC 6902 JSON Patch, the subset history needs: `diff` writes `add`, `remove` and `replace`
 * operations; `applyPatch` applies those (and checks them as RFC 6902 does: a `remove` or
 * `replace` needs the member, an `add` an existing parent). Objects are compared member by member,
 * in sorted key order so that a patch does not depend on the order members were stored in; arrays
 * and other values are leaves, replaced whole (settings arrays are short lists whose order is
 * their meaning, e.g. header links). Pure functions over JSON values; inputs are never modified.
 */

export type JsonPatchOperation =
  | { op: 'add'; path: string; value: JsonValue }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: JsonValue };

export type JsonPatch = JsonPatchOperation[];

/** RFC 6901: `~` is written `~0` and `/` is written `~1` in a reference token. */
const escapeToken = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
const unescapeToken = (token: string) => token.replaceAll('~1', '/').replaceAll('~0', '~');

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operations that turn `from` into `to`; empty when they are equal. */
export function diff(from: JsonValue, to: JsonValue): JsonPatch {
  const patch: JsonPatch = [];
  // An explicit stack rather than recursion, so depth is no concern. `undefined` on one side: a
  // member only the other side has.
  const stack: [string, JsonValue | undefined, JsonValue | undefined][] = [['', from, to]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [path, a, b] = top;
    if (b === undefined) patch.push({ op: 'remove', path });
    else if (a === undefined) patch.push({ op: 'add', path, value: b });
    else if (!isObject(a) || !isObject(b)) {
      if (!isDeepStrictEqual(a, b)) patch.push({ op: 'replace', path, value: b });
    } else {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      // Pushed in reverse so that operations come out in key order.
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        const child = Object.hasOwn(a, key) ? a[key] : undefined;
        const other = Object.hasOwn(b, key) ? b[key] : undefined;
        stack.push([`${path}/${escapeToken(key)}`, child, other]);
      }
    }
  }
  return patch;
}

/** Applies `patch` to `document`; throws when an operation does not fit it (RFC 6902 §5). */
export function applyPatch(document: JsonValue, patch: JsonPatch): JsonValue {
  let result = structuredClone(document);
  for (const operation of patch) {
    if (operation.path === '') {
      if (operation.op === 'remove') throw new Error('cannot remove the whole document');
      result = structuredClone(operation.value);
      continue;
    }
    // RFC 6901 §3: a `~` is only ever `~0` or `~1`; anything else is no pointer at all.
    if (!operation.path.startsWith('/') || /~(?![01])/.test(operation.path)) {
      throw new Error(`invalid path ${operation.path}`);
    }
    const tokens = operation.path.slice(1).split('/').map(unescapeToken);
    const last = tokens.pop() as string;
    let parent: JsonValue = result;
    for (const token of tokens) {
      if (!isObject(parent) || !Object.hasOwn(parent, token)) {
        throw new Error(`path ${operation.path} does not exist`);
      }
      parent = parent[token] as JsonValue;
    }
    if (!isObject(parent)) throw new Error(`path ${operation.path} has no object parent`);
    const exists = Object.hasOwn(parent, last);
    if (operation.op !== 'add' && !exists) throw new Error(`path ${operation.path} does not exist`);
    if (operation.op === 'remove') delete parent[last];
    else Object.defineProperty(parent, last, descriptor(structuredClone(operation.value)));
  }
  return result;
}

// defineProperty rather than assignment: a member named `__proto__` stays a plain member.
const descriptor = (value: JsonValue): PropertyDescriptor => ({
  value,
  writable: true,
  enumerable: true,
  configurable: true,
});
