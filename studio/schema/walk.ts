import type { Shape } from '../../src/settings/override-rules.js';
import { HIDDEN, KEY_LABELS, LABELS, SECTIONS, WIDGETS } from './hints.js';
import { isWithin, type Json, patternOf } from './paths.js';

/**
 * Turns the JSON Schema of the settings (GET /studio/schema.json) into field descriptors: which
 * control edits which dotted path. The kind of a control is inferred from the schema alone, so a
 * field the server gains appears in the form without UI code; hints.ts only names and orders.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  maxProperties?: number;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  description?: string;
  discriminator?: { propertyName: string };
}

export type Kind =
  /** `{light, dark}` of one inner kind (colors, URLs, code themes) */
  | 'pair'
  | 'color'
  | 'enum'
  | 'boolean'
  | 'url'
  | 'text'
  | 'textarea'
  | 'number'
  /** one of a list of names, or an object (fonts: a default font or a font definition) */
  | 'nameOrObject'
  /** an object holding at most one of its fields (favicon: icon or emoji or none) */
  | 'oneField'
  /** language → text */
  | 'localized'
  /** objects told apart by a discriminator (link targets) */
  | 'union'
  | 'list'
  | 'object'
  /** nothing better known: edited as JSON text */
  | 'json';

export interface FieldDescriptor {
  /** Dotted path in the settings, with indexes for list items ("header.links.0.title"). */
  path: string;
  key: string;
  kind: Kind;
  /** The field's schema, without the `null` a PATCH body adds. */
  schema: JsonSchema;
  label: string;
  /** The field may be absent. */
  optional: boolean;
  /** The field may hold `null` (a header link with no target). */
  nullable: boolean;
  /** The optional group the field belongs to (announcement), if any: absent until added. */
  within?: string;
}

export interface Section {
  id: string;
  title: string;
  fields: FieldDescriptor[];
}

/** The server's color pattern starts `^#`. */
export const COLOR = /^\^#/;
/** The server's URL patterns spell http case-insensitively: `[hH][tT][tT][pP]`. */
const HTTP = /\[hH\]\[tT\]/;

export const humanize = (key: string): string => {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** `schema` without the `null` alternative, and whether it had one. */
export function withoutNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const { anyOf, type } = schema;
  if (anyOf?.some((s) => s.type === 'null')) {
    const rest = anyOf.filter((s) => s.type !== 'null');
    if (rest.length === 1 && rest[0] !== undefined) return { schema: rest[0], nullable: true };
    return { schema: { ...schema, anyOf: rest }, nullable: true };
  }
  if (Array.isArray(type) && type.includes('null')) {
    const types = type.filter((t) => t !== 'null');
    const single = types.length === 1 && types[0] !== undefined ? types[0] : types;
    const enums = schema.enum?.filter((v) => v !== null);
    return {
      schema: { ...schema, type: single, ...(enums === undefined ? {} : { enum: enums }) },
      nullable: true,
    };
  }
  return { schema, nullable: false };
}

export function kindOf(schema: JsonSchema, path = ''): Kind {
  const widget = WIDGETS[patternOf(path)];
  if (widget !== undefined) return widget;
  const { properties, type } = schema;
  if (schema.oneOf !== undefined && schema.discriminator !== undefined) return 'union';
  if (schema.anyOf !== undefined) {
    const named = schema.anyOf.some((s) => s.enum !== undefined);
    const object = schema.anyOf.some((s) => s.type === 'object');
    return named && object ? 'nameOrObject' : 'json';
  }
  if (type === 'object') {
    const keys = Object.keys(properties ?? {});
    if (keys.length === 2 && keys.includes('light') && keys.includes('dark')) return 'pair';
    if (schema.propertyNames?.enum !== undefined) return 'localized';
    if (schema.maxProperties === 1 && keys.length > 1) return 'oneField';
    return keys.length > 0 ? 'object' : 'json';
  }
  if (type === 'array') return schema.items === undefined ? 'json' : 'list';
  if (type === 'boolean') return 'boolean';
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'string') {
    if (schema.enum !== undefined) return 'enum';
    if (schema.pattern !== undefined && COLOR.test(schema.pattern)) return 'color';
    if (schema.format === 'uri' || (schema.pattern !== undefined && HTTP.test(schema.pattern))) {
      return 'url';
    }
    return 'text';
  }
  return 'json';
}

/** The label of a path: a hint, else a group's lone switch takes its description, else the key. */
export function labelOf(path: string, schema: JsonSchema): string {
  const pattern = patternOf(path);
  const key = pattern.split('.').pop() ?? path;
  const hint = LABELS[pattern] ?? KEY_LABELS[key];
  if (hint !== undefined) return hint;
  if (key === 'enabled' && schema.description !== undefined) return schema.description;
  if (key === '*') return `Item ${Number(path.split('.').pop()) + 1}`;
  return humanize(key);
}

export function describe(
  key: string,
  raw: JsonSchema,
  path: string,
  optional: boolean,
): FieldDescriptor {
  const { schema, nullable } = withoutNull(raw);
  return {
    path,
    key,
    kind: kindOf(schema, path),
    schema,
    label: labelOf(path, schema),
    optional,
    nullable,
  };
}

/** The fields of an object value at `path` (leaf objects: a link, a font face, …). */
export function childrenOf(schema: JsonSchema, path: string): FieldDescriptor[] {
  const required = schema.required ?? [];
  return Object.entries(schema.properties ?? {})
    .filter(([key]) => !HIDDEN.includes(patternOf(`${path}.${key}`)))
    .map(([key, inner]) => describe(key, inner, `${path}.${key}`, !required.includes(key)));
}

/** Every leaf field of the settings, in schema order; groups are flattened. */
export function leavesOf(
  schema: JsonSchema,
  shape: Shape,
  path = '',
  within?: string,
): FieldDescriptor[] {
  const required = schema.required ?? [];
  const fields: FieldDescriptor[] = [];
  for (const [key, raw] of Object.entries(schema.properties ?? {})) {
    const at = path === '' ? key : `${path}.${key}`;
    if (HIDDEN.includes(patternOf(at))) continue;
    const group = shape[key];
    const optional = !required.includes(key);
    if (group !== undefined) {
      const inner = withoutNull(raw).schema;
      fields.push(...leavesOf(inner, group, at, within ?? (optional ? at : undefined)));
    } else {
      const field = describe(key, raw, at, optional);
      fields.push(within === undefined ? field : { ...field, within });
    }
  }
  return fields;
}

/**
 * The form's sections: the hints' sections in order, each taking the fields at or below its
 * paths; fields no hint names get a section of their own top-level key.
 */
export function sectionsOf(
  schema: JsonSchema,
  shape: Shape,
  hidden: readonly string[] = [],
): Section[] {
  const remaining = leavesOf(schema, shape).filter(
    (field) => !hidden.some((prefix) => isWithin(field.path, prefix)),
  );
  const sections: Section[] = [];
  for (const hint of SECTIONS) {
    const fields: FieldDescriptor[] = [];
    for (const prefix of hint.paths) {
      for (const field of remaining.filter((f) => isWithin(f.path, prefix))) {
        fields.push(field);
        remaining.splice(remaining.indexOf(field), 1);
      }
    }
    if (fields.length > 0) sections.push({ id: hint.id, title: hint.title, fields });
  }
  for (const field of remaining) {
    const top = field.path.split('.')[0] ?? field.path;
    const section = sections.find((s) => s.id === top);
    if (section === undefined) sections.push({ id: top, title: humanize(top), fields: [field] });
    else section.fields.push(field);
  }
  return sections;
}

/** The schema of the value at a path (through groups, objects, lists and unions' branches). */
export function schemaAt(schema: JsonSchema, path: string[]): JsonSchema | undefined {
  let current: JsonSchema | undefined = schema;
  for (const key of path) {
    if (current === undefined) return undefined;
    const plain: JsonSchema = withoutNull(current).schema;
    if (plain.type === 'array') current = plain.items;
    else if (plain.properties?.[key] !== undefined) current = plain.properties[key];
    else if (
      plain.additionalProperties !== undefined &&
      typeof plain.additionalProperties === 'object'
    ) {
      current = plain.additionalProperties;
    } else {
      const branches = plain.oneOf ?? plain.anyOf ?? [];
      current = branches.find((b) => b.properties?.[key] !== undefined)?.properties?.[key];
    }
  }
  return current;
}
