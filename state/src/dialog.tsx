import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

export interface DialogProps {
  title: string;
  children: ReactNode;
  /** The buttons and links at the bottom. */
  actions: ReactNode;
  /** Escape, a click on the backdrop: the parent stops rendering the dialog. */
  onClose: () => void;
  /** Gets focus when the dialog opens (default: the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  /**
   * Gets focus back when the dialog goes away, when the opener cannot (it was disabled while a
   * request ran, so focus had already left it). Default: whatever had focus when it opened.
   */
  returnFocus?: RefObject<HTMLElement | null>;
  /** While true, Escape and the backdrop do not close it (a request is running). */
  busy?: boolean;
  /** Extra class on the panel. */
  className?: string;
}

const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The site's one modal dialog, on the native `<dialog>` element opened with showModal(): the
 * browser puts it in the top layer and makes the page behind it inert (no clicks, no focus, hidden
 * from screen readers). Tab also wraps inside it, because leaving the last element would otherwise
 * move focus out to the browser's own UI. Escape and the backdrop call onClose; focus goes back
 * to whatever had it before (the opener) when the dialog goes away. Render it to open it.
 */
export function Dialog({
  title,
  children,
  actions,
  onClose,
  initialFocus,
  returnFocus,
  busy = false,
  className,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const busyRef = useRef(busy);
  const closeRef = useRef(onClose);
  useEffect(() => {
    busyRef.current = busy;
    closeRef.current = onClose;
  });

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    (initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    // Escape fires `cancel`: the parent decides (it unmounts us), the browser does not close alone.
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!busyRef.current) closeRef.current();
    };
    // Browsers may close a dialog on their own (repeated Escape without a click in between):
    // the parent then stops rendering it too.
    const onClosed = () => closeRef.current();
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClosed);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClosed);
      if (dialog.open) dialog.close();
      // Read at close time on purpose: the element the parent points at now.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      const back = returnFocus?.current ?? opener;
      if (back?.isConnected) back.focus();
    };
    // Opened once per mount; initialFocus is read only then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: React.KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <dialog
      ref={ref}
      className="site-dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={onKeyDown}
      onClick={(event) => {
        // A click on the dialog element itself (not its panel) is a click on the backdrop.
        if (event.target === event.currentTarget && !busyRef.current) closeRef.current();
      }}
    >
      <div className={`modal${className ? ` ${className}` : ''}`}>
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div id={bodyId}>{children}</div>
        <div className="modal-actions">{actions}</div>
      </div>
    </dialog>,
    document.body,
  );
}
