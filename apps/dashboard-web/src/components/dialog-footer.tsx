import type { ReactNode } from "react";

/** The buttons under a dialog that asks for something: Cancel, then the dialog's own action. */
export function DialogFooter(props: { onCancel: () => void; children: ReactNode }) {
  return (
    <>
      <button type="button" className="button" onClick={props.onCancel}>
        Cancel
      </button>
      {props.children}
    </>
  );
}
