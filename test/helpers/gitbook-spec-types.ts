import type { Ajv, ErrorObject } from 'ajv';

/** The shapes the GitBook spec harness (test/helpers/gitbook-spec*.ts) passes around. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface SchemaNode {
  $ref?: string;
  oneOf?: Json[];
  anyOf?: Json[];
  allOf?: Json[];
  type?: string | string[];
  enum?: Json[];
  const?: Json;
  properties?: Record<string, Json>;
  patternProperties?: Record<string, Json>;
  additionalProperties?: Json;
  items?: Json;
  required?: string[];
  [keyword: string]: unknown;
}

export interface Violation {
  /** JSON pointer into the body; for `required` and `additionalProperties`, of the property. */
  path: string;
  /** The JSON Schema keyword that failed (or `status`, `content`, `requestBody`). */
  keyword: string;
  message: string;
  /** What the schema wants: the allowed values, the type, the required name… */
  expected?: string;
  /** The offending value as JSON (for enum, const and type violations). */
  actual?: string;
}

export interface Oracle {
  valid(pointer: string, data: Json): boolean;
  node(pointer: string): SchemaNode | boolean;
  errors(pointer: string, data: Json): ErrorObject[];
  ajv: Ajv;
}
