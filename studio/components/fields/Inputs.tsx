import { useState } from 'preact/hooks';
import { UPLOADS } from '../../schema/hints.js';
import { patternOf } from '../../schema/paths.js';
import { constraintsOf } from '../../schema/values.js';
import {
  type ControlProps,
  currentValue,
  ErrorText,
  errorAttributes,
  idOf,
  Label,
  nameOf,
} from './common.js';
import { UploadButton } from './UploadButton.js';

/** The scalar controls: text, URL, long text, number, color, enumeration, switch, raw JSON. */

/** An empty optional text is no value at all (the field is left out). */
const textValue = (props: ControlProps, text: string) =>
  text === '' && props.field.optional ? undefined : text;

export function TextInput(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const common = {
    id: idOf(field.path),
    'data-setting': field.path,
    value: typeof value === 'string' ? value : '',
    onInput: (event: Event) =>
      editor.set(field.path, textValue(props, (event.currentTarget as HTMLInputElement).value)),
    ...constraintsOf(field),
    ...errorAttributes(props),
  };
  return (
    <div class="setting">
      <Label {...props} />
      {field.kind === 'textarea' ? (
        <textarea rows={4} {...common} />
      ) : field.kind === 'url' && UPLOADS[patternOf(field.path)] !== undefined ? (
        <span class="url-pair">
          <input type="url" {...common} />
          <UploadButton {...props} />
        </span>
      ) : field.kind === 'url' ? (
        <input type="url" {...common} />
      ) : (
        <input type="text" {...common} />
      )}
      <ErrorText {...props} />
    </div>
  );
}

export function NumberInput(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  return (
    <div class="setting">
      <Label {...props} />
      <input
        type="number"
        id={idOf(field.path)}
        data-setting={field.path}
        value={typeof value === 'number' ? value : ''}
        step={field.schema.type === 'integer' ? 1 : 'any'}
        onInput={(event) => {
          const text = event.currentTarget.value;
          if (text === '' && field.optional) editor.set(field.path, undefined);
          else if (text !== '' && Number.isFinite(Number(text)))
            editor.set(field.path, Number(text));
        }}
        {...constraintsOf(field)}
        {...errorAttributes(props)}
      />
      <ErrorText {...props} />
    </div>
  );
}

/** `<input type=color>` only takes #rrggbb; #rgb is spelled out, anything else shows black. */
function pickerValue(value: unknown): string {
  if (typeof value !== 'string') return '#000000';
  if (/^#[0-9a-fA-F]{6}$/.test(value)) return value.toLowerCase();
  if (/^#[0-9a-fA-F]{3}$/.test(value))
    return `#${[...value.slice(1)].map((d) => d + d).join('')}`.toLowerCase();
  return '#000000';
}

export function ColorInput(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const set = (event: Event) =>
    editor.set(field.path, (event.currentTarget as HTMLInputElement).value);
  return (
    <div class="setting setting-color">
      <Label {...props} />
      <span class="color-pair">
        <input
          type="color"
          class="color-picker"
          aria-label={`${nameOf(props)} (picker)`}
          data-picker={field.path}
          value={pickerValue(value)}
          onInput={set}
        />
        <input
          type="text"
          id={idOf(field.path)}
          data-setting={field.path}
          value={typeof value === 'string' ? value : ''}
          spellcheck={false}
          size={8}
          onInput={set}
          {...constraintsOf(field)}
          {...errorAttributes(props)}
        />
      </span>
      <ErrorText {...props} />
    </div>
  );
}

/** Up to this many values show as segmented buttons; more as a select. */
const SEGMENTED_MAX = 4;

export function EnumInput(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const options = (field.schema.enum ?? []).filter((v): v is string => typeof v === 'string');
  const choose = (next: string) => editor.set(field.path, next === '' ? undefined : next);
  if (options.length <= SEGMENTED_MAX) {
    const all = field.optional ? ['', ...options] : options;
    return (
      <fieldset class="setting segmented" data-setting={field.path} {...errorAttributes(props)}>
        <legend class="setting-label">
          {props.context === undefined ? null : <span class="sr-only">{props.context}, </span>}
          {field.label}
        </legend>
        <span class="segments">
          {all.map((option) => (
            <label key={option} class="segment">
              <input
                type="radio"
                name={idOf(field.path)}
                value={option}
                checked={(value ?? '') === option}
                onChange={() => choose(option)}
              />
              <span>{option === '' ? 'none' : option}</span>
            </label>
          ))}
        </span>
        <ErrorText {...props} />
      </fieldset>
    );
  }
  return (
    <div class="setting">
      <Label {...props} />
      <select
        id={idOf(field.path)}
        data-setting={field.path}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => choose(event.currentTarget.value)}
        {...errorAttributes(props)}
      >
        {field.optional || value === undefined ? <option value="">(none)</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <ErrorText {...props} />
    </div>
  );
}

export function SwitchInput(props: ControlProps) {
  const { field, editor } = props;
  return (
    <div class="setting setting-switch">
      <input
        type="checkbox"
        role="switch"
        aria-checked={currentValue(props) === true}
        id={idOf(field.path)}
        data-setting={field.path}
        checked={currentValue(props) === true}
        onChange={(event) => editor.set(field.path, event.currentTarget.checked)}
        {...errorAttributes(props)}
      />
      <Label {...props} />
      <ErrorText {...props} />
    </div>
  );
}

/** For a value no other control knows: its JSON, applied when it parses. */
export function JsonInput(props: ControlProps) {
  const { field, editor } = props;
  const current = JSON.stringify(currentValue(props) ?? null, null, 2);
  const [text, setText] = useState<string | undefined>(undefined);
  const [invalid, setInvalid] = useState(false);
  return (
    <div class="setting">
      <Label {...props} />
      <textarea
        id={idOf(field.path)}
        data-setting={field.path}
        class="json"
        rows={4}
        spellcheck={false}
        value={text ?? current}
        aria-invalid={invalid}
        onInput={(event) => setText(event.currentTarget.value)}
        onBlur={() => {
          if (text === undefined) return;
          try {
            editor.set(field.path, JSON.parse(text));
            setText(undefined);
            setInvalid(false);
          } catch {
            setInvalid(true);
          }
        }}
      />
      {invalid ? <p class="setting-error">Not valid JSON</p> : <ErrorText {...props} />}
    </div>
  );
}
