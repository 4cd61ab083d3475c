import { deepEqual, getAt, isObject, isWithin, type Json } from '../schema/paths.js';
import { type FieldDescriptor, kindOf, schemaAt, withoutNull } from '../schema/walk.js';
import type { Editor } from '../state/editor.js';
import { Control } from './fields/Control.js';

/**
 * One setting of a section with what surrounds its control: in a variant, whether it is inherited
 * or overridden (with the site's value and "Reset to site value"); on the site, "Reset to
 * default"; the API's errors no inner control shows; contrast warnings.
 */
export function Field({
  field,
  editor,
  warnings,
}: {
  field: FieldDescriptor;
  editor: Editor;
  warnings: string[];
}) {
  const value = getAt(editor.effective.value, field.path);
  const inherited = editor.inheritedValue(field.path);
  const overridden = editor.overridden(field.path);
  const state = editor.variant ? (overridden ? 'overridden' : 'inherited') : undefined;
  const stray = strayErrors(editor, field.path);
  return (
    <div class="field" data-field={field.path} data-state={state}>
      <div class="field-meta">
        {state === undefined ? null : (
          <span class={`badge badge-${state}`}>{overridden ? 'Overridden' : 'Inherited'}</span>
        )}
        {overridden && field.path === 'title' ? (
          // The override rules (docs/customization.md): a variant's `title: null` means "no
          // title" (the content's title), not the site's; only DELETE brings the site's back.
          <>
            <span class="site-value">Site value: {summary(inherited)}</span>
            <button
              type="button"
              class="button-small"
              data-reset={field.path}
              aria-label={`${field.label}: use the content's title (Remove all overrides brings back the site's)`}
              title="A variant cannot inherit the site's title again except by Remove all overrides"
              onClick={() => editor.reset(field.path)}
            >
              Use the content's title
            </button>
          </>
        ) : overridden ? (
          <>
            <span class="site-value">Site value: {summary(inherited)}</span>
            <button
              type="button"
              class="button-small"
              data-reset={field.path}
              aria-label={`Reset ${field.label} to the site's value`}
              onClick={() => editor.reset(field.path)}
            >
              Reset to site value
            </button>
          </>
        ) : null}
        {!editor.variant && inherited !== undefined && !deepEqual(value, inherited) ? (
          <button
            type="button"
            class="button-small button-quiet"
            data-reset={field.path}
            aria-label={`Reset ${field.label} to its default`}
            onClick={() => editor.reset(field.path)}
          >
            Reset to default
          </button>
        ) : null}
      </div>
      <Control field={field} editor={editor} />
      {stray.map(([path, message]) => (
        <p key={path} class="setting-error" role="alert">
          {path === field.path ? message : `${path.slice(field.path.length + 1)}: ${message}`}
        </p>
      ))}
      {warnings.map((warning) => (
        <p key={warning} class="setting-warning" data-warning="contrast" role="status">
          {warning}
        </p>
      ))}
    </div>
  );
}

const SCALARS = new Set(['color', 'enum', 'boolean', 'url', 'text', 'textarea', 'number']);

/**
 * Errors below this field that no inner control shows: those naming something the form does not
 * render (a value that is absent, not a text or switch, which always render).
 */
function strayErrors(editor: Editor, path: string): [string, string][] {
  const settings = editor.schema.value?.settings ?? {};
  return Object.entries(editor.errors.value).filter(([key]) => {
    if (key === '' || !isWithin(key, path) || getAt(editor.effective.value, key) !== undefined) {
      return false;
    }
    const schema = schemaAt(settings, key.split('.'));
    return schema === undefined || !SCALARS.has(kindOf(withoutNull(schema).schema));
  });
}

/** A short text for a value: a color pair as "#aaa / #bbb", anything else compact. */
function summary(value: Json | undefined): string {
  if (value === undefined || value === null) return 'none';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (isObject(value) && typeof value.light === 'string' && typeof value.dark === 'string') {
    return `${value.light} / ${value.dark}`;
  }
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
