/**
 * The override rules, as pure functions over validated JSON and the settings' `Shape`:
 *
 * - a field absent from a patch leaves the stored value unchanged;
 * - a group (see `Shape`) merges field by field; anything else (strings, booleans, `{light, dark}`
 *   values, favicon, links, arrays) is a leaf and replaces the stored value whole;
 * - `null` removes the field from the override, so the site value (or, for PUT, the default)
 *   shows through, except `title`, where a stored `null` means "no title: use the content title".
 *
 * Results share unchanged leaf values with their inputs; callers treat them as immutable.
 *
 * This file imports nothing: the studio's bundle imports it as is (over the shape the server
 * sends with the schema), so the browser and the server apply the one set of rules. The typed
 * forms over the settings document are in merge.ts.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * Nested field names of the groups in a schema. `{styling: {sidebar: {}}, header: {}, …}` says
 * that `styling`, `styling.sidebar` and `header` merge field by field; every other field is a leaf.
 */
export interface Shape {
  readonly [field: string]: Shape;
}

/** Top-level fields whose `null` is a value to keep rather than a removal. */
const NULL_IS_A_VALUE: ReadonlySet<string> = new Set(['title']);
const NO_FIELDS: ReadonlySet<string> = new Set();

// Validation rejects unknown fields before any merge; this guard keeps the functions safe on
// their own against keys that would reach an object's prototype.
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The stored override after a PATCH body is merged into it. */
export function applyPatch(stored: JsonObject, patch: JsonObject, shape: Shape): JsonObject {
  return patchLevel(stored, patch, shape, NULL_IS_A_VALUE);
}

function patchLevel(
  stored: JsonObject,
  patch: JsonObject,
  shape: Shape,
  nullIsAValue: ReadonlySet<string>,
): JsonObject {
  const result: JsonObject = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    assertSafeKey(key);
    const groupShape = shape[key];
    if (value === null) {
      if (nullIsAValue.has(key)) result[key] = null;
      else delete result[key];
    } else if (groupShape !== undefined && isObject(value)) {
      const current = result[key];
      const merged = patchLevel(isObject(current) ? current : {}, value, groupShape, NO_FIELDS);
      // An emptied group is no override at all: the stored form stays canonical.
      if (Object.keys(merged).length === 0) delete result[key];
      else result[key] = merged;
    } else {
      result[key] = value;
    }
  }
  return result;
}

/** The effective settings of a variant: the site's settings with the override applied. */
export function resolve(base: JsonObject, override: JsonObject, shape: Shape): JsonObject {
  const result: JsonObject = { ...base };
  for (const [key, value] of Object.entries(override)) {
    assertSafeKey(key);
    const groupShape = shape[key];
    if (value === null) {
      delete result[key];
    } else if (groupShape !== undefined && isObject(value)) {
      const current = base[key];
      result[key] = resolve(isObject(current) ? current : {}, value, groupShape);
    } else {
      result[key] = value;
    }
  }
  return result;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function assertSafeKey(key: string): void {
  if (UNSAFE_KEYS.has(key)) throw new TypeError(`Refusing to merge the key ${key}`);
}
