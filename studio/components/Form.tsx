import { useEffect, useMemo, useRef } from 'preact/hooks';
import { contrastWarnings } from '../schema/contrast.js';
import { OPEN_AT_START } from '../schema/hints.js';
import { getAt, isWithin } from '../schema/paths.js';
import { initialValue } from '../schema/values.js';
import {
  type FieldDescriptor,
  labelOf,
  type Section,
  schemaAt,
  sectionsOf,
} from '../schema/walk.js';
import type { Editor } from '../state/editor.js';
import { Field } from './Field.js';
import '../form.css';

/**
 * The settings form, generated from the schema the API validates with (walk.ts): one collapsible
 * section per hint in hints.ts, each field's control inferred from its schema. Read-only editors
 * get every control disabled; a section holding an error opens.
 */
export function Form({ editor }: { editor: Editor }) {
  const schema = editor.schema.value;
  const hidden = editor.variant ? (schema?.siteOnly ?? []) : [];
  const sections = useMemo(
    () => (schema === undefined ? [] : sectionsOf(schema.settings, schema.shape, hidden)),
    [schema, hidden.join()],
  );
  if (schema === undefined) return <p class="form-loading">Loading the settings…</p>;
  const errors = editor.errors.value;
  const placed = (key: string) => sections.some((s) => s.fields.some((f) => isWithin(key, f.path)));
  const unplaced = Object.entries(errors).filter(([key]) => key === '' || !placed(key));
  const warnings = contrastWarnings(editor.effective.value);
  return (
    <form class="settings-form" aria-label="Settings" onSubmit={(event) => event.preventDefault()}>
      {unplaced.length > 0 ? (
        <div class="form-error" role="alert" data-error="form">
          {unplaced.map(([key, message]) => (
            <p key={key}>{key === '' ? message : `${key}: ${message}`}</p>
          ))}
        </div>
      ) : null}
      <fieldset class="form-body" disabled={editor.readOnly !== null}>
        {sections.map((section) => (
          <SectionView
            key={section.id}
            section={section}
            editor={editor}
            warnings={warnings}
            initiallyOpen={OPEN_AT_START.includes(section.id)}
          />
        ))}
      </fieldset>
    </form>
  );
}

interface SectionProps {
  section: Section;
  editor: Editor;
  warnings: Record<string, string[]>;
  initiallyOpen: boolean;
}

function SectionView({ section, editor, warnings, initiallyOpen }: SectionProps) {
  const details = useRef<HTMLDetailsElement>(null);
  const errorKeys = Object.keys(editor.errors.value);
  const hasError = errorKeys.some((key) => section.fields.some((f) => isWithin(key, f.path)));
  useEffect(() => {
    if (hasError && details.current !== null) details.current.open = true;
  }, [hasError]);
  return (
    <details class="section" data-section={section.id} open={initiallyOpen} ref={details}>
      <summary>
        <h2>{section.title}</h2>
        {hasError ? <span class="badge badge-error">Error</span> : null}
      </summary>
      <div class="section-body">
        {runsOf(section.fields).map((run) =>
          run.within === undefined ? (
            run.fields.map((field) => (
              <Field
                key={field.path}
                field={field}
                editor={editor}
                warnings={warnings[field.path] ?? []}
              />
            ))
          ) : (
            <OptionalGroup
              key={run.within}
              within={run.within}
              fields={run.fields}
              editor={editor}
              warnings={warnings}
            />
          ),
        )}
      </div>
    </details>
  );
}

/** Consecutive fields of one optional group (the announcement) are shown, added or removed together. */
function runsOf(fields: FieldDescriptor[]): { within?: string; fields: FieldDescriptor[] }[] {
  const runs: { within?: string; fields: FieldDescriptor[] }[] = [];
  for (const field of fields) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.within === field.within) last.fields.push(field);
    else
      runs.push({
        ...(field.within === undefined ? {} : { within: field.within }),
        fields: [field],
      });
  }
  return runs;
}

function OptionalGroup(props: {
  within: string;
  fields: FieldDescriptor[];
  editor: Editor;
  warnings: Record<string, string[]>;
}) {
  const { within, fields, editor } = props;
  const schema = editor.schema.value;
  const present = getAt(editor.effective.value, within) !== undefined;
  const label = labelOf(within, {}).toLowerCase();
  if (!present) {
    const groupSchema = schemaAt(schema?.settings ?? {}, within.split('.')) ?? {};
    return (
      <div class="setting-absent">
        <span>No {label}.</span>
        <button
          type="button"
          class="button-small"
          data-add={within}
          onClick={() => editor.set(within, initialValue(groupSchema, within))}
        >
          Add {label}
        </button>
      </div>
    );
  }
  return (
    <div class="optional-group" data-group={within}>
      {fields.map((field) => (
        <Field
          key={field.path}
          field={field}
          editor={editor}
          warnings={props.warnings[field.path] ?? []}
        />
      ))}
      {editor.variant ? null : (
        <button
          type="button"
          class="button-small"
          data-remove={within}
          onClick={() => editor.set(within, undefined)}
        >
          Remove {label}
        </button>
      )}
    </div>
  );
}
