import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type { Json, SchemaNode } from './gitbook-spec-explain.js';
import { type SpecVersion, UNSATISFIABLE } from './gitbook-spec-quirks.js';

/**
 * Reads a GitBook spec document from its installed client package, translated to plain JSON
 * Schema (see translate) and with UNSATISFIABLE applied, for test/helpers/gitbook-spec.ts.
 */

export const SPEC_PACKAGES: Record<SpecVersion, string> = {
  '0.202': 'gitbook-api-0202',
  '0.130': '@gitbook/api',
  '0.91': 'gitbook-api-091',
};

export interface SpecResponse {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
export interface SpecOperation {
  operationId: string;
  method: string;
  /** GitBook's path template, without `/v1`. */
  path: string;
  /** JSON pointer of the operation object in the document. */
  pointer: string;
  responses: Record<string, SpecResponse>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}
export interface Document {
  openapi: string;
  paths: Record<string, Record<string, SpecOperation>>;
  components: { responses: Record<string, SpecResponse> } & Record<string, unknown>;
}

const escapeSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
export const pointerOf = (...segments: string[]) =>
  segments.map((s) => `/${escapeSegment(s)}`).join('');

export function at(root: unknown, pointer: string): Json {
  let node = root as Json;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`no ${pointer} in the spec`);
    }
    node = (node as Record<string, Json>)[key] as Json;
  }
  return node;
}

/**
 * OpenAPI 3.0 → JSON Schema draft-07: `nullable: true` adds `null` to the type (and to an
 * `enum`: 0.130 writes "null" as `{type: string, nullable: true, enum: [null]}`); without a
 * type it becomes `anyOf [schema, {type: null}]`. `discriminator` is dropped in every version:
 * each GitBook union it decorates already tells its branches apart by a const/enum tag, so the
 * plain `oneOf` decides the same, and ajv's own discriminator support refuses `mapping` and
 * tags declared through `allOf`. Other OpenAPI keywords (`example`, `x-*`) are ignored by ajv
 * (strict: false).
 */
function translate(node: Json, openApi30: boolean): Json {
  if (Array.isArray(node)) return node.map((item) => translate(item, openApi30));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'discriminator' && typeof value === 'object') continue;
    out[key] = translate(value, openApi30);
  }
  if (openApi30 && out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else if (out.type === undefined) {
      return { anyOf: [out, { type: 'null' }] };
    }
  }
  return out;
}

/** Applies UNSATISFIABLE to a document; throws when an entry no longer applies. */
function patch(doc: Document, version: SpecVersion): void {
  for (const entry of UNSATISFIABLE.filter((p) => p.version === version)) {
    if (entry.kind === 'replace') {
      const parent = entry.at.split('/').slice(0, -1).join('/');
      const key = entry.at.split('/').pop() ?? '';
      if (!isDeepStrictEqual(at(doc, entry.at), entry.was)) {
        throw new Error(`stale UNSATISFIABLE entry ${version} ${entry.at}`);
      }
      (at(doc, parent) as Record<string, Json>)[key] = entry.by as Json;
      continue;
    }
    const schema = at(doc, entry.schema) as SchemaNode;
    const index = schema.required?.indexOf(entry.name) ?? -1;
    if (index < 0 || (schema.properties && entry.name in schema.properties)) {
      throw new Error(`stale UNSATISFIABLE entry ${version} ${entry.schema} ${entry.name}`);
    }
    schema.required?.splice(index, 1);
  }
}

/** The version's document, translated and patched; `openApi30` for 0.130 and 0.91. */
export function loadDocument(version: SpecVersion): { doc: Document; openApi30: boolean } {
  const file = createRequire(import.meta.url).resolve(
    `${SPEC_PACKAGES[version]}/spec/openapi.json`,
  );
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Document;
  const openApi30 = raw.openapi.startsWith('3.0');
  const doc = translate(raw as unknown as Json, openApi30) as unknown as Document;
  patch(doc, version);
  return { doc, openApi30 };
}
