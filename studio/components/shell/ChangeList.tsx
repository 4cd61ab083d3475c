import type { FieldChange } from '../../state/editor';
import { shortValue } from './readable';

/** Field changes as "path: before → after" lines; `before` is left out when unknown. */
export function ChangeList({
  changes,
  knowsBefore,
}: {
  changes: FieldChange[];
  knowsBefore: boolean;
}) {
  if (changes.length === 0) return <p class="muted">No field changed.</p>;
  return (
    <ul class="changes">
      {changes.map((change) => (
        <li key={change.path}>
          <code class="change-path">{change.path}</code>:{' '}
          {knowsBefore && (
            <>
              <span class="change-before">{shortValue(change.before)}</span> →{' '}
            </>
          )}
          <span class="change-after">{shortValue(change.after)}</span>
        </li>
      ))}
    </ul>
  );
}
