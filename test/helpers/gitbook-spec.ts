import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { explain, type Json, type SchemaNode, type Violation } from './gitbook-spec-explain.js';
import {
  at,
  type Document,
  loadDocument,
  pointerOf,
  type SpecOperation,
  type SpecResponse,
} from './gitbook-spec-load.js';
import type { SpecVersion } from './gitbook-spec-quirks.js';

/**
 * GitBook's own OpenAPI documents, shipped inside the installed client packages, compiled with
 * ajv so that a test can judge a real response (status and body) or a request body against the
 * schemas of one spec version: 0.202 (OpenAPI 3.1, JSON Schema 2020-12, with ajv/dist/2020),
 * 0.130 and 0.91 (OpenAPI 3.0.3, translated to draft-07 by gitbook-spec-load.ts). `#/components/…`
 * references resolve because the whole document is added to ajv as one schema with an $id.
 */
export type { Violation } from './gitbook-spec-explain.js';
export type { SpecOperation } from './gitbook-spec-load.js';
export type { SpecVersion } from './gitbook-spec-quirks.js';

interface Spec {
  doc: Document;
  id: string;
  ajv: Ajv;
  operations: Map<string, SpecOperation>;
  validators: Map<string, ValidateFunction>;
}
const specs = new Map<SpecVersion, Spec>();

export function spec(version: SpecVersion): Spec {
  const known = specs.get(version);
  if (known) return known;
  const { doc, openApi30 } = loadDocument(version);
  const options = { strict: false, allErrors: true, validateSchema: false, allowUnionTypes: true };
  const ajv = openApi30 ? new Ajv(options) : (new Ajv2020(options) as unknown as Ajv);
  addFormats.default(ajv);
  // Formats GitBook names but never defines: anything of the declared type is accepted.
  for (const format of ['emoji', 'icon']) ajv.addFormat(format, true);
  const id = `https://gitbook.test/${version}/openapi.json`;
  ajv.addSchema(doc as object, id);
  const operations = new Map<string, SpecOperation>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (typeof op !== 'object' || op === null || !op.operationId) continue;
      operations.set(op.operationId, {
        ...op,
        method: method.toUpperCase(),
        path,
        pointer: pointerOf('paths', path, method),
      });
    }
  }
  const made: Spec = { doc, id, ajv, operations, validators: new Map() };
  specs.set(version, made);
  return made;
}

/** The operation of that version, or undefined when the version lacks it. */
export const operation = (version: SpecVersion, operationId: string) =>
  spec(version).operations.get(operationId);

/** A validator for the schema at a JSON pointer of the version's (patched) document. */
export function validatorAt(version: SpecVersion, pointer: string): ValidateFunction {
  const s = spec(version);
  let validate = s.validators.get(pointer);
  if (!validate) {
    const fragment = pointer.split('/').map(encodeURIComponent).join('/');
    validate = s.ajv.getSchema(`${s.id}#${fragment}`);
    if (!validate) throw new Error(`cannot compile ${version} ${pointer}`);
    s.validators.set(pointer, validate);
  }
  return validate;
}

/** Why `data` fails the schema at `pointer`: [] when it is valid. */
export function violationsAt(version: SpecVersion, pointer: string, data: unknown): Violation[] {
  const s = spec(version);
  return explain(
    {
      valid: (p, value) => validatorAt(version, p)(value) === true,
      node: (p) => at(s.doc, p) as SchemaNode,
      errors: (p, value) => {
        const validate = validatorAt(version, p);
        validate(value);
        return validate.errors ?? [];
      },
      ajv: s.ajv,
    },
    pointer,
    data as Json,
  );
}

/** The response a status selects: the code itself, then its range (`4XX`), then `default`. */
function responseFor(op: SpecOperation, status: number): [string, SpecResponse] | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    const found = op.responses[key];
    if (found) return [key, found];
  }
  return undefined;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/;

/**
 * Judges a real response of `operationId` under `version`: its status must be declared, a JSON
 * body must match the declared schema, and a status declared without content has an empty body.
 */
export function judge(
  version: SpecVersion,
  operationId: string,
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
): Violation[] {
  const op = operation(version, operationId);
  if (!op) throw new Error(`${operationId} is not an operation of ${version}`);
  const found = responseFor(op, response.statusCode);
  if (!found) {
    const declared = Object.keys(op.responses).join(', ');
    return [
      {
        path: '',
        keyword: 'status',
        message: `${response.statusCode} is not declared`,
        expected: declared,
      },
    ];
  }
  let [key, declared] = found;
  let pointer = op.pointer + pointerOf('responses', key);
  if (declared.$ref) {
    pointer = declared.$ref.slice(1);
    declared = at(spec(version).doc, pointer) as SpecResponse;
  }
  const types = Object.keys(declared.content ?? {});
  if (types.length === 0) {
    return response.body === ''
      ? []
      : [
          {
            path: '',
            keyword: 'content',
            message: 'a body where none is declared',
            expected: '(empty)',
          },
        ];
  }
  const contentType = String(response.headers['content-type'] ?? '');
  const type = types.find((t) => contentType.startsWith(t)) ?? types.find((t) => JSON_TYPE.test(t));
  if (!type || !JSON_TYPE.test(contentType)) {
    return [
      {
        path: '',
        keyword: 'content',
        message: `Content-Type ${contentType}`,
        expected: types.join(', '),
      },
    ];
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return [{ path: '', keyword: 'content', message: 'the body is not JSON', expected: type }];
  }
  return violationsAt(version, pointer + pointerOf('content', type, 'schema'), body);
}

/**
 * Why a request body is not valid under the version's request schema of the operation ([] when
 * it is): what a test checks before sending, so that every body it sends is one GitBook allows.
 */
export function requestViolations(
  version: SpecVersion,
  operationId: string,
  body: unknown,
): Violation[] {
  const op = operation(version, operationId);
  if (!op) throw new Error(`${operationId} is not an operation of ${version}`);
  const content = op.requestBody?.content;
  if (body === undefined) {
    return op.requestBody?.required
      ? [{ path: '', keyword: 'requestBody', message: 'a body is required', expected: 'a body' }]
      : [];
  }
  const type = Object.keys(content ?? {}).find((t) => JSON_TYPE.test(t));
  if (!type) {
    return [
      {
        path: '',
        keyword: 'requestBody',
        message: 'the operation takes no JSON body',
        expected: '(none)',
      },
    ];
  }
  return violationsAt(
    version,
    op.pointer + pointerOf('requestBody', 'content', type, 'schema'),
    body,
  );
}
