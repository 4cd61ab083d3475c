import { getAt, type Json } from '../../schema/paths.js';
import type { FieldDescriptor } from '../../schema/walk.js';
import type { Editor } from '../../state/editor.js';

/** What every control gets: its field, the editor, and the name of what it is part of. */
export interface ControlProps {
  field: FieldDescriptor;
  editor: Editor;
  /** The enclosing field's accessible name ("Primary color"), prefixed to this one's. */
  context?: string;
}

/** DOM ids from paths: unique per form, valid in `for` and `aria-describedby`. */
export const idOf = (path: string): string => `setting-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;

export const currentValue = (props: ControlProps): Json | undefined =>
  getAt(props.editor.effective.value, props.field.path);

/** "Primary color, light": the field's label within its context. */
export const nameOf = ({ field, context }: ControlProps): string =>
  context === undefined ? field.label : `${context}, ${field.label.toLowerCase()}`;

/** The error the API named at exactly this control's path, if any. */
export const errorOf = ({ editor, field }: ControlProps): string | undefined =>
  editor.errors.value[field.path];

/** The attributes tying a control to its error message. */
export function errorAttributes(props: ControlProps): Record<string, string> {
  return errorOf(props) === undefined
    ? {}
    : { 'aria-invalid': 'true', 'aria-describedby': `${idOf(props.field.path)}-error` };
}

export function ErrorText(props: ControlProps) {
  const error = errorOf(props);
  if (error === undefined) return null;
  return (
    <p class="setting-error" id={`${idOf(props.field.path)}-error`} role="alert">
      {error}
    </p>
  );
}

/** A visible label whose accessible text also names the context ("Primary color, Light"). */
export function Label(props: ControlProps & { for?: string }) {
  return (
    <label class="setting-label" for={props.for ?? idOf(props.field.path)}>
      {props.context === undefined ? null : <span class="sr-only">{props.context}, </span>}
      {props.field.label}
    </label>
  );
}
