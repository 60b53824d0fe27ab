import type { paths } from "../generated/dashboard-api.js";

type Json<Content> = Content extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON body of an operation's success answer (200 or 201). */
export type ResponseBody<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends { responses: infer Responses }
  ? Responses extends { 200: infer Ok }
    ? Json<Ok>
    : Responses extends { 201: infer Created }
      ? Json<Created>
      : never
  : never;

/** The JSON request body of an operation. */
export type RequestBody<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends { requestBody?: infer Body }
  ? Json<NonNullable<Body>>
  : never;

/** An item of a list answer. */
export type ListItem<Path extends keyof paths> = "get" extends keyof paths[Path]
  ? ResponseBody<Path, "get"> extends { data: (infer Item)[] }
    ? Item
    : never
  : never;

export type AuthSession = ResponseBody<"/v1/auth/session", "get">;
export type Organization = ResponseBody<"/api/organization", "get">;
export type Project = ListItem<"/api/projects">;
export type ApiKey = ListItem<"/api/api-keys">;
export type CreatedApiKey = ResponseBody<"/api/api-keys", "post">;
export type Connection = ListItem<"/api/connections">;
export type ConnectionTest = ResponseBody<"/api/connections/{connection_id}/test", "post">;
export type Policy = ListItem<"/api/policies">;
export type GatewayRoute = ListItem<"/api/routes">;
export type Budget = ListItem<"/api/budgets">;
export type BudgetStatus = ListItem<"/api/usage/budgets">;
export type RateLimit = ListItem<"/api/rate-limits">;
export type RateLimitStatus = ListItem<"/api/usage/rate-limits">;
export type Team = ListItem<"/api/teams">;
export type TeamMember = ListItem<"/api/teams/{team_id}/members">;
export type Member = ListItem<"/api/members">;
export type Invitation = ListItem<"/api/invitations">;
/** The answer to creating or resending an invitation: the invitation and its accept link (owners and admins only). */
export type InvitationWithLink = ResponseBody<"/api/invitations", "post">;
export type TelemetryDestination = ListItem<"/api/telemetry-destinations">;
export type NotificationChannel = ListItem<"/api/notification-channels">;
export type MonitorRule = ListItem<"/api/monitors">;
export type MonitorState = MonitorRule["states"][number];
export type MonitorEvent = ListItem<"/api/monitors/{monitor_id}/events">;
export type MonitorSeries = ResponseBody<"/api/monitors/{monitor_id}/series", "get">;
export type McpServer = ListItem<"/api/mcp/servers">;
export type McpToken = ListItem<"/api/mcp/tokens">;
export type UsageEvent = ListItem<"/api/usage/events">;
export type UsageDailyTotal = ListItem<"/api/usage/daily">;
export type UsageSeriesPoint = ListItem<"/api/usage/series">;
export type AuditEvent = ListItem<"/api/audit-events">;
export type Role = Member["role"];
export type ActivityCall = ListItem<"/api/activity">;
export type ActivityCallDetail = ResponseBody<"/api/activity/{request_id}", "get">;
export type ActivityAttempt = ActivityCallDetail["attempts"][number];
export type ActivityContent = ResponseBody<"/api/activity/{request_id}/content", "get">;
export type ActivitySession = ListItem<"/api/activity/sessions">;
