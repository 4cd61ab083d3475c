import { isObject } from '../../schema/paths.js';
import { Legend } from './Compound.js';
import { type ControlProps, currentValue, ErrorText, idOf, nameOf } from './common.js';

/** Texts by language (localized titles, messages): one row per language, a select to add one. */
export function LocalizedField(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const entries = isObject(value) ? Object.entries(value) : [];
  const languages = (field.schema.propertyNames?.enum ?? []).map(String);
  const unused = languages.filter((language) => !entries.some(([key]) => key === language));
  const inner =
    typeof field.schema.additionalProperties === 'object' ? field.schema.additionalProperties : {};
  const name = nameOf(props);
  return (
    <fieldset class="setting setting-localized">
      <Legend {...props} />
      {entries.map(([language, text]) => {
        const path = `${field.path}.${language}`;
        const rowProps = { ...props, field: { ...field, path } };
        return (
          <div key={language} class="localized-row">
            <label class="language" for={idOf(path)}>
              <span class="sr-only">{name}, </span>
              {language}
            </label>
            <input
              type="text"
              id={idOf(path)}
              data-setting={path}
              value={typeof text === 'string' ? text : ''}
              maxLength={inner.maxLength}
              onInput={(event) => editor.set(path, event.currentTarget.value)}
            />
            <button
              type="button"
              class="icon-button"
              data-remove={path}
              aria-label={`Remove ${language} from ${name}`}
              onClick={() => editor.set(path, undefined)}
            >
              ✕
            </button>
            <ErrorText {...rowProps} />
          </div>
        );
      })}
      <select
        data-setting={field.path}
        aria-label={`Add a language to ${name}`}
        value=""
        onChange={(event) => {
          const language = event.currentTarget.value;
          if (language !== '') editor.set(`${field.path}.${language}`, '');
        }}
      >
        <option value="">Add a language…</option>
        {unused.map((language) => (
          <option key={language} value={language}>
            {language}
          </option>
        ))}
      </select>
      <ErrorText {...props} />
    </fieldset>
  );
}
