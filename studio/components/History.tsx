import { useSignal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { getRevision, listRevisionPage, type RevisionSummary } from '../api/history';
import { displayNameOf } from '../api/sites';
import type { Editor, FieldChange, Json } from '../state/editor';
import type { SaveModel } from '../state/save';
import { ConfirmDialog } from './Dialog';
import { ChangeList } from './shell/ChangeList';
import { readableChanges } from './shell/readable';
import { useAsync } from './shell/useAsync';

interface HistoryProps {
  editor: Editor;
  save: SaveModel;
  /** null when restoring is allowed, else the API's reason */
  restoreRefused: string | null;
  /** null when reading history is allowed, else the API's reason */
  listRefused: string | null;
  onClose: () => void;
}

const OPERATIONS: Record<RevisionSummary['operation'], string> = {
  put: 'Saved',
  patch: 'Saved',
  delete: 'All overrides removed',
  restore: 'Restored',
};

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
function ago(iso: string): string {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  for (const [unit, size] of [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ] as const) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds), 'second');
}

function Who({ actor }: { actor: RevisionSummary['actor'] }) {
  const name = useAsync(
    () => (actor === null ? Promise.resolve('') : displayNameOf(actor.user)),
    [actor?.user],
  );
  if (actor === null) return <span>before history started</span>;
  return <span title={actor.user}>{name.status === 'done' ? name.value : actor.user}</span>;
}

/** One revision's changes; the values before are read (once) when the list is opened. */
function Changes({ editor, revision }: { editor: Editor; revision: RevisionSummary }) {
  const [before, setBefore] = useState<Json | undefined>(undefined);
  const [changes, setChanges] = useState<FieldChange[]>(() => readableChanges(revision.changes));
  async function opened(event: Event) {
    if (!(event.currentTarget as HTMLDetailsElement).open || before !== undefined) return;
    const document =
      revision.number > 1
        ? ((await getRevision(editor.target, revision.number - 1).catch(() => null))?.settings ??
          {})
        : editor.target.siteSpaceId === undefined
          ? undefined
          : {};
    if (document === undefined) return;
    setBefore(document);
    setChanges(readableChanges(revision.changes, document));
  }
  const count = revision.changes.length;
  return (
    <details class="revision-changes" onToggle={opened}>
      <summary>{count === 1 ? '1 field changed' : `${count} fields changed`}</summary>
      <ChangeList changes={changes} knowsBefore={before !== undefined} />
    </details>
  );
}

/** The revisions of the open site or variant, newest first, each restorable after a confirmation. */
export function History({ editor, save, restoreRefused, listRefused, onClose }: HistoryProps) {
  const etag = editor.etag.value;
  const first = useAsync(
    () =>
      listRefused === null
        ? listRevisionPage(editor.target)
        : Promise.resolve({ items: [], next: undefined }),
    [etag, listRefused],
  );
  // Older pages, appended on request ("Show older revisions"); a new first page starts over.
  const older = useSignal<{ items: RevisionSummary[]; next: string | undefined } | null>(null);
  const olderError = useSignal<string | null>(null);
  useEffect(() => {
    older.value = null;
  }, [first]);
  const revisions =
    first.status === 'done'
      ? {
          ...first,
          value: [...first.value.items, ...(older.value?.items ?? [])],
          next: older.value === null ? first.value.next : older.value.next,
        }
      : first;
  async function showOlder(page: string) {
    olderError.value = null;
    try {
      const more = await listRevisionPage(editor.target, page);
      older.value = { items: [...(older.value?.items ?? []), ...more.items], next: more.next };
    } catch (error) {
      olderError.value = error instanceof Error ? error.message : String(error);
    }
  }
  const confirming = useSignal<number | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  // Focus goes into the panel when it opens, and back to its toggle when it closes.
  useEffect(() => {
    closeButton.current?.focus();
    return () => document.querySelector<HTMLElement>('[data-testid="history"]')?.focus();
  }, []);
  useEffect(() => {
    const close = (event: KeyboardEvent) => {
      // A dialog's Escape is the dialog's (it is still open while the key goes down).
      if (event.key === 'Escape' && document.querySelector('dialog[open]') === null) onClose();
    };
    addEventListener('keydown', close);
    return () => removeEventListener('keydown', close);
  }, [onClose]);

  return (
    <aside class="history" aria-labelledby="history-title" data-testid="history-panel">
      <div class="history-head">
        <h2 id="history-title">History</h2>
        <button
          type="button"
          class="button"
          ref={closeButton}
          onClick={onClose}
          aria-label="Close history"
        >
          ✕
        </button>
      </div>
      {listRefused !== null && <p class="muted">{listRefused}</p>}
      {revisions.status === 'loading' && <p class="muted">Loading…</p>}
      {revisions.status === 'failed' && <p class="error">{revisions.error}</p>}
      {revisions.status === 'done' && revisions.value.length === 0 && listRefused === null && (
        <p class="muted">No change recorded yet.</p>
      )}
      {revisions.status === 'done' && (
        <ol class="revisions">
          {revisions.value.map((revision, index) => (
            <li key={revision.number} class="revision" data-testid={`revision-${revision.number}`}>
              <div class="revision-head">
                <strong>#{revision.number}</strong> {OPERATIONS[revision.operation]}
                {revision.restoredFrom !== undefined && ` #${revision.restoredFrom}`}
                {index === 0 && <span class="badge badge-small">current</span>}
              </div>
              <div class="muted small">
                <Who actor={revision.actor} /> ·{' '}
                <time
                  dateTime={revision.createdAt}
                  title={new Date(revision.createdAt).toLocaleString()}
                >
                  {ago(revision.createdAt)}
                </time>
              </div>
              <Changes editor={editor} revision={revision} />
              {index > 0 && restoreRefused === null && (
                <button
                  type="button"
                  class="button button-small"
                  data-testid={`restore-${revision.number}`}
                  onClick={() => {
                    confirming.value = revision.number;
                  }}
                >
                  Restore #{revision.number}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {revisions.status === 'done' && revisions.next !== undefined && (
        <button
          type="button"
          class="button"
          data-testid="history-older"
          onClick={() => {
            if (revisions.next !== undefined) void showOlder(revisions.next);
          }}
        >
          Show older revisions
        </button>
      )}
      {olderError.value !== null && (
        <p class="error" role="alert">
          {olderError.value}
        </p>
      )}
      <ConfirmDialog
        open={confirming.value !== null}
        title={`Restore revision #${confirming.value ?? ''}?`}
        confirmLabel="Restore"
        testId="confirm-restore"
        onCancel={() => {
          confirming.value = null;
        }}
        onConfirm={() => {
          const number = confirming.value;
          confirming.value = null;
          if (number !== null) void save.restore(number);
        }}
      >
        <p>
          The settings become what they were after revision #{confirming.value}. This is recorded as
          a new revision, so it can be undone too.
          {editor.dirty.value && ' Your unsaved edits will be lost.'}
        </p>
      </ConfirmDialog>
    </aside>
  );
}
