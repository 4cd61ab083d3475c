import { applyPatch, resolve, type Shape } from '../../src/settings/override-rules.js';
import { isGroupPath, leafPathOf } from './leaf-paths.js';
import {
  deepEqual,
  getAt,
  isObject,
  isWithin,
  type Json,
  type JsonObject,
  setAt,
} from './paths.js';
import { type JsonSchema, withoutNull } from './walk.js';

/**
 * The draft of an editor as pure functions: the user's edits are an ordered list of
 * path → value pairs over the server's state, so "apply mine on top" after a conflict is the same
 * list over a newer base. A value `undefined` removes the field (site); `null` resets a variant's
 * field to the site's value.
 */

export type Edits = ReadonlyArray<readonly [path: string, value: Json | undefined]>;

export interface Rules {
  shape: Shape;
  defaults: JsonObject;
  /** Groups a PATCH must send whole once it sends any of their fields (announcement). */
  completeGroups: readonly string[];
}

/** A site's settings with the edits applied. */
export function siteSettings(stored: JsonObject, edits: Edits): JsonObject {
  let settings: Json = stored;
  for (const [path, value] of edits) settings = setAt(settings, path, value);
  return isObject(settings) ? settings : {};
}

export interface VariantDraft {
  /** The PATCH body: only edited fields, `null` for a reset, complete groups filled. */
  patch: JsonObject;
  /** The stored override as it will be after the PATCH. */
  override: JsonObject;
  /** The variant's effective settings after the PATCH. */
  effective: JsonObject;
}

export function variantDraft(
  site: JsonObject,
  stored: JsonObject,
  edits: Edits,
  rules: Rules,
): VariantDraft {
  let patch: Json = {};
  for (const [path, value] of edits) patch = setAt(patch, path, value ?? null);
  const override = applyPatch(stored, isObject(patch) ? patch : {}, rules.shape);
  const effective = resolve(site, override, rules.shape);
  for (const group of rules.completeGroups) {
    const sent = getAt(patch, group);
    const whole = getAt(effective, group);
    if (isObject(sent) && isObject(whole)) patch = setAt(patch, group, { ...whole, ...sent });
  }
  return { patch: isObject(patch) ? patch : {}, override, effective };
}

/**
 * The edits after the user sets `path` (possibly inside a leaf, "styling.primaryColor.light") to
 * `value`: the edit is recorded at the leaf, holding the leaf's whole new value, since a leaf is
 * replaced whole; edits below the path are superseded.
 */
export function withEdit(
  edits: Edits,
  path: string,
  value: Json | undefined,
  effective: JsonObject,
  shape: Shape,
): Edits {
  const leaf = isGroupPath(path, shape) ? path : leafPathOf(path, shape);
  const leafValue =
    leaf === path ? value : setAt(getAt(effective, leaf), path.slice(leaf.length + 1), value);
  return [...edits.filter(([p]) => !isWithin(p, leaf)), [leaf, leafValue]];
}

/** The edits without those at or below `path`. */
export const withoutEdit = (edits: Edits, path: string): Edits =>
  edits.filter(([p]) => !isWithin(p, path));

/** Paths of the groups whose PATCH schema requires fields (they are sent whole). */
export function completeGroupsOf(schema: JsonSchema, shape: Shape, path = ''): string[] {
  const found: string[] = [];
  for (const [key, inner] of Object.entries(schema.properties ?? {})) {
    const group = shape[key];
    if (group === undefined) continue;
    const at = path === '' ? key : `${path}.${key}`;
    const plain = withoutNull(inner).schema;
    if ((plain.required ?? []).length > 0) found.push(at);
    found.push(...completeGroupsOf(plain, group, at));
  }
  return found;
}

export interface Change {
  path: string;
  before: Json | undefined;
  after: Json | undefined;
}

/** Readable changes: each edited path with its value before and after (equal ones left out). */
export function changesOf(edits: Edits, before: JsonObject, after: JsonObject): Change[] {
  return edits
    .map(([path]) => ({ path, before: getAt(before, path), after: getAt(after, path) }))
    .filter((change) => !deepEqual(change.before, change.after));
}
