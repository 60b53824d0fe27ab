import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import type { ActivityCall } from "../api/api-types.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActivityCallDrawer, type CallNames } from "../activity/activity-call-drawer.js";
import { ActivityCallsTable } from "../activity/activity-calls-table.js";
import { ActivityFilterBar } from "../activity/activity-filter-bar.js";
import { type ActivityFilters, activitySearchString, hasActivityFilters, readActivityFilters } from "../activity/activity-filters.js";
import { activityExportUrl, type ActivitySessionKey, fetchActivityPage } from "../activity/activity-requests.js";
import { ActivitySessionsList, ActivitySessionView } from "../activity/activity-sessions.js";
import { EmptyState } from "../components/empty-state.js";
import { LoadMoreOnScroll } from "../components/load-more-on-scroll.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceList } from "../components/resource-list.js";
import { useCursorPages } from "../components/use-cursor-pages.js";
import { useNames } from "../components/use-names.js";
import { useSession } from "../session/session-context.js";

/** What the screen shows besides its filters, read from the address. */
type ActivityView = { kind: "calls" } | { kind: "sessions" } | { kind: "session"; session: ActivitySessionKey };

function readView(search: URLSearchParams): ActivityView {
  const view = search.get("view");
  const sessionId = search.get("session");
  if (view === "session" && sessionId) return { kind: "session", session: { sessionId, projectId: search.get("session_project"), apiKeyId: search.get("session_key") } };
  if (view === "sessions") return { kind: "sessions" };
  return { kind: "calls" };
}

/** The address parameters of a view (none for the calls list, the default). */
function viewSearch(view: ActivityView): Record<string, string> {
  if (view.kind === "calls") return {};
  if (view.kind === "sessions") return { view: "sessions" };
  return {
    view: "session",
    session: view.session.sessionId,
    ...(view.session.projectId ? { session_project: view.session.projectId } : {}),
    ...(view.session.apiKeyId ? { session_key: view.session.apiKeyId } : {}),
  };
}

/**
 * Activity: every recorded call, newest first, narrowed by filter chips; a call's details in a
 * drawer (attempts, timings, tokens, cost, guardrails, metadata, and the captured content for
 * roles that may read it); the sessions; and an export of what the filters match.
 */
export function ActivityScreen() {
  const [search, setSearch] = useSearchParams();
  const { can } = useSession();
  const names = useNames();
  const queryClient = useQueryClient();
  const connections = useQuery({ ...dashboardQueries.connections(), enabled: can("get /api/connections") });
  const budgets = useQuery({ ...dashboardQueries.budgets(), enabled: can("get /api/budgets") });
  const searchText = search.toString();
  const filters = useMemo(() => readActivityFilters(new URLSearchParams(searchText)), [searchText]);
  const view = readView(search);
  const openCall = search.get("call");

  const connectionNames = new Map((connections.data?.data ?? []).map((connection) => [connection.id, connection.name]));
  const budgetNames = new Map((budgets.data?.data ?? []).map((budget) => [budget.id, budget.name]));
  const callNames: CallNames = {
    project: names.project,
    key: names.key,
    team: names.team,
    member: names.member,
    connection: (id) => (id ? (connectionNames.get(id) ?? id) : "–"),
    budget: (id) => budgetNames.get(id) ?? id,
  };

  /** Navigates within the screen: new filters and view, the drawer closed unless `call` is given. */
  const go = (next: { filters?: ActivityFilters; view?: ActivityView; call?: string | null }, options: { replace?: boolean } = {}) => {
    const parameters = new URLSearchParams(activitySearchString(next.filters ?? filters));
    for (const [name, value] of Object.entries(viewSearch(next.view ?? view))) parameters.set(name, value);
    const call = next.call === undefined ? openCall : next.call;
    if (call) parameters.set("call", call);
    setSearch(parameters, options);
  };
  const openSession = (session: ActivitySessionKey) => go({ view: { kind: "session", session }, call: null });

  const calls = useCursorPages<ActivityCall>({
    queryKey: ["activity", "calls", filters],
    fetchPage: (cursor) => fetchActivityPage(filters, cursor),
  });
  const filtered = hasActivityFilters(filters);
  const empty = (noun: string) =>
    filtered ? (
      <EmptyState
        title={`No ${noun} match these filters`}
        action={
          <button type="button" className="button" onClick={() => go({ filters: {} })}>
            Clear the filters
          </button>
        }
      >
        Remove a filter above, or widen the time range.
      </EmptyState>
    ) : (
      <EmptyState title={`No ${noun} recorded yet`}>
        {noun === "sessions" ? (
          <>
            Calls that send an <code>X-Gateway-Session-ID</code> header are grouped into sessions here.
          </>
        ) : (
          <>Calls through the gateway and the playground appear here about a second after they end.</>
        )}
      </EmptyState>
    );
  const tabs: { kind: "calls" | "sessions"; label: string }[] = [
    { kind: "calls", label: "Calls" },
    { kind: "sessions", label: "Sessions" },
  ];
  const activeTab = view.kind === "calls" ? "calls" : "sessions";

  return (
    <>
      <PageHeader
        title="Activity"
        description="Every call through the gateway and the playground: find one by key, model, status, client, session or metadata, open it, and export what you filtered."
        actions={
          <>
            <button type="button" className="button" onClick={() => void queryClient.invalidateQueries({ queryKey: ["activity"] })}>
              Refresh
            </button>
            {can("get /api/activity/export") ? (
              <>
                <a className="button" href={activityExportUrl(filters, "csv")} download>
                  Export CSV
                </a>
                <a className="button" href={activityExportUrl(filters, "ndjson")} download>
                  Export NDJSON
                </a>
              </>
            ) : null}
          </>
        }
      />
      <nav className="tabs" aria-label="Activity views">
        {tabs.map((tab) => (
          <button key={tab.kind} type="button" className="tab" aria-current={activeTab === tab.kind ? "page" : undefined} onClick={() => go({ view: { kind: tab.kind }, call: null })}>
            {tab.label}
          </button>
        ))}
      </nav>
      <ActivityFilterBar
        filters={filters}
        onChange={(next) => go({ filters: next, view: view.kind === "session" ? { kind: "sessions" } : view, call: null })}
        names={{ ...names, connection: callNames.connection, budget: callNames.budget, connections: connections.data?.data ?? [], budgets: budgets.data?.data ?? [] }}
      />
      {view.kind === "calls" ? (
        <>
          <ResourceList query={calls} label="the activity" loadingLabel="Loading the activity…" empty={empty("calls")}>
            {(items) => <ActivityCallsTable label="Calls" calls={items} keyName={names.key} onOpen={(requestId) => go({ call: requestId })} />}
          </ResourceList>
          {calls.data && calls.data.data.length > 0 ? (
            <LoadMoreOnScroll pages={calls} label="Load older calls" endLabel={`${calls.data.data.length.toLocaleString("en-US")} ${calls.data.data.length === 1 ? "call" : "calls"}, all shown.`} />
          ) : null}
        </>
      ) : view.kind === "sessions" ? (
        <ActivitySessionsList filters={filters} names={callNames} empty={empty("sessions")} onOpenSession={openSession} />
      ) : (
        <ActivitySessionView session={view.session} names={callNames} onOpenCall={(requestId) => go({ call: requestId })} onBack={() => go({ view: { kind: "sessions" }, call: null })} />
      )}
      <ActivityCallDrawer requestId={openCall} names={callNames} onClose={() => go({ call: null })} onOpenSession={openSession} />
    </>
  );
}
