import { formatDateTime } from "../format/format-date-time.js";
import { formatMicros } from "../format/format-micros.js";
import { formatDuration } from "../format/format-number.js";
import type { ActivityFilters, SingleActivityFilter } from "./activity-filters.js";

/** One chip of the filter bar: what it says and what removing it removes. */
export interface ActivityFilterChip {
  /** Stable React key. */
  id: string;
  label: string;
  value: string;
  /** The filters removing the chip removes (`from` and `to` go together; a metadata entry by its value). */
  remove: { name: SingleActivityFilter | "metadata"; value?: string }[];
}

/** Display names for ids in filters (unknown ids show as themselves). */
export interface ActivityFilterNames {
  project(id: string): string;
  team(id: string): string;
  key(id: string): string;
  connection(id: string): string;
  budget(id: string): string;
}

/** The label of each single-value filter on its chip. */
export const activityFilterLabels: Record<Exclude<SingleActivityFilter, "from" | "to">, string> = {
  project_id: "Project",
  team_id: "Team",
  api_key_id: "API key",
  requested_model: "Requested model",
  model: "Served model",
  connection_id: "Connection",
  endpoint: "Endpoint",
  status: "Status",
  error_code: "Error code",
  client_label: "Client",
  client_version: "Client version",
  session_id: "Session",
  min_latency_ms: "Latency at least",
  min_cost_micros: "Cost at least",
  max_cost_micros: "Cost at most",
  guardrail_flagged: "Guardrail",
  budget_outcome: "Budget",
  rate_limit_outcome: "Rate limit",
  request_id: "Request id",
};

/** Budget outcomes as the gateway records them, in words (`rejected:<budget id>` names its budget). */
export const budgetOutcomeLabels: Record<string, string> = {
  reserved: "reserved against a hard budget",
  soft_threshold: "crossed a soft threshold",
  rejected: "rejected by a hard budget",
};

/** A recorded budget outcome in words: `rejected:<id>` as "rejected by <budget name>". */
export function describeBudgetOutcome(outcome: string, budgetName: (id: string) => string): string {
  if (outcome.startsWith("rejected:")) return `rejected by ${budgetName(outcome.slice("rejected:".length))}`;
  return budgetOutcomeLabels[outcome] ?? outcome;
}

/** The time range in words: "since …", "until …" or "… – …". */
function describeTimeRange(from: string | undefined, to: string | undefined): string {
  if (from && to) return `${formatDateTime(from)} – ${formatDateTime(to)}`;
  if (from) return `since ${formatDateTime(from)}`;
  return `until ${formatDateTime(to)}`;
}

/** The value of one filter in words (names for ids, dollars for micros). */
function describeValue(name: Exclude<SingleActivityFilter, "from" | "to">, value: string, names: ActivityFilterNames): string {
  switch (name) {
    case "project_id":
      return names.project(value);
    case "team_id":
      return names.team(value);
    case "api_key_id":
      return names.key(value);
    case "connection_id":
      return names.connection(value);
    case "min_latency_ms":
      return formatDuration(Number(value));
    case "min_cost_micros":
    case "max_cost_micros":
      return formatMicros(Number(value));
    case "guardrail_flagged":
      return "flagged";
    case "budget_outcome":
      return describeBudgetOutcome(value, names.budget);
    default:
      return value;
  }
}

/** The chips for a set of filters, in the order of the filter list (time first, metadata last). */
export function describeActivityFilters(filters: ActivityFilters, names: ActivityFilterNames): ActivityFilterChip[] {
  const chips: ActivityFilterChip[] = [];
  if (filters.from !== undefined || filters.to !== undefined) {
    chips.push({ id: "time", label: "Time", value: describeTimeRange(filters.from, filters.to), remove: [{ name: "from" }, { name: "to" }] });
  }
  for (const [name, label] of Object.entries(activityFilterLabels) as [Exclude<SingleActivityFilter, "from" | "to">, string][]) {
    const value = filters[name];
    if (value !== undefined) chips.push({ id: name, label, value: describeValue(name, value, names), remove: [{ name }] });
  }
  for (const entry of filters.metadata ?? []) {
    const separator = entry.indexOf(":");
    chips.push({ id: `metadata:${entry}`, label: "Metadata", value: `${entry.slice(0, separator)} = ${entry.slice(separator + 1)}`, remove: [{ name: "metadata", value: entry }] });
  }
  return chips;
}
