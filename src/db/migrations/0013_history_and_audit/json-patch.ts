import { isDeepStrictEqual } from 'node:util';

// Frozen copy (issue 26) of `diff` from src/modules/customization/json-patch.ts as it was when
// migration 0013 shipped (commit a91c924): a migration imports nothing live (see defaults.ts).
// Never edit it.

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * RFC 6902 JSON Patch, the subset history needs: `diff` writes `add`, `remove` and `replace`
 * operations. Objects are compared member by member,
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
