import { batch, computed, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import { resolve } from '../../src/settings/override-rules.js';
import type { ApiError } from '../api/client.js';
import { fetchLoaded as fetchFromApi } from '../api/customization.js';
import { loadedSchema, loadSchema, type StudioSchema } from '../api/schema.js';
import {
  type Change,
  changesOf,
  completeGroupsOf,
  type Edits,
  type Rules,
  siteSettings,
  variantDraft,
  withEdit,
  withoutEdit,
} from '../schema/draft.js';
import { leafPathOf } from '../schema/leaf-paths.js';
import {
  deepEqual,
  getAt,
  isObject,
  isWithin,
  type Json,
  type JsonObject,
} from '../schema/paths.js';

/**
 * One open editor (the site's settings or one variant's override): the server's state as the
 * base, the user's edits as path → value pairs over it, and everything derived (effective
 * settings, body to send, dirty, readable changes). Created per screen, disposed on leaving it.
 */

export type { Json };
export interface EditorTarget {
  organizationId: string;
  siteId: string;
  siteSpaceId?: string;
}
export interface Loaded {
  etag: string;
  /** site: the stored site settings; variant: the stored override */
  settings: Json;
  /** variant only: the site's settings, for inherited values */
  site?: Json;
}
export type FieldChange = Change;

export interface Editor {
  readonly target: EditorTarget;
  /** null when editable, else the reason shown to the user */
  readonly readOnly: string | null;
  readonly etag: ReadonlySignal<string>;
  readonly dirty: ReadonlySignal<boolean>;
  readonly changes: ReadonlySignal<FieldChange[]>;
  /** errors by dotted path; key "" holds a form-level error */
  readonly errors: Signal<Record<string, string>>;
  /** site → full settings for PUT; variant → PATCH body (edited fields; null = site value) */
  body(): Json;
  load(loaded: Loaded): void;
  rebase(loaded: Loaded): void;
  fail(error: ApiError): void;
  dispose(): void;

  // What the form and the preview read, beyond the shell's contract:
  readonly variant: boolean;
  /** The schema document; undefined until loaded. */
  readonly schema: ReadonlySignal<StudioSchema | undefined>;
  /** The settings as they would be after saving. */
  readonly effective: ReadonlySignal<JsonObject>;
  /** `body()` as a signal (the preview follows it). */
  readonly draft: ReadonlySignal<Json>;
  /** Set the value at a path (inside a leaf too); `undefined` removes an optional field. */
  set(path: string, value: Json | undefined): void;
  /** Site: back to the default. Variant: back to the site's value (null in the PATCH). */
  reset(path: string): void;
  /** Variant: the field's value comes from the override (stored or edited). */
  overridden(path: string): boolean;
  /** Variant: the site's value; site: the default. */
  inheritedValue(path: string): Json | undefined;
  /** Variant: the saved override has at least one field (Remove all overrides has work to do). */
  readonly hasOverride: ReadonlySignal<boolean>;
}

const asObject = (value: Json | undefined): JsonObject => (isObject(value) ? value : {});

const NO_RULES: Rules = { shape: {}, defaults: {}, completeGroups: [] };

export function createEditor(
  target: EditorTarget,
  loaded: Loaded,
  readOnly: string | null,
): Editor {
  const variant = target.siteSpaceId !== undefined;
  const schema = signal<StudioSchema | undefined>(loadedSchema());
  const errors = signal<Record<string, string>>({});
  let disposed = false;
  if (schema.value === undefined) {
    loadSchema().then(
      (loadedOne) => {
        if (!disposed) schema.value = loadedOne;
      },
      (error: unknown) => {
        errors.value = { '': `The settings schema could not be loaded: ${String(error)}` };
      },
    );
  }
  const base = signal(loaded);
  const edits = signal<Edits>([]);
  const etag = signal(loaded.etag);

  const rules = computed<Rules>(() => {
    const s = schema.value;
    if (s === undefined) return NO_RULES;
    return {
      shape: s.shape,
      defaults: s.defaults,
      completeGroups: completeGroupsOf(s.override, s.shape),
    };
  });
  /** before/after: what `dirty` and `changes` compare (the settings, or the stored override). */
  const state = computed(() => {
    const { settings, site } = base.value;
    const r = rules.value;
    if (variant) {
      const stored = asObject(settings);
      const draft = variantDraft(asObject(site), stored, edits.value, r);
      return {
        effective: draft.effective,
        body: draft.patch as Json,
        before: stored,
        after: draft.override,
      };
    }
    const stored = resolve(r.defaults, asObject(settings), r.shape);
    const next = siteSettings(stored, edits.value);
    return { effective: next, body: next as Json, before: stored, after: next };
  });
  const effective = computed(() => state.value.effective);
  const draft = computed(() => state.value.body);
  const dirty = computed(() => !deepEqual(state.value.before, state.value.after));
  const changes = computed(() => changesOf(edits.value, state.value.before, state.value.after));

  const editable = () => readOnly === null && !disposed;

  function clearErrorsAt(path: string): void {
    const leaf = leafPathOf(path, rules.value.shape);
    const kept = Object.entries(errors.value).filter(
      ([key]) => !(isWithin(key, leaf) && (isWithin(key, path) || isWithin(path, key))),
    );
    if (kept.length !== Object.keys(errors.value).length) errors.value = Object.fromEntries(kept);
  }

  function set(path: string, value: Json | undefined): void {
    if (!editable()) return;
    batch(() => {
      edits.value = withEdit(edits.value, path, value, effective.value, rules.value.shape);
      clearErrorsAt(path);
    });
  }

  function reset(path: string): void {
    if (!editable()) return;
    batch(() => {
      if (!variant) {
        edits.value = withEdit(
          edits.value,
          path,
          getAt(rules.value.defaults, path),
          effective.value,
          rules.value.shape,
        );
      } else if (getAt(base.value.settings, path) === undefined) {
        edits.value = withoutEdit(edits.value, path); // never stored: dropping the edit is the reset
      } else {
        edits.value = [...withoutEdit(edits.value, path), [path, null]];
      }
      clearErrorsAt(path);
    });
  }

  function start(next: Loaded, keepEdits: boolean): void {
    batch(() => {
      base.value = next;
      etag.value = next.etag;
      if (!keepEdits) edits.value = [];
      errors.value = {};
    });
  }

  return {
    target,
    readOnly,
    variant,
    schema,
    etag,
    dirty,
    changes,
    errors,
    effective,
    draft,
    body: () => draft.value,
    load: (next) => start(next, false),
    rebase: (next) => start(next, true),
    fail(error) {
      const path = error.path;
      if (error.status === 400 && path !== undefined) {
        // "body.styling.primaryColor.light must be …" is shown at that field as "must be …".
        const message = error.message.replace(/^body\.\S+\s+/, '');
        errors.value = { ...errors.value, [path]: message };
      } else errors.value = { ...errors.value, '': error.message };
    },
    dispose() {
      disposed = true;
    },
    hasOverride: computed(() => variant && Object.keys(asObject(base.value.settings)).length > 0),
    set,
    reset,
    overridden: (path) => variant && getAt(state.value.after, path) !== undefined,
    inheritedValue: (path) => getAt(variant ? base.value.site : rules.value.defaults, path),
  };
}

/** What `createEditor` and `load` need: the stored settings (and override), with the schema loaded. */
export async function fetchLoaded(target: EditorTarget): Promise<Loaded> {
  const [loaded] = await Promise.all([fetchFromApi(target), loadSchema()]);
  return loaded;
}
