import type { ActivityCall } from "../api/api-types.js";
import { DataTable } from "../components/data-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { formatDateTime, formatShortDateTime } from "../format/format-date-time.js";
import { formatMicros } from "../format/format-micros.js";
import { formatDuration, formatNumber } from "../format/format-number.js";

/** The model a call was served by (`provider/model`), else what it asked for. */
export function servedModelOf(call: Pick<ActivityCall, "provider" | "model" | "requested_model">): string {
  if (call.provider && call.model) return `${call.provider}/${call.model}`;
  return call.model ?? call.requested_model ?? "–";
}

/** A call's status as a badge: green below 400, amber for refusals (4xx), red for failures (5xx). */
export function CallStatus(props: { status: number; errorCode: string | null }) {
  return (
    <>
      <StatusBadge tone={props.status < 400 ? "success" : props.status < 500 ? "warning" : "danger"}>{props.status}</StatusBadge>
      {props.errorCode ? <div className="small muted">{props.errorCode}</div> : null}
    </>
  );
}

/**
 * Calls as a table, one row each; the request id opens the call's details (`onOpen`), and so does
 * a click anywhere on the row.
 */
export function ActivityCallsTable(props: {
  label: string;
  calls: readonly ActivityCall[];
  keyName: (id: string | null) => string;
  onOpen: (requestId: string) => void;
}) {
  return (
    <DataTable
      label={props.label}
      columns={["Time", "Status", "Endpoint", "Model", "API key", { label: "Tokens", numeric: true }, { label: "Cost", numeric: true }, { label: "Latency", numeric: true }, "Client", "Request id"]}
    >
      {props.calls.map((call) => {
        const requested = call.requested_model && call.requested_model !== call.model && call.requested_model !== servedModelOf(call) ? call.requested_model : null;
        return (
          <tr key={call.id} className="clickable" data-testid={`activity-call-${call.request_id}`} onClick={() => props.onOpen(call.request_id)}>
            <td className="small nowrap" title={formatDateTime(call.occurred_at)}>
              {formatShortDateTime(call.occurred_at)}
            </td>
            <td>
              <CallStatus status={call.status} errorCode={call.error_code} />
            </td>
            <td className="small">{call.endpoint}</td>
            <td className="mono small nowrap">
              {servedModelOf(call)}
              {requested ? <div className="muted">asked {requested}</div> : null}
              {call.attempt_count > 1 ? <div className="muted">{call.attempt_count} attempts</div> : null}
            </td>
            <td className="small">{props.keyName(call.api_key_id)}</td>
            <td className="numeric">{formatNumber(call.input_tokens + call.output_tokens)}</td>
            <td className="numeric">{formatMicros(call.cost_micros)}</td>
            <td className="numeric">{formatDuration(call.latency_ms)}</td>
            <td className="small">
              {call.client_label ? `${call.client_label}${call.client_version ? `/${call.client_version}` : ""}` : "–"}
              {call.guardrail_flags.length > 0 ? (
                <div>
                  <StatusBadge tone="warning">flagged</StatusBadge>
                </div>
              ) : null}
            </td>
            <td>
              <button
                type="button"
                className="button link mono small"
                aria-label={`Open call ${call.request_id}`}
                onClick={(event) => {
                  event.stopPropagation();
                  props.onOpen(call.request_id);
                }}
              >
                {call.request_id}
              </button>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
