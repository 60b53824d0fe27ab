import type { ReactNode } from "react";
import { Dialog } from "./dialog.js";
import { ErrorNotice } from "./error-notice.js";

/** Asks before a destructive action (revoke, delete); shows the failure if the action fails. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  pending?: boolean;
  error?: unknown;
}) {
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="button danger solid" onClick={props.onConfirm} disabled={props.pending}>
            {props.pending ? "Working…" : props.confirmLabel}
          </button>
        </>
      }
    >
      <div className="stack">
        {props.children}
        {props.error ? <ErrorNotice error={props.error} /> : null}
      </div>
    </Dialog>
  );
}
