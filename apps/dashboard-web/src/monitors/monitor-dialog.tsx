import { useQuery } from "@tanstack/react-query";
import type { MonitorRule } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { CheckboxField, CheckboxGroup, SelectField, type SelectOption, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { useNames } from "../components/use-names.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { useSession } from "../session/session-context.js";
import { choicesWith, monitorFieldOf, type MonitorFormValues, monitorFormToBody, monitorToFormValues, renotifyChoices, windowChoices } from "./monitor-form-values.js";
import { formatMinutes, monitorComparatorInfo, monitorMetricInfo, monitorScopeInfo, type MonitorScopeKind, monitorSeverityLabels, thresholdFieldOf } from "./monitor-metrics.js";

const optionsOf = <Key extends string>(labels: Record<Key, string>): SelectOption[] => Object.entries<string>(labels).map(([value, label]) => ({ value, label }));
const metricOptions = Object.entries(monitorMetricInfo).map(([value, info]) => ({ value, label: info.label }));
const scopeOptions = Object.entries(monitorScopeInfo).map(([value, info]) => ({ value, label: info.label }));
const comparatorOptions = Object.entries(monitorComparatorInfo).map(([value, info]) => ({ value, label: `${info.symbol} ${info.label}` }));
const channelKindLabels: Record<string, string> = { webhook: "webhook", slack: "Slack", email: "email" };

/** The scope value control: a pick among the organization's projects, teams, keys or connections, or free text for models and client labels. */
function ScopeValueField(props: { kind: MonitorScopeKind; value: string; onChange: (value: string) => void; error: string | undefined }) {
  const { can } = useSession();
  const names = useNames();
  const connections = useQuery({ ...dashboardQueries.connections(), enabled: props.kind === "connection" && can("get /api/connections") });
  const info = monitorScopeInfo[props.kind];
  if (props.kind === "organization") return null;
  if (props.kind === "model" || props.kind === "client_label") {
    return (
      <TextField
        label={info.label}
        value={props.value}
        onChange={props.onChange}
        error={props.error}
        placeholder={props.kind === "model" ? "openai/gpt-4o-mini" : "checkout-service"}
        hint={`Empty: ${info.each.toLowerCase()}, separately.`}
      />
    );
  }
  const targets =
    props.kind === "project"
      ? names.projects.map((project) => ({ value: project.id, label: project.name }))
      : props.kind === "team"
        ? names.teams.map((team) => ({ value: team.id, label: team.name }))
        : props.kind === "api_key"
          ? names.keys.filter((key) => key.status === "active").map((key) => ({ value: key.id, label: `${key.name} (${key.prefix}…${key.last_four})` }))
          : (connections.data?.data ?? []).map((connection) => ({ value: connection.id, label: connection.name }));
  // A target this role cannot list still shows (as its id) rather than vanishing from the rule.
  const options = props.value !== "" && !targets.some((target) => target.value === props.value) ? [...targets, { value: props.value, label: props.value }] : targets;
  return <SelectField label={info.label} value={props.value} onChange={props.onChange} error={props.error} options={[{ value: "", label: `${info.each}, separately` }, ...options]} />;
}

/** Create or edit a monitor rule: what it measures, where, when it fires, and whom it tells. */
export function MonitorDialog(props: { rule: MonitorRule | null; onClose: () => void }) {
  const { can } = useSession();
  const channels = useQuery({ ...dashboardQueries.notificationChannels(), enabled: can("get /api/notification-channels") });
  const form = useSchemaForm({
    operation: props.rule ? "patch /api/monitors/{monitor_id}" : "post /api/monitors",
    initial: monitorToFormValues(props.rule),
    toBody: monitorFormToBody,
    send: (body) =>
      props.rule
        ? callApi(dashboardClient.PATCH("/api/monitors/{monitor_id}", { params: { path: { monitor_id: props.rule.id } }, body }))
        : callApi(dashboardClient.POST("/api/monitors", { body })),
    invalidate: [["monitors"]],
    onSuccess: props.onClose,
    fieldOf: monitorFieldOf,
  });
  const values = form.values;
  const threshold = thresholdFieldOf(values.metric);
  const channelOptions = (channels.data?.data ?? []).map((channel) => ({ value: channel.id, label: `${channel.name} (${channelKindLabels[channel.kind] ?? channel.kind})` }));
  // Channels of the rule this role cannot list stay ticked (by id), so saving keeps them.
  for (const id of values.channel_ids) if (!channelOptions.some((option) => option.value === id)) channelOptions.push({ value: id, label: id });
  return (
    <FormDialog title={props.rule ? `Edit ${props.rule.name}` : "Create monitor"} submitLabel={props.rule ? "Save" : "Create monitor"} form={form} onClose={props.onClose} wide>
      <TextField label="Name" {...form.field("name")} autoFocus />
      <TextAreaField label="Description" {...form.field("description")} rows={2} hint="Optional; sent with every notification (a runbook link, who to call)." />
      <div className="form-row">
        <SelectField
          label="Metric"
          value={values.metric}
          onChange={(metric) =>
            // The threshold is typed in the metric's unit: a new metric starts from its default.
            form.update((current) => ({ ...current, metric: metric as MonitorFormValues["metric"], threshold: current.metric === metric ? current.threshold : "" }))
          }
          error={form.errors.metric}
          options={metricOptions}
        />
        <SelectField
          label="Applies to"
          value={values.scope_kind}
          onChange={(kind) => form.update((current) => ({ ...current, scope_kind: kind as MonitorScopeKind, scope_value: "" }))}
          error={form.errors.scope_kind}
          options={scopeOptions}
        />
        <ScopeValueField kind={values.scope_kind} value={values.scope_value} onChange={(value) => form.set("scope_value", value)} error={form.errorFor("scope_value")} />
      </div>
      <div className="form-row">
        <SelectField label="Comparison" value={values.comparator} onChange={(value) => form.set("comparator", value as MonitorFormValues["comparator"])} error={form.errors.comparator} options={comparatorOptions} />
        <TextField label={threshold.label} {...form.field("threshold")} hint={threshold.hint} />
        <SelectField
          label="Window"
          value={values.window_minutes}
          onChange={(value) => form.set("window_minutes", value)}
          error={form.errors.window_minutes}
          options={choicesWith(windowChoices, values.window_minutes).map((minutes) => ({ value: String(minutes), label: `Last ${formatMinutes(minutes)}` }))}
          hint="Re-evaluated every minute"
        />
      </div>
      <div className="form-row">
        <TextField label="Minimum calls" {...form.field("min_calls")} hint="Fewer calls in the window never fire; empty: no minimum." />
        <SelectField label="Severity" value={values.severity} onChange={(value) => form.set("severity", value as MonitorFormValues["severity"])} error={form.errors.severity} options={optionsOf(monitorSeverityLabels)} />
        <SelectField
          label="Notify again while firing"
          value={values.renotify_minutes}
          onChange={(value) => form.set("renotify_minutes", value)}
          error={form.errors.renotify_minutes}
          options={[{ value: "", label: "No, once per firing" }, ...choicesWith(renotifyChoices, values.renotify_minutes).map((minutes) => ({ value: String(minutes), label: `Every ${formatMinutes(minutes)}` }))]}
        />
      </div>
      <CheckboxGroup
        legend="Notification channels"
        options={channelOptions}
        values={values.channel_ids}
        onChange={(ids) => form.set("channel_ids", ids)}
        error={form.errorFor("channel_ids")}
        hint={
          !can("get /api/notification-channels")
            ? "Your role cannot list the notification channels."
            : channelOptions.length === 0
              ? "No notification channels yet: the monitor records its history only."
              : "None ticked: the monitor records its history only."
        }
      />
      <CheckboxField label="Enabled" checked={values.enabled} onChange={(checked) => form.set("enabled", checked)} hint="A disabled monitor is not evaluated." />
    </FormDialog>
  );
}
