import type { Ajv, ErrorObject } from 'ajv';
import type { TSchema } from 'typebox';
import { isMap, isPair, isScalar, isSeq, type Node, parseDocument } from 'yaml';
import { createBodyAjv } from '../../../http/validation.js';
import { explainValidationErrors } from '../../../http/validation-errors.js';
import { lineAt } from '../format/gitbook-yaml.js';

/**
 * A YAML file of the repository read as a value, with the line of any place in it: the site's
 * `docs.yaml` and its customization file report every problem as `file:line`. Parsed as
 * `.gitbook.yaml` is (format/gitbook-yaml.ts: the `yaml` package, duplicate keys refused, lines
 * counted by `lineAt`), but strictly: a file that describes a whole site is not guessed at.
 */

/** One thing wrong with a file: the rule broken, the node it is about, where. */
export interface Violation {
  /** A short stable name of the rule (docs/git-sync.md lists them). */
  rule: string;
  file: string;
  line?: number | undefined;
  /** The `key` of the docs.yaml node (or the variant key of the customization file). */
  key?: string;
  message: string;
}

/** `docs.yaml:12: node "docs-en": … (rule: unique-keys)`: the text GitSyncState.error shows. */
export function describeViolation(v: Violation): string {
  const where = v.line === undefined ? v.file : `${v.file}:${v.line}`;
  const node = v.key === undefined ? '' : ` node ${JSON.stringify(v.key)}:`;
  return `${where}:${node} ${v.message} (rule: ${v.rule})`;
}

export type Path = readonly (string | number)[];

export interface YamlFile {
  file: string;
  value: unknown;
  /** The line of the value at `path`, else of its nearest ancestor that exists. */
  lineOf(path: Path): number | undefined;
}

/** The file's value, or the one violation that makes it unreadable (rule `yaml`). */
export function readYamlFile(text: string, file: string): YamlFile | Violation {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const duplicate = error.code === 'DUPLICATE_KEY';
    return {
      rule: 'yaml',
      file,
      line: lineAt(text, error.pos[0]),
      message: duplicate
        ? 'a mapping has the same key twice'
        : `invalid YAML (${error.code}): ${firstLine(error.message)}`,
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return { rule: 'yaml', file, message: 'too many YAML aliases' };
  }
  const lineOf = (path: Path): number | undefined => {
    let node: unknown = doc.contents;
    let line = rangeLine(text, node);
    for (const segment of path) {
      const next = childOf(node, segment);
      if (next === undefined) break;
      node = next.value;
      line = rangeLine(text, next.at) ?? line;
    }
    return line;
  };
  return { file, value, lineOf };
}

export function isViolation(value: YamlFile | Violation): value is Violation {
  return 'rule' in value;
}

/** A map's entry (`at` its key, whose line is the entry's) or a sequence's item. */
function childOf(
  node: unknown,
  segment: string | number,
): { value: unknown; at: unknown } | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (isPair(pair) && isScalar(pair.key) && String(pair.key.value) === String(segment)) {
        return { value: pair.value, at: pair.key };
      }
    }
    return undefined;
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    if (item !== undefined) return { value: item, at: item };
  }
  return undefined;
}

function rangeLine(text: string, node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range === undefined || range === null ? undefined : lineAt(text, range[0]);
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/**
 * Checks `value` against a TypeBox schema with the validator the HTTP layer uses for bodies (no
 * coercion, no defaults, nothing removed) and its wording; the violation names the field (`part`
 * first, e.g. `site.structure[2].title`) and its line. `at` is where `value` sits in the file.
 */
export function checkAgainst(
  validate: ReturnType<Ajv['compile']>,
  value: unknown,
  yaml: YamlFile,
  at: Path,
  part: string,
  rule: string,
  key?: string,
): Violation | undefined {
  if (validate(value) === true) return undefined;
  const errors = (validate.errors ?? []) as ErrorObject[];
  const { message, path } = explainValidationErrors(errors, part);
  const line = yaml.lineOf([...at, ...path.map((s) => (/^\d+$/.test(s) ? Number(s) : s))]);
  return {
    rule,
    file: yaml.file,
    ...(line === undefined ? {} : { line }),
    ...(key === undefined ? {} : { key }),
    message,
  };
}

/** One validator per schema, compiled once, by the HTTP layer's body validator. */
const ajv = createBodyAjv();
const compiled = new WeakMap<TSchema, ReturnType<Ajv['compile']>>();
export function validatorOf(schema: TSchema): ReturnType<Ajv['compile']> {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}
