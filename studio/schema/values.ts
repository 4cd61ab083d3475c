import { INITIAL } from './hints.js';
import { type Json, patternOf } from './paths.js';
import { COLOR, type FieldDescriptor, type JsonSchema, withoutNull } from './walk.js';

/** What a control starts from and checks in the browser, both read from the field's schema. */

/** A new value for a field the user adds: a hint's, else the least the schema accepts. */
export function initialValue(schema: JsonSchema, path: string, hinted = true): Json {
  const pattern = patternOf(path);
  const hint = hinted
    ? (INITIAL[pattern] ??
      Object.entries(INITIAL).find(
        ([key]) => key.startsWith('*') && pattern.endsWith(key.slice(1)),
      )?.[1])
    : undefined;
  if (hint !== undefined) return hint;
  const plain = withoutNull(schema).schema;
  if (plain.const !== undefined) return plain.const;
  if (plain.enum !== undefined) return plain.enum[0] ?? null;
  const branch = plain.oneOf?.[0] ?? plain.anyOf?.[0];
  if (branch !== undefined) return initialValue(branch, path);
  switch (plain.type) {
    case 'object': {
      const value: Record<string, Json> = {};
      for (const key of plain.required ?? []) {
        const inner = plain.properties?.[key];
        if (inner !== undefined) value[key] = initialValue(inner, `${path}.${key}`);
      }
      return value;
    }
    case 'array': {
      const items = plain.items;
      const count = plain.minItems ?? 0;
      return items === undefined
        ? []
        : Array.from({ length: count }, (_, i) => initialValue(items, `${path}.${i}`));
    }
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return plain.minimum ?? 0;
    default:
      return plain.pattern !== undefined && COLOR.test(plain.pattern) ? '#000000' : '';
  }
}

/** HTML constraint attributes a text-like control takes from its schema. */
export function constraintsOf(field: FieldDescriptor): Record<string, string | number | boolean> {
  const { schema } = field;
  const attributes: Record<string, string | number | boolean> = {};
  if (schema.pattern !== undefined) {
    // The browser anchors `pattern` at both ends; a prefix rule ("^https?://") must allow a tail.
    attributes.pattern = schema.pattern.endsWith('$') ? schema.pattern : `${schema.pattern}.*`;
  }
  if (schema.maxLength !== undefined) attributes.maxLength = schema.maxLength;
  if (schema.minLength !== undefined) attributes.minLength = schema.minLength;
  if (schema.minimum !== undefined) attributes.min = schema.minimum;
  if (schema.maximum !== undefined) attributes.max = schema.maximum;
  if (!field.optional && ((schema.minLength ?? 0) > 0 || schema.pattern !== undefined)) {
    attributes.required = true;
  }
  return attributes;
}
