import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { ActivitySession } from "../api/api-types.js";
import { DataTable } from "../components/data-table.js";
import { ErrorNotice } from "../components/error-notice.js";
import { LoadingState } from "../components/loading-state.js";
import { LoadMoreOnScroll } from "../components/load-more-on-scroll.js";
import { ResourceList } from "../components/resource-list.js";
import { Stat } from "../components/stat.js";
import { useCursorPages } from "../components/use-cursor-pages.js";
import { formatDateTime, formatShortDateTime } from "../format/format-date-time.js";
import { formatMicros } from "../format/format-micros.js";
import { formatDuration, formatNumber } from "../format/format-number.js";
import { ActivityCallsTable } from "./activity-calls-table.js";
import type { CallNames } from "./activity-call-drawer.js";
import type { ActivityFilters } from "./activity-filters.js";
import { type ActivitySessionKey, fetchActivitySessionCalls, fetchActivitySessionsPage } from "./activity-requests.js";

/** Sessions (calls grouped by `X-Gateway-Session-ID` within a project and key), the latest active first. */
export function ActivitySessionsList(props: { filters: ActivityFilters; names: CallNames; empty: ReactNode; onOpenSession: (session: ActivitySessionKey) => void }) {
  const sessions = useCursorPages<ActivitySession>({
    queryKey: ["activity", "sessions", props.filters],
    fetchPage: (cursor) => fetchActivitySessionsPage(props.filters, cursor),
  });
  return (
    <>
      <ResourceList query={sessions} label="the sessions" loadingLabel="Loading the sessions…" empty={props.empty}>
        {(items) => (
          <DataTable
            label="Sessions"
            columns={["Session", "Project", "API key", "Last call", { label: "Calls", numeric: true }, { label: "Errors", numeric: true }, { label: "Tokens", numeric: true }, { label: "Cost", numeric: true }, "Models"]}
          >
            {items.map((session) => (
              <tr key={`${session.project_id}/${session.api_key_id}/${session.user_id}/${session.session_id}`} data-testid={`activity-session-${session.session_id}`}>
                <td>
                  <button type="button" className="button link mono small" onClick={() => props.onOpenSession({ sessionId: session.session_id, projectId: session.project_id, apiKeyId: session.api_key_id })}>
                    {session.session_id}
                  </button>
                  {session.user_id ? <div className="small muted">{props.names.member(session.user_id)}</div> : null}
                </td>
                <td className="small">{props.names.project(session.project_id)}</td>
                <td className="small">{props.names.key(session.api_key_id)}</td>
                <td className="small nowrap" title={`${formatDateTime(session.first_at)} – ${formatDateTime(session.last_at)}`}>
                  {formatShortDateTime(session.last_at)}
                </td>
                <td className="numeric">{formatNumber(session.call_count)}</td>
                <td className="numeric">{formatNumber(session.error_count)}</td>
                <td className="numeric">{formatNumber(session.input_tokens + session.output_tokens)}</td>
                <td className="numeric">{formatMicros(session.cost_micros)}</td>
                <td className="mono small">{session.models.join(", ") || "–"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </ResourceList>
      {sessions.data && sessions.data.data.length > 0 ? <LoadMoreOnScroll pages={sessions} label="Load more sessions" /> : null}
    </>
  );
}

/** One session: its totals and its calls in the order they were made. */
export function ActivitySessionView(props: { session: ActivitySessionKey; names: CallNames; onOpenCall: (requestId: string) => void; onBack: () => void }) {
  const calls = useQuery({
    queryKey: ["activity", "session", props.session],
    queryFn: () => fetchActivitySessionCalls(props.session),
  });
  const back = (
    <div>
      <button type="button" className="button small" onClick={props.onBack}>
        ← All sessions
      </button>
    </div>
  );
  if (calls.isPending) return <>{back}<LoadingState label="Loading the session…" /></>;
  if (calls.isError) return <>{back}<ErrorNotice error={calls.error} title="Could not load this session" onRetry={() => void calls.refetch()} /></>;
  const items = calls.data.data;
  const first = items[0];
  const last = items.at(-1);
  const totals = items.reduce(
    (sum, call) => ({ errors: sum.errors + (call.status >= 400 ? 1 : 0), tokens: sum.tokens + call.input_tokens + call.output_tokens, cost: sum.cost + call.cost_micros }),
    { errors: 0, tokens: 0, cost: 0 },
  );
  return (
    <section className="stack" aria-labelledby="session-title">
      {back}
      <div className="card stack-tight">
        <h2 id="session-title">
          Session <span className="mono">{props.session.sessionId}</span>
        </h2>
        <p className="small muted">
          {props.names.project(props.session.projectId)} · {props.names.key(props.session.apiKeyId)}
          {first && last ? ` · ${formatDateTime(first.occurred_at)} – ${formatDateTime(last.occurred_at)} (${formatDuration(Date.parse(last.occurred_at) - Date.parse(first.occurred_at))})` : ""}
        </p>
        <div className="grid">
          <Stat label="Calls" value={formatNumber(items.length)} />
          <Stat label="Errors" value={formatNumber(totals.errors)} />
          <Stat label="Tokens" value={formatNumber(totals.tokens)} />
          <Stat label="Cost" value={formatMicros(totals.cost)} />
        </div>
      </div>
      {items.length === 0 ? (
        <p className="muted">No calls of this session are kept any more.</p>
      ) : (
        <ActivityCallsTable label="Calls of the session, oldest first" calls={items} keyName={props.names.key} onOpen={props.onOpenCall} />
      )}
    </section>
  );
}
