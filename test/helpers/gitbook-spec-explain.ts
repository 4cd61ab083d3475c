import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Json, Oracle, SchemaNode, Violation } from './gitbook-spec-types.js';

export type { Json, SchemaNode, Violation } from './gitbook-spec-types.js';

/**
 * Turns "this body fails that schema" into a short list of precise violations. ajv alone reports
 * every failing branch of every `oneOf` (GitBook's unions of page kinds, of a value or null…),
 * which buries the one that matters; here a failing union is explained by the branch the value
 * was meant for: the one whose const/enum tag (`type`, `object`, `kind`…) it carries, else the
 * one of its JSON type with the fewest violations. ajv's full validator stays the judge of
 * validity; this only explains a verdict.
 */

const COMPOSITE = ['$ref', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', 'discriminator'];

/** The node's own keywords, with every subschema replaced by `true` (children are walked). */
function shallow(node: SchemaNode): object {
  const out: Record<string, unknown> = { ...node };
  for (const keyword of COMPOSITE) delete out[keyword];
  const allow = (map?: Record<string, Json>) =>
    map && Object.fromEntries(Object.keys(map).map((key) => [key, true]));
  if (node.properties) out.properties = allow(node.properties);
  if (node.patternProperties) out.patternProperties = allow(node.patternProperties);
  if (typeof node.items === 'object' && node.items !== null) out.items = true;
  if (typeof node.additionalProperties === 'object') out.additionalProperties = true;
  if (JSON.stringify(node.propertyNames ?? null).includes('$ref')) delete out.propertyNames;
  return out;
}

const shallowCache = new WeakMap<Ajv, Map<string, ValidateFunction>>();

const show = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

function toViolation(path: string, error: ErrorObject, data: Json): Violation {
  const params = error.params as Record<string, unknown>;
  const at = path + error.instancePath;
  const bad = (keyword: string, message: string, expected: unknown): Violation => ({
    path: at,
    keyword,
    message: `${show(data)} ${message}`.trim(),
    expected: typeof expected === 'string' ? expected : show(expected),
    actual: JSON.stringify(data),
  });
  const { missingProperty: missing, additionalProperty: extra } = params;
  if (error.keyword === 'required') {
    return {
      path: `${at}/${missing}`,
      keyword: 'required',
      message: 'missing',
      expected: `${missing}`,
    };
  }
  if (error.keyword === 'additionalProperties') {
    return {
      path: `${at}/${extra}`,
      keyword: 'additionalProperties',
      message: 'not allowed',
      expected: '(absent)',
    };
  }
  if (error.keyword === 'enum') return bad('enum', 'is not allowed', params.allowedValues);
  if (error.keyword === 'const') return bad('const', 'is not allowed', params.allowedValue);
  if (error.keyword === 'type') return bad('type', 'has the wrong type', String(params.type));
  return bad(error.keyword, error.message ?? '', params);
}

const typeOf = (data: Json) =>
  data === null
    ? 'null'
    : Array.isArray(data)
      ? 'array'
      : Number.isInteger(data)
        ? 'integer'
        : typeof data;

function typeFits(node: SchemaNode | boolean, data: Json): boolean {
  if (typeof node !== 'object' || node.type === undefined) return true;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const actual = typeOf(data);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

export function explain(o: Oracle, pointer: string, data: Json): Violation[] {
  const out: Violation[] = [];
  walk(o, pointer, data, '', out);
  return out;
}

const refPointer = (ref: string) => decodeURIComponent(ref.slice(1));

/** The schema a pointer names, following `$ref`s. */
function resolved(o: Oracle, pointer: string): SchemaNode | boolean {
  let node = o.node(pointer);
  for (let hops = 0; typeof node === 'object' && node.$ref && hops < 10; hops++) {
    node = o.node(refPointer(node.$ref));
  }
  return node;
}

/** The const/enum-valued properties of a branch (through `$ref` and `allOf`). */
function tags(o: Oracle, pointer: string, depth = 0): Map<string, Json[]> {
  const found = new Map<string, Json[]>();
  const node = resolved(o, pointer);
  if (typeof node !== 'object' || depth > 3) return found;
  for (const [key, value] of Object.entries(node.properties ?? {})) {
    const prop =
      typeof value === 'object' && value !== null && '$ref' in value
        ? resolved(o, refPointer(String(value.$ref)))
        : (value as SchemaNode);
    if (typeof prop !== 'object') continue;
    if (prop.const !== undefined) found.set(key, [prop.const]);
    else if (Array.isArray(prop.enum) && prop.enum.length <= 3) found.set(key, prop.enum);
  }
  const base = typeof o.node(pointer) === 'object' ? (o.node(pointer) as SchemaNode) : {};
  const target = base.$ref ? refPointer(base.$ref) : pointer;
  (node.allOf ?? []).forEach((_, i) => {
    for (const [key, values] of tags(o, `${target}/allOf/${i}`, depth + 1)) found.set(key, values);
  });
  return found;
}

function walk(o: Oracle, pointer: string, data: Json, path: string, out: Violation[]): void {
  if (o.valid(pointer, data)) return;
  const before = out.length;
  const node = o.node(pointer);
  if (typeof node !== 'object') {
    out.push({ path, keyword: 'false', message: 'no value is allowed here' });
    return;
  }
  const cache = shallowCache.get(o.ajv) ?? new Map<string, ValidateFunction>();
  shallowCache.set(o.ajv, cache);
  const own = cache.get(pointer) ?? o.ajv.compile(shallow(node));
  cache.set(pointer, own);
  if (!own(data)) for (const error of own.errors ?? []) out.push(toViolation(path, error, data));

  if (node.$ref) walk(o, refPointer(node.$ref), data, path, out);
  for (let i = 0; i < (node.allOf?.length ?? 0); i++) {
    walk(o, `${pointer}/allOf/${i}`, data, path, out);
  }
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const members = node[keyword];
    if (members)
      union(
        o,
        keyword,
        members.map((_, i) => `${pointer}/${keyword}/${i}`),
        data,
        path,
        out,
      );
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      const escaped = key.replaceAll('~', '~0').replaceAll('/', '~1');
      if (node.properties && key in node.properties) {
        walk(o, `${pointer}/properties/${escaped}`, value, `${path}/${escaped}`, out);
      } else if (typeof node.additionalProperties === 'object' && !node.patternProperties) {
        walk(o, `${pointer}/additionalProperties`, value, `${path}/${escaped}`, out);
      }
    }
  }
  if (Array.isArray(data) && typeof node.items === 'object' && !Array.isArray(node.items)) {
    for (const [i, item] of data.entries()) walk(o, `${pointer}/items`, item, `${path}/${i}`, out);
  }
  if (out.length === before) {
    // Nothing more precise found: ajv's own words.
    for (const error of o.errors(pointer, data)) out.push(toViolation(path, error, data));
  }
}

function union(
  o: Oracle,
  keyword: 'oneOf' | 'anyOf',
  branches: string[],
  data: Json,
  path: string,
  out: Violation[],
): void {
  const name = (branch: string) => {
    const node = o.node(branch);
    return typeof node === 'object' && node.$ref
      ? node.$ref.split('/').pop()
      : branch.split('/').slice(-2).join('/');
  };
  const valid = branches.filter((branch) => o.valid(branch, data));
  if (keyword === 'oneOf' && valid.length > 1) {
    out.push({
      path,
      keyword: 'oneOf',
      message: `matches ${valid.length} branches (${valid.map(name).join(', ')})`,
      expected: 'exactly one',
    });
    return;
  }
  if (valid.length > 0) return;
  const fitting = branches.filter((branch) => typeFits(resolved(o, branch), data));
  if (fitting.length === 0) {
    const types = branches.flatMap((branch) => {
      const node = resolved(o, branch);
      return typeof node === 'object' && node.type !== undefined ? [node.type].flat() : [];
    });
    out.push({
      path,
      keyword: 'type',
      message: `${show(data)} has the wrong type`,
      expected: [...new Set(types)].join(','),
      actual: JSON.stringify(data),
    });
    return;
  }
  const tagged =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? fitting.filter((branch) => {
          const present = [...tags(o, branch)].filter(([key]) => key in data);
          return (
            present.length > 0 &&
            present.every(([key, values]) => values.includes(data[key] as Json))
          );
        })
      : [];
  if (tagged.length === 0 && data !== null && typeof data === 'object' && !Array.isArray(data)) {
    // A tag (e.g. `kind`) every branch has, whose value no branch allows: that is the violation.
    const tagsOf = fitting.map((branch) => tags(o, branch));
    for (const key of Object.keys(data)) {
      if (tagsOf.length === 0 || !tagsOf.every((t) => t.has(key))) continue;
      const allowed = tagsOf.flatMap((t) => t.get(key) ?? []);
      out.push({
        path: `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        keyword: 'enum',
        message: `${show(data[key])} is not allowed`,
        expected: show(allowed),
        actual: JSON.stringify(data[key]),
      });
      return;
    }
  }
  const candidates = tagged.length > 0 ? tagged : fitting;
  let best: Violation[] | undefined;
  for (const branch of candidates) {
    const found: Violation[] = [];
    walk(o, branch, data, path, found);
    if (!best || found.length < best.length) best = found;
  }
  if (candidates.length > 1) {
    out.push({
      path,
      keyword,
      message: `matches none of ${candidates.map(name).join(' | ')}; the nearest fails:`,
      expected: 'one branch',
    });
  }
  out.push(...(best ?? []));
}
