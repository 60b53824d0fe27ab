import type { MonitorMetric, MonitorScopeKind } from "@gateway/contracts";

const scopeParameter: Record<Exclude<MonitorScopeKind, "organization">, string> = {
  project: "project_id",
  team: "team_id",
  api_key: "api_key_id",
  model: "model",
  connection: "connection_id",
  client_label: "client_label",
};

// The refusals a metric counts, when one error code names them all.
const errorCodeOf: Partial<Record<MonitorMetric, string>> = {
  guardrail_blocks: "guardrail_blocked",
  rate_limit_refusals: "gateway_rate_limit_exceeded",
};

/** The dashboard path of the calls a monitor measured (`/activity?from=&to=&<scope filter>`). */
export function monitorActivityUrl(input: { metric: MonitorMetric; scopeKind: MonitorScopeKind; scopeValue: string | null; start: Date; end: Date }): string {
  const parameters = new URLSearchParams({ from: input.start.toISOString(), to: input.end.toISOString() });
  if (input.scopeKind !== "organization" && input.scopeValue) parameters.set(scopeParameter[input.scopeKind], input.scopeValue);
  const errorCode = errorCodeOf[input.metric];
  if (errorCode) parameters.set("error_code", errorCode);
  return `/activity?${parameters.toString()}`;
}
