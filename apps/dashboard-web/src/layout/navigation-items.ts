import type { DashboardOperation } from "../api/dashboard-operation.js";

/** One entry of the side navigation: shown when the role may call its list operation. */
export interface NavigationItem {
  path: string;
  label: string;
  operation: DashboardOperation;
}

/** The navigation, grouped as the sidebar shows it. */
export const navigationGroups: readonly { label: string; items: readonly NavigationItem[] }[] = [
  {
    label: "Overview",
    items: [
      { path: "/", label: "Overview", operation: "get /api/organization" },
      { path: "/usage", label: "Usage", operation: "get /api/usage/series" },
      { path: "/playground", label: "Playground", operation: "post /api/playground/chat" },
    ],
  },
  {
    label: "Access",
    items: [
      { path: "/api-keys", label: "API keys", operation: "get /api/api-keys" },
      { path: "/projects", label: "Projects", operation: "get /api/projects" },
      { path: "/members", label: "Members", operation: "get /api/members" },
      { path: "/teams", label: "Teams", operation: "get /api/teams" },
    ],
  },
  {
    label: "Models",
    items: [
      { path: "/connections", label: "Connections", operation: "get /api/connections" },
      { path: "/models", label: "Models", operation: "get /api/connections" },
      { path: "/routes", label: "Routes", operation: "get /api/routes" },
      { path: "/policies", label: "Policies", operation: "get /api/policies" },
      { path: "/guardrails", label: "Guardrails", operation: "get /api/policies" },
    ],
  },
  {
    label: "Limits",
    items: [
      { path: "/budgets", label: "Budgets", operation: "get /api/budgets" },
      { path: "/rate-limits", label: "Rate limits", operation: "get /api/rate-limits" },
    ],
  },
  {
    label: "Integrations",
    items: [
      { path: "/telemetry", label: "Telemetry", operation: "get /api/telemetry-destinations" },
      { path: "/notifications", label: "Notifications", operation: "get /api/notification-channels" },
      { path: "/mcp", label: "MCP servers", operation: "get /api/mcp/servers" },
    ],
  },
  {
    label: "Organization",
    items: [
      { path: "/organization", label: "Settings", operation: "get /api/organization" },
      { path: "/audit", label: "Audit log", operation: "get /api/audit-events" },
    ],
  },
];
