import { formatRelativeTime } from "../format/format-date-time.js";
import { StatusBadge } from "./status-badge.js";

/** Whether the last real delivery to a destination arrived, and when. */
export function LastDelivery(props: { at: string | null; ok: boolean | null }) {
  if (!props.at) return <span className="muted">none yet</span>;
  return (
    <>
      <StatusBadge tone={props.ok ? "success" : "danger"}>{props.ok ? "delivered" : "failed"}</StatusBadge>
      <div className="small muted">{formatRelativeTime(props.at)}</div>
    </>
  );
}
