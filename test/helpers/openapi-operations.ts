import { expectStatus, type TestContext } from './app.js';

/** The names an object inherits (or that reach its prototype): bad input for any name or id. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
];

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export type Schema = Record<string, unknown>;

/** One operation of Livery's `/openapi.json`, with what the bad-input tests read of it. */
export interface ApiOperation {
  method: (typeof METHODS)[number];
  path: string;
  parameters: { name: string; in: string }[];
  /** The JSON Schema of the request body, when the operation takes one. */
  bodySchema: Schema | undefined;
}

/** Every operation of the app's `/openapi.json`, GETs first and DELETEs last. */
export async function apiOperations(t: TestContext): Promise<ApiOperation[]> {
  const spec = expectStatus(await t.app.inject({ method: 'GET', url: '/openapi.json' }), 200);
  type Op = {
    parameters?: { name: string; in: string }[];
    requestBody?: { content?: Record<string, { schema?: Schema }> };
  };
  return Object.entries(spec.paths as Record<string, Record<string, Op>>)
    .flatMap(([path, item]) =>
      METHODS.filter((m) => item[m] !== undefined).map((method) => {
        const op = item[method] as Op;
        const bodySchema = op.requestBody?.content?.['application/json']?.schema;
        return { method, path, parameters: op.parameters ?? [], bodySchema };
      }),
    )
    .sort((a, b) => METHODS.indexOf(a.method) - METHODS.indexOf(b.method));
}
