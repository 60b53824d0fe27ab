import type { ActivityFilters } from "../activity/activity-filters.js";
import { otherGroupKey } from "./pivot-usage.js";

/** How the Usage charts group calls. */
export type UsageGroupBy = "model" | "api_key" | "project" | "client_label" | "none";

/**
 * The Activity filters behind a part of a Usage chart: the calls of one group (a model, key,
 * project or client label; "other" and "unknown" groups add no group filter) in a time range,
 * within the project the chart is narrowed to.
 */
export function usageActivityFilters(options: { groupBy: UsageGroupBy; key?: string; from: Date; to: Date; projectId?: string }): ActivityFilters {
  const filters: ActivityFilters = { from: options.from.toISOString(), to: options.to.toISOString() };
  if (options.projectId) filters.project_id = options.projectId;
  const key = options.key;
  if (key === undefined || key === "" || key === otherGroupKey) return filters;
  // The charts key a model as `<provider>/<model>`; calls record the served model without its provider.
  if (options.groupBy === "model") filters.model = key.includes("/") ? key.slice(key.indexOf("/") + 1) : key;
  else if (options.groupBy === "api_key") filters.api_key_id = key;
  else if (options.groupBy === "project") filters.project_id = key;
  else if (options.groupBy === "client_label") filters.client_label = key;
  return filters;
}
