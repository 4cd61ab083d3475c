/**
 * The save state machine of one open editor: idle | unsaved | saving | saved | error | conflict.
 * Save sends PUT (site) or PATCH (variant) with If-Match; a 400 goes to the field it names, a 412
 * opens the conflict (what the other person changed, then reload or apply mine on top). Undo,
 * restore and "remove all overrides" are writes too, and re-read the editor's state after them.
 * Server answers never make the form dirty: they replace the editor's base through `load`.
 */
import { computed, type ReadonlySignal, signal } from '@preact/signals';
import { ApiError } from '../api/client';
import { deleteOverride, patchVariant, putSite } from '../api/customization';
import { listRevisions, restoreRevision } from '../api/history';
import { type OtherChanges, otherChanges } from '../components/shell/conflict';
import { type Editor, fetchLoaded, type Loaded } from './editor';

export type SaveState = 'idle' | 'unsaved' | 'saving' | 'saved' | 'error' | 'conflict';

export interface Conflict {
  fresh: Loaded;
  /** null while history is being read */
  others: OtherChanges[] | null;
  /** why the other changes could not be shown */
  problem: string | null;
}

type Phase = 'idle' | 'saving' | 'saved' | 'error' | 'conflict';

const LABELS: Record<SaveState, string> = {
  idle: 'Save',
  unsaved: 'Save',
  saving: 'Saving…',
  saved: 'Saved',
  error: 'Retry',
  conflict: 'Save',
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createSaveModel(editor: Editor, loaded: Loaded) {
  const target = editor.target;
  const phase = signal<Phase>('idle');
  const message = signal<string | null>(null);
  const conflict = signal<Conflict | null>(null);
  /** The ETag our own last save produced: undo is offered while it is still current. */
  const savedEtag = signal<string | null>(null);
  let base = loaded;

  const state: ReadonlySignal<SaveState> = computed(() => {
    const now = phase.value;
    if (now === 'saving' || now === 'conflict') return now;
    if (editor.dirty.value) return now === 'error' ? 'error' : 'unsaved';
    // Nothing to retry without edits (a failed undo or restore keeps its message, not its label).
    return now === 'saved' ? 'saved' : 'idle';
  });
  const label = computed(() => LABELS[state.value]);
  const canUndo = computed(
    () =>
      editor.readOnly === null &&
      !editor.dirty.value &&
      phase.value !== 'saving' &&
      savedEtag.value !== null &&
      savedEtag.value === editor.etag.value,
  );

  /** Server state becomes the base; edits typed while a write was on its way are kept. */
  function show(next: Loaded, keepEdits = false): void {
    base = next;
    if (keepEdits) editor.rebase(next);
    else editor.load(next);
  }

  async function openConflict(): Promise<void> {
    const stale = editor.etag.value;
    phase.value = 'conflict';
    try {
      const fresh = await fetchLoaded(target);
      conflict.value = { fresh, others: null, problem: null };
      try {
        const others = await otherChanges(target, stale, fresh.etag);
        conflict.value = { fresh, others, problem: null };
      } catch (error) {
        conflict.value = { fresh, others: [], problem: messageOf(error) };
      }
    } catch (error) {
      phase.value = 'error';
      message.value = messageOf(error);
    }
  }

  /** Runs one write; `write` answers the new state, or nothing (then it is read again). */
  async function run(
    write: (etag: string) => Promise<Loaded | undefined>,
    sent?: string,
  ): Promise<boolean> {
    phase.value = 'saving';
    message.value = null;
    try {
      const next = (await write(editor.etag.value)) ?? (await fetchLoaded(target));
      show(next, sent !== undefined && JSON.stringify(editor.body()) !== sent);
      phase.value = 'saved';
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        await openConflict();
        return false;
      }
      if (error instanceof ApiError && error.status === 400) editor.fail(error);
      phase.value = 'error';
      message.value = messageOf(error);
      return false;
    }
  }

  async function save(): Promise<void> {
    if (editor.readOnly !== null || phase.value === 'saving') return;
    const body = editor.body();
    const before = editor.etag.value;
    const saved = await run(
      (etag) =>
        target.siteSpaceId === undefined
          ? putSite(target, body, etag)
          : patchVariant(target, body, etag),
      JSON.stringify(body),
    );
    // A save the server found to change nothing recorded no revision: nothing to undo.
    if (saved) savedEtag.value = editor.etag.value === before ? null : editor.etag.value;
  }

  /** Undo of our last save: restore the revision before it (none: back to defaults / no override). */
  async function undo(): Promise<void> {
    if (!canUndo.value) return;
    const done = await run(async (etag) => {
      const [latest] = await listRevisions(target, 1);
      // Our save made the newest revision (else If-Match answers 412: someone saved since).
      const previous = (latest?.number ?? 1) - 1;
      if (previous >= 1) return restoreRevision(target, previous, etag);
      return target.siteSpaceId === undefined
        ? putSite(target, {}, etag)
        : deleteOverride(target, etag);
    });
    if (done) savedEtag.value = null;
  }

  return {
    state,
    label,
    canUndo,
    message: message as ReadonlySignal<string | null>,
    conflict: conflict as ReadonlySignal<Conflict | null>,
    save,
    undo,
    discard(): void {
      show(base);
      phase.value = 'idle';
      message.value = null;
    },
    /** Restore a revision from the history panel. */
    restore: (number: number) => run((etag) => restoreRevision(target, number, etag)),
    /** A variant's "remove all overrides" (DELETE with If-Match). */
    removeOverrides: () => run((etag) => deleteOverride(target, etag)),
    /** Conflict: take their version, dropping my edits. */
    reload(): void {
      const open = conflict.value;
      conflict.value = null;
      if (open !== null) show(open.fresh);
      phase.value = 'idle';
    },
    /** Conflict: their version as the base, my edits on top, saved with the new ETag. */
    async applyMine(): Promise<void> {
      const open = conflict.value;
      conflict.value = null;
      if (open === null) return;
      base = open.fresh;
      editor.rebase(open.fresh);
      phase.value = 'idle';
      await save();
    },
    /** Conflict closed without a choice: my edits stay, unsaved. */
    dismissConflict(): void {
      conflict.value = null;
      phase.value = 'error';
      message.value = 'Not saved: someone else changed these settings meanwhile.';
    },
  };
}

export type SaveModel = ReturnType<typeof createSaveModel>;
