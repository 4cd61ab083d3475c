import { useSignal } from '@preact/signals';
import type { Editor } from '../state/editor';
import type { SaveModel } from '../state/save';
import { ConfirmDialog } from './Dialog';

interface SaveBarProps {
  editor: Editor;
  save: SaveModel;
  historyOpen: boolean;
  onHistory: () => void;
}

/** Save / Discard / Undo last save / Remove all overrides, the save state, and the history toggle. */
export function SaveBar({ editor, save, historyOpen, onHistory }: SaveBarProps) {
  const confirmRemove = useSignal(false);
  const state = save.state.value;
  const readOnly = editor.readOnly !== null;
  const isVariant = editor.target.siteSpaceId !== undefined;
  const count = editor.changes.value.length;
  const status =
    state === 'unsaved'
      ? count === 1
        ? '1 unsaved change'
        : `${count} unsaved changes`
      : state === 'saved'
        ? 'All changes saved'
        : state === 'conflict'
          ? 'Someone else saved meanwhile'
          : '';
  return (
    <div class="savebar" data-testid="savebar" data-state={state}>
      {!readOnly && (
        <>
          <button
            type="button"
            class="button button-primary"
            data-testid="save"
            disabled={!(state === 'unsaved' || state === 'error')}
            onClick={() => void save.save()}
          >
            {save.label.value}
          </button>
          <button
            type="button"
            class="button"
            data-testid="discard"
            disabled={!editor.dirty.value || state === 'saving'}
            onClick={save.discard}
          >
            Discard
          </button>
          <button
            type="button"
            class="button"
            data-testid="undo"
            disabled={!save.canUndo.value}
            title="Restore the settings as they were before your last save"
            onClick={() => void save.undo()}
          >
            Undo last save
          </button>
          {isVariant && (
            <button
              type="button"
              class="button button-danger-outline"
              data-testid="remove-overrides"
              disabled={state === 'saving' || !editor.hasOverride.value}
              title={editor.hasOverride.value ? undefined : 'This variant overrides nothing'}
              onClick={() => {
                confirmRemove.value = true;
              }}
            >
              Remove all overrides
            </button>
          )}
        </>
      )}
      <span class="save-status" role="status" aria-live="polite">
        {status}
        {save.message.value !== null && <span class="error"> {save.message.value}</span>}
      </span>
      <button
        type="button"
        class="button savebar-end"
        data-testid="history"
        aria-expanded={historyOpen}
        onClick={onHistory}
      >
        History
      </button>
      <ConfirmDialog
        open={confirmRemove.value}
        title="Remove all overrides of this variant?"
        confirmLabel="Remove all overrides"
        danger
        testId="confirm-remove-overrides"
        onCancel={() => {
          confirmRemove.value = false;
        }}
        onConfirm={() => {
          confirmRemove.value = false;
          void save.removeOverrides();
        }}
      >
        <p>
          Every field of this variant goes back to the site's value.
          {editor.dirty.value && ' Your unsaved edits will be lost.'} The history keeps the
          overrides, so they can be restored.
        </p>
      </ConfirmDialog>
    </div>
  );
}
