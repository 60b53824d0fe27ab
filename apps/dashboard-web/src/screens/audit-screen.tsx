import { useState } from "react";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { EmptyState } from "../components/empty-state.js";
import { TextField } from "../components/fields.js";
import { LoadMoreButton } from "../components/load-more-button.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { useCursorPages } from "../components/use-cursor-pages.js";
import { useNames } from "../components/use-names.js";
import { formatDateTime } from "../format/format-date-time.js";

/** The audit log: every change, who made it, when, from where, with the before and after records. */
export function AuditScreen() {
  const names = useNames();
  const [action, setAction] = useState("");
  const [targetType, setTargetType] = useState("");
  const filtered = action.trim() !== "" || targetType.trim() !== "";
  const clearFilters = () => {
    setAction("");
    setTargetType("");
  };
  const query = { limit: 50, ...(action.trim() ? { action: action.trim() } : {}), ...(targetType.trim() ? { target_type: targetType.trim() } : {}) };
  const events = useCursorPages({
    queryKey: ["audit-events", "pages", query],
    fetchPage: (cursor) => callApi(dashboardClient.GET("/api/audit-events", { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } })),
  });
  return (
    <>
      <PageHeader title="Audit log" description="Every change in the organization, newest first. Secrets never appear here." />
      <div className="filters" role="search" aria-label="Filter the audit log">
        <TextField label="Action" type="search" value={action} onChange={setAction} placeholder="api_key" hint="Starts with, e.g. api_key or member.role" />
        <TextField label="Target type" type="search" value={targetType} onChange={setTargetType} placeholder="connection" hint="Starts with" />
      </div>
      <ResourceTable
        query={events}
        label="the audit log"
        loadingLabel="Loading the audit log…"
        empty={
          filtered ? (
            <EmptyState
              title="No events match these filters"
              action={
                <button type="button" className="button" onClick={clearFilters}>
                  Clear the filters
                </button>
              }
            >
              Filters match the start of an action or target type: <code>api_key</code> finds <code>api_key.created</code> and <code>api_key.revoked</code>.
            </EmptyState>
          ) : (
            <EmptyState title="Nothing recorded yet">Changes appear here as they happen.</EmptyState>
          )
        }
        tableLabel="Audit events"
        columns={["Time", "Who", "Action", "Target", "From", "Details"]}
      >
        {(event) => (
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
        )}
      </ResourceTable>
      <LoadMoreButton pages={events} label="Load older events" />
    </>
  );
}
