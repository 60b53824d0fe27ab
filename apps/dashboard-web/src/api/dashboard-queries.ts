import { queryOptions } from "@tanstack/react-query";
import type { paths } from "../generated/dashboard-api.js";
import { callApi, dashboardClient } from "./dashboard-client.js";

type Query<Path extends keyof paths> = paths[Path] extends { get: { parameters: { query?: infer Parameters } } } ? NonNullable<Parameters> : never;

/**
 * The dashboard's read queries (TanStack Query options): one key per resource, so a change
 * invalidates every screen that shows it.
 */
export const dashboardQueries = {
  organization: () => queryOptions({ queryKey: ["organization"], queryFn: () => callApi(dashboardClient.GET("/api/organization")) }),
  projects: () => queryOptions({ queryKey: ["projects"], queryFn: () => callApi(dashboardClient.GET("/api/projects")) }),
  apiKeys: (query: Query<"/api/api-keys"> = {}) =>
    queryOptions({ queryKey: ["api-keys", query], queryFn: () => callApi(dashboardClient.GET("/api/api-keys", { params: { query } })) }),
  connections: () => queryOptions({ queryKey: ["connections"], queryFn: () => callApi(dashboardClient.GET("/api/connections")) }),
  routes: () => queryOptions({ queryKey: ["routes"], queryFn: () => callApi(dashboardClient.GET("/api/routes")) }),
  policies: () => queryOptions({ queryKey: ["policies"], queryFn: () => callApi(dashboardClient.GET("/api/policies")) }),
  budgets: () => queryOptions({ queryKey: ["budgets"], queryFn: () => callApi(dashboardClient.GET("/api/budgets")) }),
  budgetStatuses: () => queryOptions({ queryKey: ["budgets", "status"], queryFn: () => callApi(dashboardClient.GET("/api/usage/budgets")), refetchInterval: 30_000 }),
  rateLimits: () => queryOptions({ queryKey: ["rate-limits"], queryFn: () => callApi(dashboardClient.GET("/api/rate-limits")) }),
  rateLimitStatuses: () =>
    queryOptions({ queryKey: ["rate-limits", "status"], queryFn: () => callApi(dashboardClient.GET("/api/usage/rate-limits")), refetchInterval: 10_000 }),
  teams: () => queryOptions({ queryKey: ["teams"], queryFn: () => callApi(dashboardClient.GET("/api/teams")) }),
  teamMembers: (teamId: string) =>
    queryOptions({ queryKey: ["teams", teamId, "members"], queryFn: () => callApi(dashboardClient.GET("/api/teams/{team_id}/members", { params: { path: { team_id: teamId } } })) }),
  members: () => queryOptions({ queryKey: ["members"], queryFn: () => callApi(dashboardClient.GET("/api/members")) }),
  invitations: (query: Query<"/api/invitations"> = {}) =>
    queryOptions({ queryKey: ["invitations", query], queryFn: () => callApi(dashboardClient.GET("/api/invitations", { params: { query } })) }),
  telemetryDestinations: () => queryOptions({ queryKey: ["telemetry-destinations"], queryFn: () => callApi(dashboardClient.GET("/api/telemetry-destinations")) }),
  notificationChannels: () => queryOptions({ queryKey: ["notification-channels"], queryFn: () => callApi(dashboardClient.GET("/api/notification-channels")) }),
  monitors: () => queryOptions({ queryKey: ["monitors"], queryFn: () => callApi(dashboardClient.GET("/api/monitors")), refetchInterval: 30_000 }),
  monitorSeries: (monitorId: string, query: Query<"/api/monitors/{monitor_id}/series"> = {}) =>
    queryOptions({
      queryKey: ["monitors", monitorId, "series", query],
      queryFn: () => callApi(dashboardClient.GET("/api/monitors/{monitor_id}/series", { params: { path: { monitor_id: monitorId }, query } })),
      refetchInterval: 60_000,
    }),
  mcpServers: () => queryOptions({ queryKey: ["mcp-servers"], queryFn: () => callApi(dashboardClient.GET("/api/mcp/servers")) }),
  mcpTokens: () => queryOptions({ queryKey: ["mcp-tokens"], queryFn: () => callApi(dashboardClient.GET("/api/mcp/tokens")) }),
  usageSeries: (query: Query<"/api/usage/series">) =>
    queryOptions({ queryKey: ["usage", "series", query], queryFn: () => callApi(dashboardClient.GET("/api/usage/series", { params: { query } })) }),
  usageDaily: (query: Query<"/api/usage/daily">) =>
    queryOptions({ queryKey: ["usage", "daily", query], queryFn: () => callApi(dashboardClient.GET("/api/usage/daily", { params: { query } })) }),
  usageEvents: (query: Query<"/api/usage/events">) =>
    queryOptions({ queryKey: ["usage", "events", query], queryFn: () => callApi(dashboardClient.GET("/api/usage/events", { params: { query } })) }),
  auditEvents: (query: Query<"/api/audit-events">) =>
    queryOptions({ queryKey: ["audit-events", query], queryFn: () => callApi(dashboardClient.GET("/api/audit-events", { params: { query } })) }),
};
