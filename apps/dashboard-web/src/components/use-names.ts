import { useQuery } from "@tanstack/react-query";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { useSession } from "../session/session-context.js";

/**
 * Display names of projects, API keys, teams and members by id (for tables that hold ids), read
 * only when the role may list them; unknown ids show as themselves.
 */
export function useNames() {
  const { can } = useSession();
  const projects = useQuery({ ...dashboardQueries.projects(), enabled: can("get /api/projects") });
  const keys = useQuery({ ...dashboardQueries.apiKeys({ limit: 100 }), enabled: can("get /api/api-keys") });
  const teams = useQuery({ ...dashboardQueries.teams(), enabled: can("get /api/teams") });
  const members = useQuery({ ...dashboardQueries.members(), enabled: can("get /api/members") });
  const index = (items: { id: string; name: string }[] | undefined) => new Map((items ?? []).map((item) => [item.id, item.name]));
  const projectNames = index(projects.data?.data);
  const keyNames = index(keys.data?.data);
  const teamNames = index(teams.data?.data);
  const memberNames = new Map((members.data?.data ?? []).map((member) => [member.id, member.name || member.email]));
  return {
    projects: projects.data?.data ?? [],
    keys: keys.data?.data ?? [],
    teams: teams.data?.data ?? [],
    members: members.data?.data ?? [],
    project: (id: string | null | undefined) => (id ? (projectNames.get(id) ?? id) : "–"),
    key: (id: string | null | undefined) => (id ? (keyNames.get(id) ?? id) : "–"),
    team: (id: string | null | undefined) => (id ? (teamNames.get(id) ?? id) : "–"),
    member: (id: string | null | undefined) => (id ? (memberNames.get(id) ?? id) : "–"),
  };
}
