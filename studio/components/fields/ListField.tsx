import { useEffect, useRef } from 'preact/hooks';
import type { Json } from '../../schema/paths.js';
import { initialValue } from '../../schema/values.js';
import { childrenOf, describe } from '../../schema/walk.js';
import { Legend } from './Compound.js';
import { Control } from './Control.js';
import { type ControlProps, currentValue, ErrorText, nameOf } from './common.js';

/**
 * A list editor (header links and their sub-links, footer groups and their links, social
 * accounts, font faces, page actions, …): add, remove, and move items with buttons, which keep the
 * keyboard focus on the moved item.
 */
export function ListField(props: ControlProps) {
  const { field, editor } = props;
  const value = currentValue(props);
  const items: Json[] = Array.isArray(value) ? value : [];
  const itemSchema = field.schema.items ?? {};
  const name = nameOf(props);
  const max = field.schema.maxItems ?? Number.POSITIVE_INFINITY;
  const min = field.schema.minItems ?? 0;
  const list = useRef<HTMLOListElement>(null);
  const focusNext = useRef<string | undefined>(undefined);

  useEffect(() => {
    const selector = focusNext.current;
    focusNext.current = undefined;
    if (selector === undefined) return;
    const target = list.current?.querySelector<HTMLButtonElement>(selector);
    target?.focus();
  });

  const write = (next: Json[]) => editor.set(field.path, next);
  const move = (from: number, to: number, direction: 'up' | 'down') => {
    const next = [...items];
    const [moved] = next.splice(from, 1);
    if (moved === undefined) return;
    next.splice(to, 0, moved);
    // Keep the focus on the moved item: its same button, or the other one at the list's end.
    const edge =
      (direction === 'up' && to === 0) || (direction === 'down' && to === next.length - 1);
    const button = edge ? (direction === 'up' ? 'down' : 'up') : direction;
    focusNext.current = `[data-move="${field.path}.${to}:${button}"]`;
    write(next);
  };

  return (
    <fieldset class="setting setting-list" data-setting={field.path}>
      <Legend {...props} />
      <ol class="list-items" ref={list}>
        {items.map((item, index) => {
          const path = `${field.path}.${index}`;
          const title = isTitled(item) ? `: ${item.title}` : '';
          const itemName = `${name} ${index + 1}`;
          const itemField = describe(String(index), itemSchema, path, false);
          const object = itemField.kind === 'object';
          return (
            <li key={index} class="list-item">
              <div class="list-item-bar">
                <span class="list-item-title">
                  {index + 1}
                  {title}
                </span>
                <button
                  type="button"
                  class="icon-button"
                  data-move={`${path}:up`}
                  aria-label={`Move ${itemName} up`}
                  disabled={index === 0}
                  onClick={() => move(index, index - 1, 'up')}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="icon-button"
                  data-move={`${path}:down`}
                  aria-label={`Move ${itemName} down`}
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1, 'down')}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="icon-button"
                  data-remove={path}
                  aria-label={`Remove ${itemName}`}
                  disabled={items.length <= min}
                  onClick={() => write(items.filter((_, i) => i !== index))}
                >
                  ✕
                </button>
              </div>
              {object ? (
                childrenOf(itemField.schema, path).map((child) => (
                  <Control key={child.path} field={child} editor={editor} context={itemName} />
                ))
              ) : (
                <Control
                  field={{ ...itemField, label: `Item ${index + 1}` }}
                  editor={editor}
                  context={name}
                />
              )}
              {object ? <ErrorText {...props} field={itemField} /> : null}
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        class="button-small"
        data-add={field.path}
        aria-label={`Add to ${name}`}
        disabled={items.length >= max}
        onClick={() => write([...items, initialValue(itemSchema, `${field.path}.${items.length}`)])}
      >
        + Add
      </button>
      <ErrorText {...props} />
    </fieldset>
  );
}

const isTitled = (item: Json): item is { title: string } =>
  typeof item === 'object' &&
  item !== null &&
  !Array.isArray(item) &&
  typeof item.title === 'string' &&
  item.title !== '';
