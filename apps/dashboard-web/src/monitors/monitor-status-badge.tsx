import { type BadgeTone, StatusBadge } from "../components/status-badge.js";
import type { MonitorStatus } from "./monitor-metrics.js";

const statusTones: Record<MonitorStatus, BadgeTone> = { ok: "success", firing: "danger", resolved: "info", muted: "neutral" };

/** A monitor state as a badge: ok, firing, resolved or muted. */
export function MonitorStatusBadge(props: { status: MonitorStatus }) {
  return <StatusBadge tone={statusTones[props.status]}>{props.status}</StatusBadge>;
}
