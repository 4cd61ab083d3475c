import { type TObject, type TProperties, type TSchema, Type } from 'typebox';
import { nullable } from '../http/schema-helpers.js';
import type { Shape } from './override-rules.js';

/**
 * Building blocks for the customization schemas. The settings object is one tree of *groups*
 * (objects whose fields merge one by one) and *leaves* (values replaced as a unit, including
 * leaf objects such as `{light, dark}` colors). Which objects are groups is recorded here, so the
 * override merge and the PUT/PATCH body schemas are derived from the one tree.
 */

// Markers are non-enumerable symbol properties: they survive TypeBox's `Optional` (which copies
// the schema) and never reach JSON Schema output, Ajv or the OpenAPI document.
const GROUP = Symbol('livery.group');
/** Groups whose required fields stay required in a PATCH: the value must be complete. */
const COMPLETE = Symbol('livery.complete');

const mark = (schema: TSchema, marker: symbol) =>
  Object.defineProperty(schema, marker, { value: true, enumerable: false });
const groups = { has: (schema: TSchema) => GROUP in schema };
/** A leaf whose PUT/PATCH form differs from its stored form (see `withInputForm`). */
const INPUT = Symbol('livery.input');
const completeGroups = { has: (schema: TSchema) => COMPLETE in schema };

export interface GroupOptions {
  description?: string;
  /** In PUT/PATCH bodies, the group must still be given whole (e.g. an announcement). */
  complete?: boolean;
}

export function Group<P extends TProperties>(
  properties: P,
  options: GroupOptions = {},
): TObject<P> {
  const schema = Type.Object(properties, {
    additionalProperties: false,
    ...(options.description === undefined ? {} : { description: options.description }),
  });
  mark(schema, GROUP);
  if (options.complete) mark(schema, COMPLETE);
  return schema;
}

/** A closed object: unknown fields are rejected, never dropped. */
export function Leaf<P extends TProperties>(properties: P, description?: string): TObject<P> {
  return Type.Object(properties, {
    additionalProperties: false,
    ...(description === undefined ? {} : { description }),
  });
}

/**
 * Declares what a leaf accepts in PUT and PATCH bodies when that differs from what is stored and
 * answered (e.g. `pageActions`, whose input may be either API generation's form): the service
 * turns the input form into the stored form before any merge.
 */
export function withInputForm<T extends TSchema>(schema: T, input: JsonSchema): T {
  return Object.defineProperty(schema, INPUT, { value: input, enumerable: false });
}

function inputFormOf(schema: TSchema): JsonSchema {
  const input = (schema as unknown as Record<symbol, JsonSchema | undefined>)[INPUT];
  return input ?? plain(schema);
}

export function shapeOf(schema: TSchema): Shape {
  const shape: Record<string, Shape> = {};
  for (const [key, property] of Object.entries(propertiesOf(schema))) {
    if (groups.has(property)) shape[key] = shapeOf(property);
  }
  return Object.freeze(shape);
}

type JsonSchema = Record<string, unknown>;

/**
 * The body schema that sets some fields of a group tree: every field becomes optional and may be
 * `null` (meaning "reset": back to the default in a PUT, back to the site's value in a PATCH);
 * groups recurse, leaves stay whole. Fields in `forbidden` are rejected with their description as
 * the reason. No `default` is introduced anywhere: absent must stay distinguishable from set.
 */
export function patchSchemaOf(
  schema: TSchema,
  forbidden: Readonly<Record<string, string>> = {},
): JsonSchema {
  const complete = completeGroups.has(schema);
  const required = complete ? ((schema as { required?: string[] }).required ?? []) : [];
  const properties: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(propertiesOf(schema))) {
    const inner = groups.has(property) ? patchSchemaOf(property) : inputFormOf(property);
    properties[key] = required.includes(key) ? inner : nullable(inner);
  }
  for (const [key, reason] of Object.entries(forbidden)) {
    properties[key] = { not: {}, description: reason };
  }
  return {
    type: 'object',
    ...descriptionOf(schema),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function propertiesOf(schema: TSchema): Record<string, TSchema> {
  return ((schema as { properties?: Record<string, TSchema> }).properties ?? {}) as Record<
    string,
    TSchema
  >;
}

function descriptionOf(schema: TSchema): JsonSchema {
  const { description } = schema as { description?: string };
  return description === undefined ? {} : { description };
}

/** A copy as plain JSON Schema (TypeBox keeps its own markers as non-enumerable properties). */
function plain(schema: TSchema): JsonSchema {
  return { ...(schema as JsonSchema) };
}
