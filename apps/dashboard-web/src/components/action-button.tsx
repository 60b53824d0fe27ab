import type { ReactNode } from "react";
import type { DashboardOperation } from "../api/dashboard-operation.js";
import { useSession } from "../session/session-context.js";

/**
 * A button for one API operation, shown only to roles that may call it (and only `when` the item
 * allows it, e.g. not for a key already revoked): what a role may not do is not shown.
 */
export function ActionButton(props: {
  operation: DashboardOperation;
  onClick: () => void;
  children: ReactNode;
  when?: boolean;
  tone?: "primary" | "danger";
  small?: boolean;
  disabled?: boolean;
  "aria-label"?: string;
}) {
  const { can } = useSession();
  if (props.when === false || !can(props.operation)) return null;
  const className = ["button", props.small ? "small" : null, props.tone ?? null].filter(Boolean).join(" ");
  return (
    <button type="button" className={className} onClick={props.onClick} disabled={props.disabled} aria-label={props["aria-label"]}>
      {props.children}
    </button>
  );
}
