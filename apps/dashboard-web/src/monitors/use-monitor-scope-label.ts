import { useQuery } from "@tanstack/react-query";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { useNames } from "../components/use-names.js";
import { useSession } from "../session/session-context.js";
import { monitorScopeInfo, type MonitorScopeKind } from "./monitor-metrics.js";

/**
 * Names what a rule looks at: `scope(kind, value)` for the rule ("Project checkout", "Each API
 * key", the organization's name), `value(kind, value)` for one scope value of its states and
 * events ("checkout"; ids this role cannot list show as themselves), and `stateOf(rule, value)`
 * for a state (null: the rule's one value or the whole organization, named as the rule is).
 */
export function useMonitorScopeLabel() {
  const { session, can } = useSession();
  const names = useNames();
  const connections = useQuery({ ...dashboardQueries.connections(), enabled: can("get /api/connections") });
  const connectionNames = new Map((connections.data?.data ?? []).map((connection) => [connection.id, connection.name]));
  const value = (kind: MonitorScopeKind, scopeValue: string): string => {
    switch (kind) {
      case "project":
        return names.project(scopeValue);
      case "team":
        return names.team(scopeValue);
      case "api_key":
        return names.key(scopeValue);
      case "connection":
        return connectionNames.get(scopeValue) ?? scopeValue;
      default:
        return scopeValue;
    }
  };
  const scope = (kind: MonitorScopeKind, scopeValue: string | null): string =>
    kind === "organization" ? session.organization.name : scopeValue === null ? monitorScopeInfo[kind].each : `${monitorScopeInfo[kind].label} ${value(kind, scopeValue)}`;
  return {
    value,
    scope,
    stateOf: (rule: { scope: { kind: MonitorScopeKind; value: string | null } }, scopeValue: string | null): string =>
      scopeValue === null ? scope(rule.scope.kind, rule.scope.value) : value(rule.scope.kind, scopeValue),
  };
}

