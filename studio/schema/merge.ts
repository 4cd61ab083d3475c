import { isObject, type JsonObject, splitPath } from './paths.js';

/**
 * The override rules of docs/customization.md, over the `shape` the server sends with the schema
 * (the server's merge.ts imports TypeBox, far too heavy for the browser): groups merge field by
 * field, anything else is a leaf replaced whole, `null` removes a field from the override.
 */

/** Nested names of the fields that are groups; anything not in it is a leaf. */
export interface Shape {
  readonly [field: string]: Shape;
}

/** Top-level fields whose `null` is a stored value ("no title"), not a removal. */
const NULL_IS_A_VALUE = new Set(['title']);

/** The stored override after a PATCH body is merged into it. */
export function applyPatch(
  stored: JsonObject,
  patch: JsonObject,
  shape: Shape,
  top = true,
): JsonObject {
  const result: JsonObject = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const group = shape[key];
    if (value === null) {
      if (top && NULL_IS_A_VALUE.has(key)) result[key] = null;
      else delete result[key];
    } else if (group !== undefined && isObject(value)) {
      const current = result[key];
      const merged = applyPatch(isObject(current) ? current : {}, value, group, false);
      if (Object.keys(merged).length === 0) delete result[key];
      else result[key] = merged;
    } else {
      result[key] = value;
    }
  }
  return result;
}

/** A variant's effective settings: the site's settings with the override applied. */
export function resolve(site: JsonObject, override: JsonObject, shape: Shape): JsonObject {
  const result: JsonObject = { ...site };
  for (const [key, value] of Object.entries(override)) {
    const group = shape[key];
    if (value === null) delete result[key];
    else if (group !== undefined && isObject(value)) {
      const current = site[key];
      result[key] = resolve(isObject(current) ? current : {}, value, group);
    } else result[key] = value;
  }
  return result;
}

/**
 * The leaf a path lies in: the path cut after its first segment that is not a group
 * ("styling.primaryColor.light" → "styling.primaryColor"; "header.links.0.title" →
 * "header.links"). A group's own path is answered as is.
 */
export function leafPathOf(path: string, shape: Shape): string {
  const keys = splitPath(path);
  let node: Shape | undefined = shape;
  for (let i = 0; i < keys.length; i++) {
    node = node?.[keys[i] as string];
    if (node === undefined) return keys.slice(0, i + 1).join('.');
  }
  return path;
}

/** Whether a path names a group (merged field by field) rather than a leaf. */
export function isGroupPath(path: string, shape: Shape): boolean {
  let node: Shape | undefined = shape;
  for (const key of splitPath(path)) node = node?.[key];
  return node !== undefined;
}
