import { useRef, type ReactNode } from 'react';
import { Dialog } from '@motoparts/state';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A confirmation (docs/product.md) instead of window.confirm, on the site's one Dialog: it says what will
 * happen, traps focus, closes on Escape, and gives focus back to whatever opened it.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = 'Keep it',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      busy={busy}
      // The safe choice gets focus, so Enter right away does not destroy anything.
      initialFocus={cancelRef}
      actions={
        <>
          <button
            ref={cancelRef}
            type="button"
            className="btn btn-outline"
            onClick={onCancel}
            disabled={busy}
          >
            {cancelLabel}
          </button>
          <button type="button" className="btn" onClick={onConfirm} disabled={busy}>
            {busy ? 'Working...' : confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
