/**
 * Dotted settings paths ("styling.primaryColor.light", "header.links.0.title") over plain JSON:
 * read, immutable write, and the comparisons the editor model needs. Pure, no DOM: the unit tests
 * import it directly.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const splitPath = (path: string): string[] => (path === '' ? [] : path.split('.'));

/** Paths never walk into an object's prototype. */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

export function getAt(value: Json | undefined, path: string): Json | undefined {
  let current = value;
  for (const key of splitPath(path)) {
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}

/**
 * A copy of `root` with `value` at `path` (`undefined` removes the field, or the array item),
 * creating the objects on the way; everything off the path is shared with `root`.
 */
export function setAt(root: Json | undefined, path: string, value: Json | undefined): Json {
  return setKeys(root, splitPath(path), value) ?? {};
}

function setKeys(
  node: Json | undefined,
  keys: string[],
  value: Json | undefined,
): Json | undefined {
  const [key, ...rest] = keys;
  if (key === undefined) return value;
  if (UNSAFE.has(key)) throw new TypeError(`Refusing the path segment ${key}`);
  if (Array.isArray(node) && /^\d+$/.test(key)) {
    const index = Number(key);
    const inner = setKeys(node[index], rest, value);
    const copy = [...node];
    if (inner === undefined) copy.splice(index, 1);
    else copy[index] = inner;
    return copy;
  }
  const object: JsonObject = isObject(node) ? { ...node } : {};
  const inner = setKeys(object[key], rest, value);
  if (inner === undefined) delete object[key];
  else object[key] = inner;
  return object;
}

export function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
    );
  }
  return false;
}

/** `path` equals `prefix` or lies below it ("header.links.0" is within "header.links"). */
export const isWithin = (path: string, prefix: string): boolean =>
  prefix === '' || path === prefix || path.startsWith(`${prefix}.`);

/** A path with its array indexes replaced by `*` ("header.links.0.title" → "header.links.*.title"). */
export const patternOf = (path: string): string => path.replace(/\.\d+(?=\.|$)/g, '.*');
