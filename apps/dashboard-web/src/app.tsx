import { lazy, type ReactNode, Suspense } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import type { DashboardOperation } from "./api/dashboard-operation.js";
import { ErrorNotice } from "./components/error-notice.js";
import { LoadingState } from "./components/loading-state.js";
import { AppLayout } from "./layout/app-layout.js";
import { AcceptInvitationScreen } from "./screens/accept-invitation-screen.js";
import { ApiKeysScreen } from "./screens/api-keys-screen.js";
import { AuditScreen } from "./screens/audit-screen.js";
import { BudgetsScreen } from "./screens/budgets-screen.js";
import { ConnectionsScreen } from "./screens/connections-screen.js";
import { GuardrailsScreen } from "./screens/guardrails-screen.js";
import { LoginScreen } from "./screens/login-screen.js";
import { McpScreen } from "./screens/mcp-screen.js";
import { MembersScreen } from "./screens/members-screen.js";
import { ModelsScreen } from "./screens/models-screen.js";
import { NotFoundScreen } from "./screens/not-found-screen.js";
import { NotificationsScreen } from "./screens/notifications-screen.js";
import { OrganizationScreen } from "./screens/organization-screen.js";
import { OverviewScreen } from "./screens/overview-screen.js";
import { PlaygroundScreen } from "./screens/playground-screen.js";
import { PoliciesScreen } from "./screens/policies-screen.js";
import { ProjectsScreen } from "./screens/projects-screen.js";
import { RateLimitsScreen } from "./screens/rate-limits-screen.js";
import { RoutesScreen } from "./screens/routes-screen.js";
import { TeamsScreen } from "./screens/teams-screen.js";
import { TelemetryScreen } from "./screens/telemetry-screen.js";
import { SessionProvider, useSession } from "./session/session-context.js";
import { useSessionQuery } from "./session/use-session-query.js";

// The usage screen carries the chart library: loaded when first opened.
const UsageScreen = lazy(() => import("./screens/usage-screen.js").then((module) => ({ default: module.UsageScreen })));

/** Shows a screen only to roles that may read it; others get an explanation, never a 403 from the API. */
function Allowed(props: { operation: DashboardOperation; children: ReactNode }) {
  const { can, session } = useSession();
  if (can(props.operation)) return <Suspense fallback={<LoadingState label="Loading the page…" />}>{props.children}</Suspense>;
  return (
    <div className="notice info" role="status">
      <strong>Not available to your role</strong>
      <span>
        This page needs a permission the {session.user.role_label.toLowerCase()} role does not have. Ask an owner or administrator of {session.organization.name}.
      </span>
    </div>
  );
}

/** The signed-in part: redirects to the login page without a session. */
function SignedIn() {
  const session = useSessionQuery();
  const location = useLocation();
  if (session.isPending) {
    return (
      <div className="auth-page">
        <LoadingState label="Loading your session…" />
      </div>
    );
  }
  if (session.isError) {
    return (
      <div className="auth-page">
        <ErrorNotice error={session.error} title="The dashboard is not answering" onRetry={() => void session.refetch()} />
      </div>
    );
  }
  if (session.data === null) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return (
    <SessionProvider session={session.data}>
      <AppLayout />
    </SessionProvider>
  );
}

const screens: { path: string; operation: DashboardOperation; element: ReactNode }[] = [
  { path: "/usage", operation: "get /api/usage/series", element: <UsageScreen /> },
  { path: "/playground", operation: "post /api/playground/chat", element: <PlaygroundScreen /> },
  { path: "/api-keys", operation: "get /api/api-keys", element: <ApiKeysScreen /> },
  { path: "/projects", operation: "get /api/projects", element: <ProjectsScreen /> },
  { path: "/members", operation: "get /api/members", element: <MembersScreen /> },
  { path: "/teams", operation: "get /api/teams", element: <TeamsScreen /> },
  { path: "/connections", operation: "get /api/connections", element: <ConnectionsScreen /> },
  { path: "/models", operation: "get /api/connections", element: <ModelsScreen /> },
  { path: "/routes", operation: "get /api/routes", element: <RoutesScreen /> },
  { path: "/policies", operation: "get /api/policies", element: <PoliciesScreen /> },
  { path: "/guardrails", operation: "get /api/policies", element: <GuardrailsScreen /> },
  { path: "/budgets", operation: "get /api/budgets", element: <BudgetsScreen /> },
  { path: "/rate-limits", operation: "get /api/rate-limits", element: <RateLimitsScreen /> },
  { path: "/telemetry", operation: "get /api/telemetry-destinations", element: <TelemetryScreen /> },
  { path: "/notifications", operation: "get /api/notification-channels", element: <NotificationsScreen /> },
  { path: "/mcp", operation: "get /api/mcp/servers", element: <McpScreen /> },
  { path: "/organization", operation: "get /api/organization", element: <OrganizationScreen /> },
  { path: "/audit", operation: "get /api/audit-events", element: <AuditScreen /> },
];

/** The web app's routes. */
export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginScreen />} />
      <Route path="/invitations/accept" element={<AcceptInvitationScreen />} />
      <Route element={<SignedIn />}>
        <Route index element={<OverviewScreen />} />
        {screens.map((screen) => (
          <Route key={screen.path} path={screen.path} element={<Allowed operation={screen.operation}>{screen.element}</Allowed>} />
        ))}
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
