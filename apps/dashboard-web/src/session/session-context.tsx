import { createContext, type ReactNode, useContext, useMemo } from "react";
import type { AuthSession } from "../api/api-types.js";
import { type DashboardOperation, permissionOf } from "../api/dashboard-operation.js";

/** The signed-in user and what they may do. */
export interface SessionValue {
  session: AuthSession;
  /** Whether the signed-in role holds the permission the operation needs (its `x-permission`). */
  can(operation: DashboardOperation): boolean;
  /** Whether the user may act on a project (owners and admins: every project; others: their assignments). */
  canUseProject(projectId: string): boolean;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Provides the session to the screens. */
export function SessionProvider(props: { session: AuthSession; children: ReactNode }) {
  const value = useMemo<SessionValue>(() => {
    const permissions = new Set(props.session.permissions);
    const allProjects = props.session.user.all_projects;
    const projects = new Set(props.session.user.project_ids);
    return {
      session: props.session,
      can(operation) {
        const permission = permissionOf(operation);
        return permission === null || permissions.has(permission);
      },
      canUseProject: (projectId) => allProjects || projects.has(projectId),
    };
  }, [props.session]);
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

/** The session of the signed-in user (inside the signed-in layout only). */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (value === null) throw new Error("useSession outside of a SessionProvider");
  return value;
}
