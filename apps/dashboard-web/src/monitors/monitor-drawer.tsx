import { useState } from "react";
import { Link } from "react-router";
import type { MonitorEvent, MonitorRule } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { DataTable } from "../components/data-table.js";
import { Dialog } from "../components/dialog.js";
import { Facts } from "../components/facts.js";
import { SelectField } from "../components/fields.js";
import { LoadMoreButton } from "../components/load-more-button.js";
import { ResourceList } from "../components/resource-list.js";
import { type BadgeTone, StatusBadge } from "../components/status-badge.js";
import { useCursorPages } from "../components/use-cursor-pages.js";
import { formatDateTime, formatRelativeTime } from "../format/format-date-time.js";
import { formatNumber } from "../format/format-number.js";
import { describeMonitorCondition, formatMinutes, formatMonitorValue, monitorSeverityLabels } from "./monitor-metrics.js";
import { MonitorSparkline } from "./monitor-sparkline.js";
import { MonitorStatusBadge } from "./monitor-status-badge.js";
import { useMonitorScopeLabel } from "./use-monitor-scope-label.js";

const eventTones: Record<MonitorEvent["kind"], BadgeTone> = { fired: "danger", renotified: "warning", resolved: "success" };
const deliveryTones: Record<MonitorEvent["deliveries"][number]["status"], BadgeTone> = { pending: "neutral", delivered: "success", failed: "danger" };

/** What a delivery's badge says: a pending delivery that already failed once is a retry. */
const deliveryLabel = (delivery: MonitorEvent["deliveries"][number]) =>
  delivery.status === "pending" && delivery.attempts.length > 0 ? "retrying" : delivery.status;

/** Where an event was sent: each channel with delivered, pending, retrying or failed, why, and every attempt. */
function Deliveries(props: { event: MonitorEvent }) {
  if (props.event.deliveries.length === 0) return <span className="small muted">recorded only</span>;
  return (
    <ul className="plain-list small">
      {props.event.deliveries.map((delivery) => (
        <li key={delivery.channel_id}>
          {delivery.channel_name ?? <span className="muted">deleted channel</span>}{" "}
          <StatusBadge tone={delivery.status === "pending" && delivery.attempts.length > 0 ? "warning" : deliveryTones[delivery.status]}>{deliveryLabel(delivery)}</StatusBadge>
          {delivery.error ? <div className="muted">{delivery.error}</div> : null}
          {delivery.attempts.length > 1 || (delivery.attempts.length === 1 && delivery.status !== "delivered") ? (
            <div className="muted">
              {delivery.attempts.length} {delivery.attempts.length === 1 ? "attempt" : "attempts"}
              {delivery.next_attempt_at ? `, next ${formatRelativeTime(delivery.next_attempt_at)}` : ""}
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** A rule's firing history, newest first, page by page. */
function MonitorHistory(props: { rule: MonitorRule }) {
  const scopeLabel = useMonitorScopeLabel();
  const events = useCursorPages<MonitorEvent>({
    queryKey: ["monitors", props.rule.id, "events"],
    fetchPage: (cursor) => callApi(dashboardClient.GET("/api/monitors/{monitor_id}/events", { params: { path: { monitor_id: props.rule.id }, query: { limit: 20, ...(cursor ? { cursor } : {}) } } })),
  });
  return (
    <ResourceList query={events} label="the history" empty={<p className="small muted">This monitor has never fired.</p>}>
      {(items) => (
        <>
          <DataTable label="Firing history" columns={["When", "Event", "Value", "Notified"]}>
            {items.map((event) => (
              <tr key={event.id} data-testid="monitor-event">
                <td className="nowrap">
                  {formatDateTime(event.occurred_at)}
                  <div className="small">
                    <Link to={event.activity_url}>Matching calls</Link>
                  </div>
                </td>
                <td>
                  <StatusBadge tone={eventTones[event.kind]}>{event.kind}</StatusBadge>
                  {event.scope_value !== null ? <div className="small">{scopeLabel.value(props.rule.scope.kind, event.scope_value)}</div> : null}
                </td>
                <td>
                  {formatMonitorValue(event.metric, event.value)}
                  <div className="small muted">
                    threshold {formatMonitorValue(event.metric, event.threshold)}, {formatNumber(event.calls)} {event.calls === 1 ? "call" : "calls"} in {formatMinutes(event.window_minutes)}
                  </div>
                </td>
                <td>
                  <Deliveries event={event} />
                </td>
              </tr>
            ))}
          </DataTable>
          <LoadMoreButton pages={events} label="Load older events" />
        </>
      )}
    </ResourceList>
  );
}

/** The body of a rule's drawer: its settings, its state per scope value, its recent values and its history. */
function MonitorDetails(props: { rule: MonitorRule; channelName: (id: string) => string }) {
  const { rule } = props;
  const scopeLabel = useMonitorScopeLabel();
  const valuesSeen = rule.states.map((state) => state.scope_value).filter((value): value is string => value !== null);
  const [charted, setCharted] = useState("");
  return (
    <div className="stack" data-testid="monitor-detail">
      <Facts
        label="Settings"
        items={[
          ["Fires when", describeMonitorCondition(rule)],
          ["Applies to", scopeLabel.scope(rule.scope.kind, rule.scope.value)],
          ["Severity", monitorSeverityLabels[rule.severity]],
          ["Notifies", rule.channel_ids.length === 0 ? "no one (history only)" : rule.channel_ids.map(props.channelName).join(", ")],
          ["Notifies again", rule.renotify_minutes === null ? "no, once per firing" : `every ${formatMinutes(rule.renotify_minutes)}`],
          ["Muted", rule.muted_until ? `until ${formatDateTime(rule.muted_until)}` : "no"],
          ["Last evaluated", formatRelativeTime(rule.last_evaluated_at)],
        ]}
      />
      {rule.description ? <p className="small">{rule.description}</p> : null}
      <section className="stack-tight" aria-labelledby="monitor-states">
        <h3 id="monitor-states">Current state</h3>
        {rule.states.length === 0 ? (
          <p className="small muted">{rule.enabled ? "Not evaluated yet." : "Disabled: not evaluated."}</p>
        ) : (
          <DataTable label="Current state" columns={["Scope value", "State", { label: "Value", numeric: true }, { label: "Calls", numeric: true }, "Since"]}>
            {rule.states.map((state) => (
              <tr key={state.scope_value ?? ""} data-testid="monitor-state">
                <td>
                  {scopeLabel.stateOf(rule, state.scope_value)}
                  <div className="small">
                    <Link to={state.activity_url}>Matching calls</Link>
                  </div>
                </td>
                <td>
                  <MonitorStatusBadge status={state.status} />
                </td>
                <td className="numeric">{formatMonitorValue(rule.metric, state.value)}</td>
                <td className="numeric">{formatNumber(state.calls)}</td>
                <td className="nowrap">{formatDateTime(state.since)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section className="stack-tight" aria-labelledby="monitor-values">
        <h3 id="monitor-values">Recent values</h3>
        {valuesSeen.length > 0 ? (
          <SelectField
            label="Chart"
            value={charted}
            onChange={setCharted}
            options={[{ value: "", label: "All values together" }, ...valuesSeen.map((value) => ({ value, label: scopeLabel.value(rule.scope.kind, value) }))]}
          />
        ) : null}
        <MonitorSparkline rule={rule} {...(charted ? { scopeValue: charted } : {})} width={480} height={96} />
      </section>
      <section className="stack-tight" aria-labelledby="monitor-history">
        <h3 id="monitor-history">Firing history</h3>
        <MonitorHistory rule={rule} />
      </section>
    </div>
  );
}

/** A side drawer with a rule's state, recent values and firing history. */
export function MonitorDrawer(props: { rule: MonitorRule | null; channelName: (id: string) => string; onClose: () => void }) {
  return (
    <Dialog open={props.rule !== null} title={props.rule?.name ?? "Monitor"} onClose={props.onClose} drawer>
      {props.rule ? <MonitorDetails rule={props.rule} channelName={props.channelName} /> : null}
    </Dialog>
  );
}
