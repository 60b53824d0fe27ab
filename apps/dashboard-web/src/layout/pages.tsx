import { lazy, type ReactNode } from "react";
import type { DashboardOperation } from "../api/dashboard-operation.js";
import { ActivityScreen } from "../screens/activity-screen.js";
import { ApiKeysScreen } from "../screens/api-keys-screen.js";
import { AuditScreen } from "../screens/audit-screen.js";
import { BudgetsScreen } from "../screens/budgets-screen.js";
import { ConnectionsScreen } from "../screens/connections-screen.js";
import { GuardrailsScreen } from "../screens/guardrails-screen.js";
import { McpScreen } from "../screens/mcp-screen.js";
import { MembersScreen } from "../screens/members-screen.js";
import { ModelsScreen } from "../screens/models-screen.js";
import { MonitorsScreen } from "../screens/monitors-screen.js";
import { NotificationsScreen } from "../screens/notifications-screen.js";
import { OrganizationScreen } from "../screens/organization-screen.js";
import { OverviewScreen } from "../screens/overview-screen.js";
import { PlaygroundScreen } from "../screens/playground-screen.js";
import { PoliciesScreen } from "../screens/policies-screen.js";
import { ProjectsScreen } from "../screens/projects-screen.js";
import { RateLimitsScreen } from "../screens/rate-limits-screen.js";
import { RoutesScreen } from "../screens/routes-screen.js";
import { TeamsScreen } from "../screens/teams-screen.js";
import { TelemetryScreen } from "../screens/telemetry-screen.js";

// The usage screen carries the chart library: loaded when first opened.
const UsageScreen = lazy(() => import("../screens/usage-screen.js").then((module) => ({ default: module.UsageScreen })));

/** A page of the signed-in app: its route, its link in the side navigation, and what a role needs to see either. */
export interface Page {
  path: string;
  /** The sidebar group the link is listed under. */
  group: string;
  label: string;
  /** The operation (the page's own read) a role must be allowed: without it the link is hidden and the page explains why it is closed. */
  operation: DashboardOperation;
  element: ReactNode;
}

/** Every page, in the order of the navigation. */
export const pages: readonly Page[] = [
  { group: "Overview", path: "/", label: "Overview", operation: "get /api/organization", element: <OverviewScreen /> },
  { group: "Overview", path: "/usage", label: "Usage", operation: "get /api/usage/series", element: <UsageScreen /> },
  { group: "Overview", path: "/activity", label: "Activity", operation: "get /api/activity", element: <ActivityScreen /> },
  { group: "Overview", path: "/monitors", label: "Monitors", operation: "get /api/monitors", element: <MonitorsScreen /> },
  { group: "Overview", path: "/playground", label: "Playground", operation: "post /api/playground/chat", element: <PlaygroundScreen /> },
  { group: "Access", path: "/api-keys", label: "API keys", operation: "get /api/api-keys", element: <ApiKeysScreen /> },
  { group: "Access", path: "/projects", label: "Projects", operation: "get /api/projects", element: <ProjectsScreen /> },
  { group: "Access", path: "/members", label: "Members", operation: "get /api/members", element: <MembersScreen /> },
  { group: "Access", path: "/teams", label: "Teams", operation: "get /api/teams", element: <TeamsScreen /> },
  { group: "Models", path: "/connections", label: "Connections", operation: "get /api/connections", element: <ConnectionsScreen /> },
  { group: "Models", path: "/models", label: "Models", operation: "get /api/connections", element: <ModelsScreen /> },
  { group: "Models", path: "/routes", label: "Routes", operation: "get /api/routes", element: <RoutesScreen /> },
  { group: "Models", path: "/policies", label: "Policies", operation: "get /api/policies", element: <PoliciesScreen /> },
  { group: "Models", path: "/guardrails", label: "Guardrails", operation: "get /api/policies", element: <GuardrailsScreen /> },
  { group: "Limits", path: "/budgets", label: "Budgets", operation: "get /api/budgets", element: <BudgetsScreen /> },
  { group: "Limits", path: "/rate-limits", label: "Rate limits", operation: "get /api/rate-limits", element: <RateLimitsScreen /> },
  { group: "Integrations", path: "/telemetry", label: "Telemetry", operation: "get /api/telemetry-destinations", element: <TelemetryScreen /> },
  { group: "Integrations", path: "/notifications", label: "Notifications", operation: "get /api/notification-channels", element: <NotificationsScreen /> },
  { group: "Integrations", path: "/mcp", label: "MCP servers", operation: "get /api/mcp/servers", element: <McpScreen /> },
  { group: "Organization", path: "/organization", label: "Settings", operation: "get /api/organization", element: <OrganizationScreen /> },
  { group: "Organization", path: "/audit", label: "Audit log", operation: "get /api/audit-events", element: <AuditScreen /> },
];

/** The pages a role may open, grouped as the sidebar shows them (groups without any are left out). */
export function navigationGroups(can: (operation: DashboardOperation) => boolean): { label: string; pages: Page[] }[] {
  const groups: { label: string; pages: Page[] }[] = [];
  for (const page of pages.filter((candidate) => can(candidate.operation))) {
    const last = groups.at(-1);
    if (last?.label === page.group) last.pages.push(page);
    else groups.push({ label: page.group, pages: [page] });
  }
  return groups;
}
