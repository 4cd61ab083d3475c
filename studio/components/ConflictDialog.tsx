import type { SaveModel } from '../state/save';
import { Dialog } from './Dialog';
import { ChangeList } from './shell/ChangeList';

/** 412: someone else saved first. Show what they changed; reload theirs or apply mine on top. */
export function ConflictDialog({ save }: { save: SaveModel }) {
  const conflict = save.conflict.value;
  return (
    <Dialog
      open={conflict !== null}
      title="Someone else changed these settings"
      onClose={save.dismissConflict}
      testId="conflict-dialog"
      wide
      actions={
        <>
          <button type="button" class="button" data-testid="reload" onClick={save.reload}>
            Reload (drop my edits)
          </button>
          <button
            type="button"
            class="button button-primary"
            data-testid="apply-mine"
            onClick={() => void save.applyMine()}
          >
            Apply mine on top
          </button>
        </>
      }
    >
      <p>They saved while you were editing. Your edits are not saved yet. Their changes:</p>
      {conflict?.others === null && (
        <p class="muted" role="status">
          Reading the history…
        </p>
      )}
      {conflict?.others?.map((part) => (
        <section key={part.title} class="conflict-part">
          <h3>{part.title}</h3>
          <ChangeList changes={part.changes} knowsBefore={part.knowsBefore} />
        </section>
      ))}
      {conflict?.problem != null && (
        <p class="error">Their changes could not be read: {conflict.problem}</p>
      )}
    </Dialog>
  );
}
