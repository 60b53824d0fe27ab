import type { ReactNode } from "react";

/** The tone of a badge. */
export type BadgeTone = "neutral" | "success" | "danger" | "warning" | "info";

/** A short status label ("active", "revoked", "sent"). */
export function StatusBadge(props: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge ${props.tone && props.tone !== "neutral" ? props.tone : ""}`}>{props.children}</span>;
}
