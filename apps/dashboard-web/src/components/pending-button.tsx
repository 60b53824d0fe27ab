import type { ReactNode } from "react";

/** A button that starts a call: disabled and relabelled ("Saving…") while the call runs. */
export function PendingButton(props: { pending: boolean; pendingLabel: string; className: string; children: ReactNode; type?: "button" | "submit"; form?: string; onClick?: () => void }) {
  return (
    <button type={props.type ?? "button"} form={props.form} className={props.className} onClick={props.onClick} disabled={props.pending}>
      {props.pending ? props.pendingLabel : props.children}
    </button>
  );
}
