import fc from 'fast-check';
import { LINK_URL_PATTERN } from '../../src/settings/content-ref.js';
import { COLOR_PATTERN, HTTP_URL_PATTERN } from '../../src/settings/settings-schema.js';

/**
 * fast-check arbitraries derived from the JSON Schemas Livery validates with, for the keywords
 * those schemas use. Values are valid by construction; the properties check that the server
 * agrees. Strings and arrays are kept short so that runs stay fast.
 */
type Schema = Record<string, unknown>;

const hex = fc.constantFrom(...'0123456789abcdefABCDEF'.split(''));
const color = fc
  .oneof(
    fc.array(hex, { minLength: 3, maxLength: 3 }),
    fc.array(hex, { minLength: 6, maxLength: 6 }),
  )
  .map((digits) => `#${digits.join('')}`);
const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
const httpUrl = fc
  .tuple(fc.constantFrom('http', 'https'), word, fc.array(word, { maxLength: 3 }))
  .map(([scheme, host, path]) => `${scheme}://${host}.example.com/${path.join('/')}`);
const linkUrl = fc.oneof(
  httpUrl,
  word.map((w) => `mailto:${w}@example.com`),
);
const emoji = fc.constantFrom('🎉', '📘', '👍🏽', '🇫🇷', '1f389', '❤️', '🧑‍💻');

export function arbitraryFor(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map(arbitraryFor));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as Schema[]).map(arbitraryFor));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.type)) {
    return fc.oneof(...(schema.type as string[]).map((type) => arbitraryFor({ ...schema, type })));
  }
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return fc.integer({
        min: (schema.minimum as number | undefined) ?? -1000,
        max: (schema.maximum as number | undefined) ?? 1000,
      });
    case 'string':
      return stringFor(schema);
    case 'array': {
      const minLength = (schema.minItems as number | undefined) ?? 0;
      return fc.array(arbitraryFor(schema.items as Schema), {
        minLength,
        maxLength: Math.max(minLength, Math.min((schema.maxItems as number | undefined) ?? 3, 3)),
      });
    }
    case 'object':
      return objectFor(schema);
    default:
      throw new Error(`No arbitrary for schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

const nonNulCodePoint = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 1 })
  .filter((character) => character !== '\u0000');

function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (schema.pattern === COLOR_PATTERN) return color;
  if (schema.pattern === HTTP_URL_PATTERN) return httpUrl;
  if (schema.pattern === LINK_URL_PATTERN) return linkUrl;
  if (schema.format === 'emoji') return emoji;
  if (schema.pattern !== undefined || schema.format !== undefined) {
    throw new Error(`No arbitrary for string pattern ${String(schema.pattern ?? schema.format)}`);
  }
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 24, minLength + 24);
  // Any Unicode but U+0000, which Livery refuses in every text (docs/api.md, http/text-guard.ts;
  // whole code points never make a lone surrogate): lengths are counted in code points, as the
  // validator counts them.
  return fc.string({ unit: nonNulCodePoint, minLength, maxLength });
}

function objectFor(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const names = (schema.propertyNames as Schema | undefined)?.enum as string[] | undefined;
  const values = schema.additionalProperties;
  if (names !== undefined && typeof values === 'object') {
    // A map with known keys (a localized text): a few of them, each with a value.
    return fc.dictionary(fc.constantFrom(...names), arbitraryFor(values as Schema), {
      maxKeys: 3,
      noNullPrototype: true,
    });
  }
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    if ('not' in property) continue; // a forbidden field is never generated
    model[key] = arbitraryFor(property);
  }
  const record = fc.record(model, {
    requiredKeys: [...required].filter((k) => k in model),
    noNullPrototype: true, // plain objects, as JSON.parse makes them
  });
  const max = schema.maxProperties as number | undefined;
  if (max === undefined) return record;
  return record.map((value) => Object.fromEntries(Object.entries(value).slice(0, max)));
}
