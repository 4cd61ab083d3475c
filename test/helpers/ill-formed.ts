import type { Schema } from './openapi-operations.js';

/**
 * Ill-formed text for the bad-input tests (src/well-formed-text.ts): lone surrogates, and how to
 * put one in every string field of a body (from its JSON Schema) or of a stored document.
 */

/** A high surrogate without its low one, between letters. */
export const LONE_HIGH = 'a\ud800b';
/** A low surrogate alone. */
export const LONE_LOW = '\udfffz';
/** What a client encoding U+D800 as UTF-8 would put in a URL ("WTF-8"). */
export const ENCODED_LONE = 'a%ED%A0%80b';

export const SURROGATE_MESSAGE =
  ' must not contain a lone surrogate (U+D800 to U+DFFF without its pair)';

/** One string field of a schema: where it is, as the API names it, and a body holding `text` there. */
export interface StringField {
  where: string;
  body(text: string): unknown;
}

/**
 * Every string field a body of `schema` may have (each alternative of a union, the first item of
 * each array, one key of each map), named as the API's messages name them (`.header.links[0].title`,
 * appended to `body`). Bodies hold only the path to the field: the guard refuses them before any
 * validation, whatever else they lack.
 */
export function stringFields(schema: Schema, depth = 0): StringField[] {
  if (depth > 12) return [];
  const fields = new Map<string, StringField>();
  const add = (list: StringField[]) => {
    for (const field of list) if (!fields.has(field.where)) fields.set(field.where, field);
  };
  for (const alternative of [...asList(schema.anyOf), ...asList(schema.oneOf)]) {
    add(stringFields(alternative, depth + 1));
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (types.includes('string')) add([{ where: '', body: (text) => text }]);
  if (types.includes('array') && typeof schema.items === 'object') {
    add(
      stringFields(schema.items as Schema, depth + 1).map((inner) => ({
        where: `[0]${inner.where}`,
        body: (text: string) => [inner.body(text)],
      })),
    );
  }
  if (types.includes('object') || schema.properties !== undefined) {
    for (const [key, property] of Object.entries(
      (schema.properties ?? {}) as Record<string, Schema>,
    )) {
      add(nested(key, stringFields(property, depth + 1)));
    }
    const keys = ((schema.propertyNames as Schema | undefined)?.enum ?? []) as string[];
    const values = schema.additionalProperties;
    if (keys[0] !== undefined && typeof values === 'object') {
      add(nested(keys[0], stringFields(values as Schema, depth + 1)));
    }
  }
  return [...fields.values()];
}

const asList = (value: unknown) => (Array.isArray(value) ? (value as Schema[]) : []);

function nested(key: string, inner: StringField[]): StringField[] {
  return inner.map((field) => ({
    where: `.${key}${field.where}`,
    body: (text: string) => ({ [key]: field.body(text) }),
  }));
}

export type JsonPath = (string | number)[];

/** Every string in a JSON document, with its path. */
export function stringLeaves(
  value: unknown,
  path: JsonPath = [],
): { path: JsonPath; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value))
    return value.flatMap((item, index) => stringLeaves(item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]));
  }
  return [];
}

/** A copy of `document` with `text` at `path`. */
export function withText(document: unknown, path: JsonPath, text: string): unknown {
  const copy = structuredClone(document) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1] as string | number] = text;
  return copy;
}

/** `socialAccounts[0].handle` */
export function pathName(path: JsonPath): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('');
}
