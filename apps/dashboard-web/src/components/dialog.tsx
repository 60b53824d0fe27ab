import { type ReactNode, useEffect, useId, useRef } from "react";

/** The controls a person fills in (buttons, links and disabled or read-only fields are not). */
const fieldSelector = [
  'input:not([type="hidden"]):not([type="button"]):not([type="submit"]):not([type="reset"]):not(:disabled):not([readonly])',
  "select:not(:disabled)",
  "textarea:not(:disabled):not([readonly])",
].join(", ");

/** The first field of a dialog's body, if it has one. */
function firstFieldOf(dialog: HTMLDialogElement): HTMLElement | null {
  return dialog.querySelector<HTMLElement>(`.dialog-body :is(${fieldSelector})`);
}

/**
 * A modal dialog on the native `<dialog>` element: the browser traps focus inside it, Escape
 * closes it, focus starts on its first field and returns to what opened it.
 */
export function Dialog(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
  /** Shown as a full-height panel on the right (details of a row the page still shows beside it). */
  drawer?: boolean;
}) {
  const reference = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = reference.current;
    if (!dialog || !props.open) return;
    // Give focus back to the opener however the dialog goes away (closed, or unmounted with its screen state).
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // showModal() focuses the first focusable element, the Close button of the header: start on the
    // first field instead, so typing goes where the dialog asks for something (no field: the browser's choice stays).
    firstFieldOf(dialog)?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [props.open]);
  return (
    <dialog
      ref={reference}
      aria-labelledby={titleId}
      className={props.drawer ? "drawer" : props.wide ? "wide" : undefined}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      {props.open ? (
        <>
          <div className="dialog-header">
            <h2 id={titleId}>{props.title}</h2>
            <button type="button" className="button small" onClick={props.onClose} aria-label="Close">
              ✕
            </button>
          </div>
          <div className="dialog-body">{props.children}</div>
          {props.footer ? <div className="dialog-footer">{props.footer}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}
