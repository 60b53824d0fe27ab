import type { ReactNode } from "react";
import { Dialog } from "./dialog.js";
import { DialogFooter } from "./dialog-footer.js";
import { ErrorNotice } from "./error-notice.js";
import { PendingButton } from "./pending-button.js";
import type { SchemaForm } from "./use-schema-form.js";

/** A dialog holding one form, with Cancel and a submit button; shows what the API refused. */
export function FormDialog<Values>(props: { title: string; submitLabel: string; pendingLabel?: string; form: SchemaForm<Values>; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const formId = `form-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <Dialog
      open
      wide={props.wide ?? false}
      title={props.title}
      onClose={props.onClose}
      footer={
        <DialogFooter onCancel={props.onClose}>
          <PendingButton type="submit" form={formId} className="button primary" pending={props.form.pending} pendingLabel={props.pendingLabel ?? "Saving…"}>
            {props.submitLabel}
          </PendingButton>
        </DialogFooter>
      }
    >
      <form id={formId} className="stack" onSubmit={props.form.submit} noValidate>
        {props.children}
        {props.form.formError ? <ErrorNotice error={props.form.formError} /> : null}
      </form>
    </Dialog>
  );
}
