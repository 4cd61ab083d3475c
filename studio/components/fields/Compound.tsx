import { isObject } from '../../schema/paths.js';
import { initialValue } from '../../schema/values.js';
import { childrenOf, describe, type JsonSchema } from '../../schema/walk.js';
import { Control } from './Control.js';
import {
  CUSTOM_FONT,
  chosenFont,
  customChoice,
  FontUpload,
  isFontPath,
  useCustomFonts,
} from './CustomFonts.js';
import {
  type ControlProps,
  currentValue,
  ErrorText,
  errorAttributes,
  idOf,
  Label,
  nameOf,
} from './common.js';

/** Values made of other values: light/dark pairs, objects, link targets, favicon, fonts. */

export function Legend(props: ControlProps) {
  return (
    <legend class="setting-label">
      {props.context === undefined ? null : <span class="sr-only">{props.context}, </span>}
      {props.field.label}
    </legend>
  );
}

/** The controls of an object's fields, each named within `context`. */
export function Children(props: ControlProps & { schema: JsonSchema; skip?: string }) {
  const context = nameOf(props);
  return (
    <>
      {childrenOf(props.schema, props.field.path)
        .filter((child) => child.key !== props.skip)
        .map((child) => (
          <Control key={child.path} field={child} editor={props.editor} context={context} />
        ))}
    </>
  );
}

export function PairField(props: ControlProps) {
  return (
    <fieldset class="setting setting-pair">
      <Legend {...props} />
      <div class="pair">
        <Children {...props} schema={props.field.schema} />
      </div>
    </fieldset>
  );
}

export function ObjectField(props: ControlProps) {
  return (
    <fieldset class="setting setting-object">
      <Legend {...props} />
      <Children {...props} schema={props.field.schema} />
      <ErrorText {...props} />
    </fieldset>
  );
}

/** A link target: its kind chosen first, then that kind's fields. */
export function UnionField(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const tag = field.schema.discriminator?.propertyName ?? 'kind';
  const branches = field.schema.oneOf ?? [];
  const tagOf = (branch: JsonSchema) => String(branch.properties?.[tag]?.const ?? '');
  const current = isObject(value) ? String(value[tag] ?? '') : '';
  const branch = branches.find((b) => tagOf(b) === current);
  const tagField = describe(tag, { type: 'string' }, `${field.path}.${tag}`, false);
  const tagProps = { ...props, field: tagField, context: nameOf(props) };
  return (
    <fieldset class="setting setting-union">
      <Legend {...props} />
      <div class="setting">
        <Label {...tagProps} />
        <select
          id={idOf(tagField.path)}
          data-setting={tagField.path}
          value={current}
          onChange={(event) => {
            const next = branches.find((b) => tagOf(b) === event.currentTarget.value);
            editor.set(
              field.path,
              next === undefined ? null : initialValue(next, field.path, false),
            );
          }}
          {...errorAttributes(tagProps)}
        >
          {field.nullable || branch === undefined ? <option value="">(none)</option> : null}
          {branches.map((b) => (
            <option key={tagOf(b)} value={tagOf(b)}>
              {tagOf(b)}
            </option>
          ))}
        </select>
        <ErrorText {...tagProps} />
      </div>
      {branch === undefined ? null : <Children {...props} schema={branch} skip={tag} />}
      <ErrorText {...props} />
    </fieldset>
  );
}

/** An object holding at most one of its fields (favicon: an icon, an emoji, or nothing). */
export function OneFieldField(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const options = Object.keys(field.schema.properties ?? {});
  const chosen = isObject(value) ? options.find((key) => value[key] !== undefined) : undefined;
  const child = childrenOf(field.schema, field.path).find((c) => c.key === chosen);
  return (
    <fieldset class="setting setting-one">
      <Legend {...props} />
      <div class="setting">
        <label class="setting-label" for={idOf(field.path)}>
          <span class="sr-only">{nameOf(props)}, </span>Kind
        </label>
        <select
          id={idOf(field.path)}
          data-setting={field.path}
          value={chosen ?? ''}
          onChange={(event) => {
            const key = event.currentTarget.value;
            const inner = field.schema.properties?.[key];
            editor.set(
              field.path,
              inner === undefined ? {} : { [key]: initialValue(inner, `${field.path}.${key}`) },
            );
          }}
        >
          <option value="">None</option>
          {childrenOf(field.schema, field.path).map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      {child === undefined ? null : (
        <Control field={{ ...child, optional: false }} editor={editor} context={nameOf(props)} />
      )}
      <ErrorText {...props} />
    </fieldset>
  );
}

const CUSTOM = '__custom';

/**
 * One of a list of names (the default fonts), or an object (a font definition). A font setting
 * also offers the organization's custom fonts and their upload (CustomFonts.tsx).
 */
export function NameOrObjectField(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const alternatives = field.schema.anyOf ?? [];
  const names = (alternatives.find((s) => s.enum !== undefined)?.enum ?? []).map(String);
  const objectSchema = alternatives.find((s) => s.type === 'object');
  const font = isFontPath(field.path);
  const customFonts = font ? useCustomFonts(editor.target.organizationId) : [];
  const custom = customChoice(value, customFonts);
  return (
    <div class="setting setting-name-or-object">
      <Label {...props} />
      <select
        id={idOf(field.path)}
        data-setting={field.path}
        value={typeof value === 'string' ? value : value === undefined ? '' : (custom ?? CUSTOM)}
        onChange={(event) => {
          const choice = event.currentTarget.value;
          const chosen = chosenFont(choice, customFonts);
          if (choice === '') editor.set(field.path, undefined);
          else if (chosen !== undefined) editor.set(field.path, chosen);
          else if (choice.startsWith(CUSTOM_FONT)) return;
          else if (choice !== CUSTOM) editor.set(field.path, choice);
          else if (objectSchema !== undefined && (!isObject(value) || custom !== undefined)) {
            editor.set(field.path, initialValue(objectSchema, field.path));
          }
        }}
        {...errorAttributes(props)}
      >
        {field.optional ? <option value="">(none)</option> : null}
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
        {customFonts.length === 0 ? null : (
          <optgroup label="Organization fonts">
            {customFonts.map((f) => (
              <option key={f.id} value={`${CUSTOM_FONT}${f.id}`}>
                {f.fontFamily}
              </option>
            ))}
          </optgroup>
        )}
        {objectSchema === undefined ? null : <option value={CUSTOM}>Custom…</option>}
      </select>
      <ErrorText {...props} />
      {font ? <FontUpload {...props} /> : null}
      {objectSchema !== undefined && isObject(value) && custom === undefined ? (
        <div class="nested">
          <Children {...props} schema={objectSchema} />
        </div>
      ) : null}
    </div>
  );
}
