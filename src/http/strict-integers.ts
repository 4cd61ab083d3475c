import type { ErrorObject } from 'ajv';

/**
 * Integers in a path or a query string are text, which the validator coerces with JavaScript's
 * `Number`: `0x1`, `1e0`, `+1` and ` 1` would all read as 1, and 2147483648 would pass to
 * PostgreSQL, whose `integer` columns (revision numbers, positions) hold 32 bits, and fail there
 * with a 500 that SQLite never gives. So before the validator runs, every integer parameter must
 * be decimal digits (an optional `-`, no sign `+`, no spaces, no exponent, no hexadecimal) and fit
 * in 32 bits: anything else is a 400 naming it, on both backends (docs/api.md, "Bad input").
 */

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

const DECIMAL_INTEGER = /^-?[0-9]+$/;

type Schema = Record<string, unknown>;

/** The names of a params or querystring schema's integer properties. */
export function integerProperties(schema: unknown): string[] {
  const properties = (schema as Schema | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  return Object.entries(properties as Record<string, Schema>)
    .filter(([, property]) => allowsInteger(property))
    .map(([name]) => name);
}

function allowsInteger(schema: Schema): boolean {
  const type = schema.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) return true;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return alternatives?.some(allowsInteger) ?? false;
}

/**
 * The first integer property of `data` (params or query, as received: text, or a repeated query
 * parameter's texts) that is not strict decimal within 32 bits, as the validator's error.
 */
export function strictIntegerError(
  data: unknown,
  names: readonly string[],
): ErrorObject | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  for (const name of names) {
    const value = (data as Record<string, unknown>)[name];
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text !== 'string') continue;
      const base = { instancePath: `/${name}`, schemaPath: '#/strict-integer', data: text };
      if (!DECIMAL_INTEGER.test(text)) {
        return { ...base, keyword: 'type', params: { type: 'integer' } };
      }
      const number = Number(text);
      if (number > INT32_MAX) return { ...base, keyword: 'maximum', params: { limit: INT32_MAX } };
      if (number < INT32_MIN) return { ...base, keyword: 'minimum', params: { limit: INT32_MIN } };
    }
  }
  return undefined;
}
