import type { MonitorRule } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { SelectField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { muteUntilOf } from "./monitor-form-values.js";
import { formatMinutes } from "./monitor-metrics.js";

const muteChoices = [60, 240, 1440, 10_080] as const;

/** Mutes a rule until a time: it goes on being evaluated (its state shows `muted`), but notifies no one. */
export function MuteMonitorDialog(props: { rule: MonitorRule; onClose: () => void }) {
  const form = useSchemaForm({
    operation: "post /api/monitors/{monitor_id}/mute",
    initial: { duration: "60", until: "" },
    toBody: (values) => {
      const result = muteUntilOf(values.duration === "custom" ? { until: values.until } : { minutes: Number(values.duration) }, new Date());
      return "error" in result ? { body: { until: null }, errors: { until: result.error } } : { body: { until: result.until } };
    },
    send: (body) => callApi(dashboardClient.POST("/api/monitors/{monitor_id}/mute", { params: { path: { monitor_id: props.rule.id } }, body })),
    invalidate: [["monitors"]],
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={`Mute ${props.rule.name}`} submitLabel="Mute" form={form} onClose={props.onClose}>
      <p className="small muted">While muted the monitor is still evaluated and its history recorded, but no notification is sent.</p>
      <SelectField
        label="Mute for"
        value={form.values.duration}
        onChange={(value) => form.set("duration", value)}
        options={[...muteChoices.map((minutes) => ({ value: String(minutes), label: formatMinutes(minutes) })), { value: "custom", label: "Until a date and time" }]}
      />
      {form.values.duration === "custom" ? <TextField label="Muted until" type="datetime-local" {...form.field("until")} /> : null}
    </FormDialog>
  );
}
