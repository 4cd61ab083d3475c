import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface DialogProps {
  open: boolean;
  title: string;
  /** Escape, the close button, or a choice: the owner decides what closing means. */
  onClose: () => void;
  children: ComponentChildren;
  /** Buttons at the bottom. */
  actions: ComponentChildren;
  testId?: string;
  wide?: boolean;
}

/** A modal <dialog>: the browser traps focus in it and gives it back; Escape closes it. */
export function Dialog({ open, title, onClose, children, actions, testId, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      class={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          <div class="dialog-body">{children}</div>
          <div class="dialog-actions">{actions}</div>
        </>
      )}
    </dialog>
  );
}

interface ConfirmProps {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/** Asks before something that cannot be taken back silently; Cancel has the focus first. */
export function ConfirmDialog(props: ConfirmProps) {
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onCancel}
      {...(props.testId === undefined ? {} : { testId: props.testId })}
      actions={
        <>
          <button type="button" class="button" onClick={props.onCancel} autofocus>
            Cancel
          </button>
          <button
            type="button"
            class={props.danger ? 'button button-danger' : 'button button-primary'}
            data-testid="confirm"
            onClick={props.onConfirm}
          >
            {props.confirmLabel}
          </button>
        </>
      }
    >
      {props.children}
    </Dialog>
  );
}
