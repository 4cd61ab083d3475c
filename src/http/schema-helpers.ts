import { type Static, type TSchema, Type } from 'typebox';

/**
 * Generic TypeBox helpers for request and response schemas, shared by every module and by the
 * settings document (src/settings/): they import nothing but TypeBox.
 */

type JsonSchema = Record<string, unknown>;

/** A string enumeration with `type: string`, so a wrong type and a wrong value read differently. */
export function Enum<const V extends readonly string[]>(values: V, description?: string) {
  return Type.Unsafe<V[number]>({
    type: 'string',
    enum: [...values],
    ...(description === undefined ? {} : { description }),
  });
}

/** Adds `null` to what a schema accepts, keeping single-type schemas free of `anyOf`. */
export function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (typeof type === 'string' && schema.oneOf === undefined && schema.anyOf === undefined) {
    const widened: JsonSchema = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    return widened;
  }
  return { anyOf: [{ type: 'null' }, schema] };
}

/** `schema` or `null`, as a TypeBox type (e.g. `proxy: null` removes the proxy). */
export function OrNull<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>(nullable({ ...(schema as JsonSchema) }));
}
