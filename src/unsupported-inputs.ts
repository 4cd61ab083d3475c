import { isDeepStrictEqual } from 'node:util';
import { type Static, type TSchema, Type } from 'typebox';
import { badRequest } from './errors.js';

/**
 * GitBook request fields for features Livery does not have (docs/api.md, "GitBook 0.202's
 * inputs"). Each accepts exactly the values that are true of Livery (`draft: false`,
 * `defaultLevel: "inherit"`), which change nothing; any other value is a 400 that names the field
 * and the missing feature, thrown before anything is stored. A GitBook client that sends what
 * Livery is gets its answer; one that asks for what Livery cannot do learns it, rather than
 * having the field dropped silently.
 */
export interface UnsupportedInput {
  field: string;
  /** The values true of Livery, accepted as no-ops; empty when no value is (only absence). */
  accepted: readonly unknown[];
  /** What Livery lacks, as a sentence start: "Livery has no draft site-spaces". */
  reason: string;
}

const quoted = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(' or ');

/** "only false is accepted", or "it cannot be set" when no value is. */
function acceptance(rule: UnsupportedInput): string {
  return rule.accepted.length === 0
    ? 'it cannot be set'
    : `only ${quoted(rule.accepted)} ${rule.accepted.length === 1 ? 'is' : 'are'} accepted`;
}

/** The field's schema in Livery's body: GitBook's type, described with the rule. */
export function unsupportedField<T extends TSchema>(rule: UnsupportedInput, schema: T) {
  return Type.Optional(
    Type.Unsafe<Static<T>>({ ...schema, description: `${rule.reason}: ${acceptance(rule)}` }),
  );
}

/** GitBook's shapes of such fields, loose where only leaving the field out is accepted. */
export const GitBookShapes = {
  /** An object of GitBook's (a template, a computed source…), whatever its fields. */
  object: Type.Object({}, { additionalProperties: true }),
  nullableString: Type.Unsafe<string | null>({ type: ['string', 'null'] }),
  /** DefaultLevel: a member role, null (guests), or inherit. */
  defaultLevel: Type.Unsafe<string | null>({
    anyOf: [
      {
        type: 'string',
        enum: ['admin', 'create', 'edit', 'review', 'comment', 'read', 'inherit'],
      },
      { type: 'null' },
    ],
  }),
};

/** 400 for the first field of `input` that `rules` refuse (in the rules' order). */
export function refuseUnsupported(input: object, rules: readonly UnsupportedInput[]): void {
  const values = input as Record<string, unknown>;
  for (const rule of rules) {
    const value = values[rule.field];
    if (value === undefined) continue;
    if (rule.accepted.some((accepted) => isDeepStrictEqual(accepted, value))) continue;
    throw badRequest(`body.${rule.field}: ${rule.reason}; ${acceptance(rule)}`);
  }
}
