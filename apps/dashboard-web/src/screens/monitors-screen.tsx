import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import type { MonitorRule } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { formatDateTime } from "../format/format-date-time.js";
import { MonitorDialog } from "../monitors/monitor-dialog.js";
import { MonitorDrawer } from "../monitors/monitor-drawer.js";
import { describeMonitorCondition, formatMonitorValue, monitorSeverityLabels } from "../monitors/monitor-metrics.js";
import { MonitorSparkline } from "../monitors/monitor-sparkline.js";
import { MonitorStatusBadge } from "../monitors/monitor-status-badge.js";
import { MuteMonitorDialog } from "../monitors/mute-monitor-dialog.js";
import { useMonitorScopeLabel } from "../monitors/use-monitor-scope-label.js";
import { useSession } from "../session/session-context.js";

/** How many scope values a row lists before it says "and N more" (the drawer lists them all). */
const statesInRow = 3;

/** Whether a rule's mute has not ended yet. */
function isMuted(rule: MonitorRule): rule is MonitorRule & { muted_until: string } {
  return rule.muted_until !== null && new Date(rule.muted_until).getTime() > Date.now();
}

/** A rule's state in its row: the worst status, then the scope values that are not ok (or the one state there is). */
function RuleState(props: { rule: MonitorRule; valueLabel: (value: string | null) => string }) {
  const { rule } = props;
  if (!rule.enabled) return <StatusBadge>disabled</StatusBadge>;
  if (rule.states.length === 0) return <span className="small muted">not evaluated yet</span>;
  const notable = rule.states.filter((state) => state.status !== "ok");
  const single = rule.states.length === 1 && rule.states[0]!.scope_value === null ? rule.states[0]! : null;
  return (
    <div className="stack-tight" data-testid="monitor-state-summary">
      <div>
        <MonitorStatusBadge status={rule.status} />
        {single ? <span className="small"> {formatMonitorValue(rule.metric, single.value)}</span> : null}
      </div>
      {single ? null : (
        <ul className="plain-list small">
          {notable.slice(0, statesInRow).map((state) => (
            <li key={state.scope_value ?? ""}>
              {props.valueLabel(state.scope_value)}: <MonitorStatusBadge status={state.status} /> {formatMonitorValue(rule.metric, state.value)}
            </li>
          ))}
          {notable.length > statesInRow ? <li className="muted">and {notable.length - statesInRow} more</li> : null}
          {notable.length === 0 ? <li className="muted">{rule.states.length} {rule.states.length === 1 ? "value" : "values"} ok</li> : null}
        </ul>
      )}
      {isMuted(rule) ? <span className="small muted">muted until {formatDateTime(rule.muted_until)}</span> : null}
    </div>
  );
}

/**
 * Monitors: alert rules over spend, errors, latency and traffic with each rule's state per scope
 * value, its recent values and (in a drawer, `?monitor=<id>`) its firing history; create, edit,
 * mute and delete.
 */
export function MonitorsScreen() {
  const { can } = useSession();
  const scopeLabel = useMonitorScopeLabel();
  const monitors = useQuery(dashboardQueries.monitors());
  const channels = useQuery({ ...dashboardQueries.notificationChannels(), enabled: can("get /api/notification-channels") });
  const channelNames = new Map((channels.data?.data ?? []).map((channel) => [channel.id, channel.name]));
  const channelName = (id: string) => channelNames.get(id) ?? id;
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = searchParams.get("monitor");
  const openRule = monitors.data?.data.find((rule) => rule.id === openId) ?? null;
  const showRule = (id: string | null) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (id === null) next.delete("monitor");
      else next.set("monitor", id);
      return next;
    });
  const editor = useEditDialog<MonitorRule>();
  const [muting, setMuting] = useState<MonitorRule | null>(null);
  const unmute = useApiMutation({
    mutationFn: (rule: MonitorRule) => callApi(dashboardClient.POST("/api/monitors/{monitor_id}/mute", { params: { path: { monitor_id: rule.id } }, body: { until: null } })),
    invalidate: [["monitors"]],
  });
  const remove = useConfirmedMutation({
    mutationFn: (rule: MonitorRule) => callApi(dashboardClient.DELETE("/api/monitors/{monitor_id}", { params: { path: { monitor_id: rule.id } } })),
    invalidate: [["monitors"]],
  });
  const create = <ActionButton operation="post /api/monitors" tone="primary" onClick={editor.create}>Create monitor</ActionButton>;
  return (
    <>
      <PageHeader
        title="Monitors"
        description="Alert rules over spend, errors, latency and traffic, evaluated every minute from the recorded usage. A rule fires through its notification channels when its value crosses the threshold, and says so again when it resolves."
        actions={create}
      />
      {unmute.error ? <ErrorNotice error={unmute.error} title="Could not unmute the monitor" /> : null}
      <ResourceTable
        query={monitors}
        label="monitors"
        empty={
          <EmptyState title="No monitors yet" action={create}>
            Nobody is told when a provider fails or a key's spend jumps until a monitor says so.
          </EmptyState>
        }
        tableLabel="Monitors"
        columns={["Name", "Applies to", "Fires when", "State", "Recent values"]}
        actions
      >
        {(rule) => (
          <tr key={rule.id} data-testid={`monitor-${rule.name}`}>
            <td>
              <button type="button" className="button link row-title" onClick={() => showRule(rule.id)}>
                {rule.name}
              </button>
              <div className="small muted">{monitorSeverityLabels[rule.severity]}</div>
            </td>
            <td>{scopeLabel.scope(rule.scope.kind, rule.scope.value)}</td>
            <td className="small">{describeMonitorCondition(rule)}</td>
            <td>
              <RuleState rule={rule} valueLabel={(value) => scopeLabel.stateOf(rule, value)} />
            </td>
            <td>
              <MonitorSparkline rule={rule} />
            </td>
            <td className="row-actions">
              <button type="button" className="button small" onClick={() => showRule(rule.id)} aria-label={`History of ${rule.name}`}>
                History
              </button>
              <ActionButton operation="patch /api/monitors/{monitor_id}" small onClick={() => editor.edit(rule)}>Edit</ActionButton>
              {isMuted(rule) ? (
                <ActionButton operation="post /api/monitors/{monitor_id}/mute" small onClick={() => unmute.mutate(rule)} disabled={unmute.isPending}>Unmute</ActionButton>
              ) : (
                <ActionButton operation="post /api/monitors/{monitor_id}/mute" small onClick={() => setMuting(rule)}>Mute</ActionButton>
              )}
              <ActionButton operation="delete /api/monitors/{monitor_id}" small tone="danger" onClick={() => remove.ask(rule)}>Delete</ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      <MonitorDrawer rule={openRule} channelName={channelName} onClose={() => showRule(null)} />
      {editor.open ? <MonitorDialog rule={editor.item} onClose={editor.close} /> : null}
      {muting ? <MuteMonitorDialog rule={muting} onClose={() => setMuting(null)} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this monitor?" confirmLabel="Delete monitor">
        <p>
          <strong>{remove.item?.name}</strong> stops being evaluated and notifies no one any more.
        </p>
      </ConfirmDialog>
    </>
  );
}
