import type { MonitorMetric, MonitorScopeKind } from "@gateway/contracts";
import { scopeDimension } from "./monitor-metric-value.js";

// The refusals a metric counts, when one error code names them all.
const errorCodeOf: Partial<Record<MonitorMetric, string>> = {
  guardrail_blocks: "guardrail_blocked",
  rate_limit_refusals: "gateway_rate_limit_exceeded",
};

/** The dashboard path of the calls a monitor measured (`/activity?from=&to=&<scope filter>`). */
export function monitorActivityUrl(input: { metric: MonitorMetric; scopeKind: MonitorScopeKind; scopeValue: string | null; start: Date; end: Date }): string {
  const parameters = new URLSearchParams({ from: input.start.toISOString(), to: input.end.toISOString() });
  // The activity filters are named as the rollup columns (`project_id`, `model`, `client_label`, ...).
  if (input.scopeKind !== "organization" && input.scopeValue) parameters.set(scopeDimension[input.scopeKind], input.scopeValue);
  const errorCode = errorCodeOf[input.metric];
  if (errorCode) parameters.set("error_code", errorCode);
  return `/activity?${parameters.toString()}`;
}
