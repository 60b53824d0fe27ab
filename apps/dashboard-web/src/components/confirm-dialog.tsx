import type { ReactNode } from "react";
import { Dialog } from "./dialog.js";
import { DialogFooter } from "./dialog-footer.js";
import { ErrorNotice } from "./error-notice.js";
import { PendingButton } from "./pending-button.js";

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
        <DialogFooter onCancel={props.onClose}>
          <PendingButton className="button danger solid" onClick={props.onConfirm} pending={props.pending ?? false} pendingLabel="Working…">
            {props.confirmLabel}
          </PendingButton>
        </DialogFooter>
      }
    >
      <div className="stack">
        {props.children}
        {props.error ? <ErrorNotice error={props.error} /> : null}
      </div>
    </Dialog>
  );
}
