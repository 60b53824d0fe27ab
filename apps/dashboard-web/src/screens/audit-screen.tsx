import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { TextField } from "../components/fields.js";
import { LoadingState } from "../components/loading-state.js";
import { PageHeader } from "../components/page-header.js";
import { useNames } from "../components/use-names.js";
import { formatDateTime } from "../format/format-date-time.js";

/** The audit log: every change, who made it, when, from where, with the before and after records. */
export function AuditScreen() {
  const names = useNames();
  const [action, setAction] = useState("");
  const [targetType, setTargetType] = useState("");
  const query = { limit: 50, ...(action.trim() ? { action: action.trim() } : {}), ...(targetType.trim() ? { target_type: targetType.trim() } : {}) };
  const events = useInfiniteQuery({
    queryKey: ["audit-events", "pages", query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => callApi(dashboardClient.GET("/api/audit-events", { params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const rows = events.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <>
      <PageHeader title="Audit log" description="Every change in the organization, newest first. Secrets never appear here." />
      <div className="filters" role="search" aria-label="Filter the audit log">
        <TextField label="Action" type="search" value={action} onChange={setAction} placeholder="api_key.revoked" />
        <TextField label="Target type" type="search" value={targetType} onChange={setTargetType} placeholder="api_key" />
      </div>
      {events.isPending ? (
        <LoadingState label="Loading the audit log…" />
      ) : events.isError ? (
        <ErrorNotice error={events.error} title="Could not load the audit log" onRetry={() => void events.refetch()} />
      ) : rows.length === 0 ? (
        <div className="card">
          <EmptyState title="Nothing recorded yet">{action || targetType ? "No event matches these filters." : "Changes appear here as they happen."}</EmptyState>
        </div>
      ) : (
        <div className="table-wrap">
          <table aria-label="Audit events">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">From</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((event) => (
                <tr key={event.id}>
                  <td className="small">{formatDateTime(event.occurred_at)}</td>
                  <td>{event.actor_kind === "user" ? names.member(event.actor_id) : event.actor_kind}</td>
                  <td className="mono small">{event.action}</td>
                  <td className="small">
                    {event.target_type} <span className="mono muted">{event.target_id ?? ""}</span>
                  </td>
                  <td className="small">
                    {event.ip_address ?? "–"}
                    {event.request_id ? <div className="mono muted">{event.request_id}</div> : null}
                  </td>
                  <td>
                    {event.before !== null || event.after !== null ? (
                      <details>
                        <summary>Show</summary>
                        <pre className="small mono" style={{ whiteSpace: "pre-wrap", maxWidth: "40ch" }}>
                          {JSON.stringify({ before: event.before, after: event.after }, null, 2)}
                        </pre>
                      </details>
                    ) : (
                      "–"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {events.hasNextPage ? (
        <div>
          <button type="button" className="button" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
            {events.isFetchingNextPage ? "Loading…" : "Load older events"}
          </button>
        </div>
      ) : null}
    </>
  );
}
