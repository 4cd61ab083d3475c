import type { JSX } from 'preact';
import { leafPathOf } from '../../schema/leaf-paths.js';
import { initialValue } from '../../schema/values.js';
import type { Kind } from '../../schema/walk.js';
import {
  NameOrObjectField,
  ObjectField,
  OneFieldField,
  PairField,
  UnionField,
} from './Compound.js';
import { type ControlProps, currentValue, nameOf } from './common.js';
import { ColorInput, EnumInput, JsonInput, NumberInput, SwitchInput, TextInput } from './Inputs.js';
import { ListField } from './ListField.js';
import { LocalizedField } from './LocalizedField.js';

/** The widget of each kind of value (walk.ts infers the kind from the schema). */
const WIDGETS: Record<Kind, (props: ControlProps) => JSX.Element | null> = {
  pair: PairField,
  color: ColorInput,
  enum: EnumInput,
  boolean: SwitchInput,
  url: TextInput,
  text: TextInput,
  textarea: TextInput,
  number: NumberInput,
  nameOrObject: NameOrObjectField,
  oneField: OneFieldField,
  localized: LocalizedField,
  union: UnionField,
  list: ListField,
  object: ObjectField,
  json: JsonInput,
};

/** Kinds that cannot show "no value" themselves: absent, they offer an Add button instead. */
const ADDABLE = new Set<Kind>(['pair', 'object', 'union', 'oneField', 'list']);

/** One setting's control, for any kind; an optional compound value gets Add and Remove. */
export function Control(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const Widget = WIDGETS[field.kind];
  if (!ADDABLE.has(field.kind) || !field.optional) return <Widget {...props} />;
  const name = nameOf(props);
  if (value === undefined) {
    return (
      <div class="setting setting-absent">
        <span class="setting-label">{field.label}</span>
        <button
          type="button"
          class="button-small"
          data-add={field.path}
          aria-label={`Add ${name}`}
          onClick={() => editor.set(field.path, initialValue(field.schema, field.path))}
        >
          Add
        </button>
      </div>
    );
  }
  // A variant's whole leaf goes back to the site's value with Reset, not by removal.
  const shape = editor.schema.value?.shape ?? {};
  const removable = !editor.variant || leafPathOf(field.path, shape) !== field.path;
  return (
    <div class="setting-optional">
      <Widget {...props} />
      {removable ? (
        <button
          type="button"
          class="button-small"
          data-remove={field.path}
          aria-label={`Remove ${name}`}
          onClick={() => editor.set(field.path, undefined)}
        >
          Remove
        </button>
      ) : null}
    </div>
  );
}
