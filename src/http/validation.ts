import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { HEADER_ORIGIN_KEYWORD, headerOrigin } from '../http-origin.js';

/**
 * Two validators, as Fastify's validation guide shows:
 * - bodies are checked as sent: no type coercion, no defaults, no removal of unknown fields. A
 *   coerced `false → null` would silently reset an override, a default would turn "absent =
 *   inherit" into "set", and a dropped misspelling would look like success;
 * - query strings and path parameters are text by nature, so they are coerced (`?limit=10`,
 *   repeated `?type=a&type=b` into an array).
 */
const common: Options = {
  allErrors: false,
  verbose: true, // errors carry their schema, so messages can name the allowed fields
  discriminator: true,
  allowUnionTypes: true,
  strict: false,
};

export function createBodyAjv(): Ajv {
  return withFormats(
    new Ajv({ ...common, coerceTypes: false, useDefaults: false, removeAdditional: false }),
  );
}

function createParamsAjv(): Ajv {
  return withFormats(
    new Ajv({ ...common, coerceTypes: 'array', useDefaults: true, removeAdditional: false }),
  );
}

export function installValidators(app: FastifyInstance): void {
  const body = createBodyAjv();
  const params = createParamsAjv();
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? body : params).compile(schema),
  );
}

// An emoji character sequence (with joiners, variation selectors, skin tones, flags, keycaps) or
// GitBook's codepoint form such as `1f389`.
const EMOJI =
  /^(?=.*(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3))(?:\p{Extended_Pictographic}|\p{Emoji_Component})+$/u;
const CODEPOINTS = /^[0-9a-fA-F]{4,6}(?:-[0-9a-fA-F]{4,6})*$/;

const isEmoji = (value: string) => EMOJI.test(value) || CODEPOINTS.test(value);

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  ajv.addFormat('emoji', { type: 'string', validate: isEmoji });
  // A URL whose origin goes into a header must give one (http-origin.ts).
  ajv.addKeyword({
    keyword: HEADER_ORIGIN_KEYWORD,
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (wanted: boolean, url: string) => !wanted || headerOrigin(url) !== undefined,
  });
  return ajv;
}
