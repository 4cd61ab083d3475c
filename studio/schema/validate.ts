import { isObject, type Json } from './paths.js';
import type { JsonSchema } from './walk.js';

/**
 * A quick check of a draft against the simple rules of its schema (patterns, lengths, bounds,
 * enumerations, required fields), so the preview does not ask the server to render a color
 * still being typed. The server stays the authority: anything this does not check, it does.
 * Answers the dotted path of the first problem, or undefined.
 */
export function firstInvalid(
  schema: JsonSchema,
  value: Json | undefined,
  path = '',
): string | undefined {
  if (value === undefined) return undefined;
  const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  if (value === null) return allows(schema, 'null') ? undefined : path;
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined) {
    return branches.some((branch) => firstInvalid(branch, value, path) === undefined)
      ? undefined
      : path;
  }
  if (schema.type !== undefined && !typesOf(value).some((type) => allows(schema, type)))
    return path;
  if (schema.const !== undefined && value !== schema.const) return path;
  if (schema.enum !== undefined && !schema.enum.includes(value)) return path;
  if (typeof value === 'string') {
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) return path;
    const format = schema.format === undefined ? undefined : FORMATS[schema.format];
    if (format !== undefined && !format(value)) return path;
    if (
      value.length < (schema.minLength ?? 0) ||
      value.length > (schema.maxLength ?? Number.POSITIVE_INFINITY)
    ) {
      return path;
    }
  } else if (typeof value === 'number') {
    if (
      value < (schema.minimum ?? Number.NEGATIVE_INFINITY) ||
      value > (schema.maximum ?? Number.POSITIVE_INFINITY)
    ) {
      return path;
    }
  } else if (Array.isArray(value)) {
    const items = schema.items;
    if (items === undefined) return undefined;
    for (const [index, item] of value.entries()) {
      const found = firstInvalid(items, item, at(index));
      if (found !== undefined) return found;
    }
  } else if (isObject(value)) {
    for (const key of schema.required ?? []) if (value[key] === undefined) return at(key);
    const extra =
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    for (const [key, inner] of Object.entries(value)) {
      const property = schema.properties?.[key] ?? extra;
      const found = property === undefined ? undefined : firstInvalid(property, inner, at(key));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The string formats the settings use, roughly as the server's validator reads them. */
const FORMATS: Record<string, (value: string) => boolean> = {
  uri: (value) => URL.canParse(value) && new URL(value).host !== '',
  emoji: (value) => value !== '',
};

function allows(schema: JsonSchema, type: string): boolean {
  const { type: declared } = schema;
  if (Array.isArray(declared)) return declared.includes(type);
  if (declared === type) return true;
  return (schema.anyOf ?? schema.oneOf ?? []).some((branch) => allows(branch, type));
}

/** The JSON Schema types a value has (an integer is a number too). */
function typesOf(value: Json): string[] {
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number')
    return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [value === null ? 'null' : typeof value];
}
