import { type ReactNode, Suspense } from "react";
import { Navigate, Route, Routes, useLocation } from "react-router";
import type { DashboardOperation } from "./api/dashboard-operation.js";
import { ErrorNotice } from "./components/error-notice.js";
import { LoadingState } from "./components/loading-state.js";
import { PageHeader } from "./components/page-header.js";
import { AppLayout } from "./layout/app-layout.js";
import { pages } from "./layout/pages.js";
import { AcceptInvitationScreen } from "./screens/accept-invitation-screen.js";
import { LoginScreen } from "./screens/login-screen.js";
import { NotFoundScreen } from "./screens/not-found-screen.js";
import { SessionProvider, useSession } from "./session/session-context.js";
import { useSessionQuery } from "./session/use-session-query.js";

/** Shows a screen only to roles that may read it; others get an explanation, never a 403 from the API. */
function Allowed(props: { operation: DashboardOperation; label: string; children: ReactNode }) {
  const { can, session } = useSession();
  if (can(props.operation)) return <Suspense fallback={<LoadingState label="Loading the page…" />}>{props.children}</Suspense>;
  return (
    <>
      <PageHeader title={props.label} />
      <div className="notice info" role="status">
        <strong className="notice-title">Not available to your role</strong>
        <span>
          This page needs a permission the {session.user.role_label.toLowerCase()} role does not have. Ask an owner or administrator of {session.organization.name}.
        </span>
      </div>
    </>
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

/** The web app's routes. */
export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginScreen />} />
      <Route path="/invitations/accept" element={<AcceptInvitationScreen />} />
      <Route element={<SignedIn />}>
        {pages.map((page) =>
          // The overview is where every sign-in lands: open to every role.
          page.path === "/" ? <Route key={page.path} index element={page.element} /> : <Route key={page.path} path={page.path} element={
                <Allowed operation={page.operation} label={page.label}>
                  {page.element}
                </Allowed>
              } />,
        )}
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
