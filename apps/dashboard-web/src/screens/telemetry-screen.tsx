import { useQuery } from "@tanstack/react-query";
import type { TelemetryDestination } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { DeliveryTestResult } from "../components/delivery-test-result.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { LastDelivery } from "../components/last-delivery.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useDeliveryTest } from "../components/use-delivery-test.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { parseHeaderLines } from "../format/parse-header-lines.js";

/** Telemetry destinations: usage traces sent to an OTLP collector or a signed webhook, with a test event. */
export function TelemetryScreen() {
  const destinations = useQuery(dashboardQueries.telemetryDestinations());
  const editor = useEditDialog<TelemetryDestination>();
  const test = useDeliveryTest({
    send: (destination: TelemetryDestination) => callApi(dashboardClient.POST("/api/telemetry-destinations/{destination_id}/test", { params: { path: { destination_id: destination.id } } })),
    invalidate: [["telemetry-destinations"]],
  });
  const remove = useConfirmedMutation({
    mutationFn: (destination: TelemetryDestination) => callApi(dashboardClient.DELETE("/api/telemetry-destinations/{destination_id}", { params: { path: { destination_id: destination.id } } })),
    invalidate: [["telemetry-destinations"]],
  });
  return (
    <>
      <PageHeader
        title="Telemetry"
        description="Every gateway call as a trace span to your OpenTelemetry collector (OTLP/HTTP), or as a signed JSON webhook."
        actions={<ActionButton operation="post /api/telemetry-destinations" tone="primary" onClick={editor.create}>Add destination</ActionButton>}
      />
      <ResourceTable
        query={destinations}
        label="telemetry destinations"
        empty={<EmptyState title="No telemetry destinations" action={<ActionButton operation="post /api/telemetry-destinations" tone="primary" onClick={editor.create}>Add a destination</ActionButton>} />}
        tableLabel="Telemetry destinations"
        columns={["Name", "Kind", "URL", "Last delivery", "Status"]}
        actions
      >
        {(destination) => (
          <tr key={destination.id}>
            <td>
              {destination.name}
              <DeliveryTestResult outcome={test.outcome(destination)} error={test.error(destination)} />
            </td>
            <td>{destination.kind === "otlp_http" ? "OTLP/HTTP" : "Webhook"}</td>
            <td className="mono small">{destination.url}</td>
            <td>
              <LastDelivery at={destination.last_delivery_at} ok={destination.last_delivery_ok} />
            </td>
            <td>{destination.enabled ? <StatusBadge tone="success">enabled</StatusBadge> : <StatusBadge tone="warning">disabled</StatusBadge>}</td>
            <td className="row-actions">
              <ActionButton operation="post /api/telemetry-destinations/{destination_id}/test" small onClick={() => test.send(destination)} disabled={test.busy}>
                {test.sending(destination) ? "Sending…" : "Send test"}
              </ActionButton>
              <ActionButton operation="patch /api/telemetry-destinations/{destination_id}" small onClick={() => editor.edit(destination)}>Edit</ActionButton>
              <ActionButton operation="delete /api/telemetry-destinations/{destination_id}" small tone="danger" onClick={() => remove.ask(destination)}>Delete</ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      {editor.open ? <DestinationDialog destination={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this destination?" confirmLabel="Delete destination">
        <p>Traces stop going to {remove.item?.url}.</p>
      </ConfirmDialog>
    </>
  );
}

function DestinationDialog(props: { destination: TelemetryDestination | null; onClose: () => void }) {
  const editing = props.destination !== null;
  const form = useSchemaForm({
    operation: editing ? "patch /api/telemetry-destinations/{destination_id}" : "post /api/telemetry-destinations",
    initial: { name: props.destination?.name ?? "", enabled: props.destination?.enabled ?? true, replaceConfig: !editing, kind: props.destination?.kind ?? "otlp_http", url: props.destination?.url ?? "", secret: "", headers: "" },
    toBody: (values) => {
      const parsed = parseHeaderLines(values.headers);
      const config = values.kind === "otlp_http" ? { kind: "otlp_http", endpoint: values.url.trim(), headers: parsed.headers } : { kind: "webhook", url: values.url.trim(), secret: values.secret, headers: parsed.headers };
      const errors: Record<string, string> = parsed.error ? { headers: parsed.error } : {};
      return { body: { name: values.name.trim(), enabled: values.enabled, ...(values.replaceConfig ? { config } : {}) }, errors };
    },
    send: (body) =>
      props.destination
        ? callApi(dashboardClient.PATCH("/api/telemetry-destinations/{destination_id}", { params: { path: { destination_id: props.destination.id } }, body }))
        : callApi(dashboardClient.POST("/api/telemetry-destinations", { body })),
    invalidate: [["telemetry-destinations"]],
    onSuccess: props.onClose,
    fieldOf: { "config.endpoint": "url", "config.url": "url", "config.secret": "secret", "config.kind": "kind", config: "kind" },
  });
  const values = form.values;
  return (
    <FormDialog title={editing ? `Edit ${props.destination!.name}` : "Add telemetry destination"} submitLabel={editing ? "Save" : "Add destination"} form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} autoFocus />
      <CheckboxField label="Enabled" checked={values.enabled} onChange={(checked) => form.set("enabled", checked)} />
      {editing ? <CheckboxField label="Replace the configuration (URL, secret, headers)" checked={values.replaceConfig} onChange={(checked) => form.set("replaceConfig", checked)} hint="The stored secret and headers are never shown; enter them again to change anything." /> : null}
      {values.replaceConfig ? (
        <>
          <SelectField
            label="Kind"
            value={values.kind}
            onChange={(value) => form.set("kind", value as typeof values.kind)}
            error={form.errors.kind}
            options={[
              { value: "otlp_http", label: "OpenTelemetry collector (OTLP/HTTP)" },
              { value: "webhook", label: "Webhook (signed JSON)" },
            ]}
          />
          <TextField label={values.kind === "otlp_http" ? "Traces endpoint" : "Webhook URL"} type="url" {...form.field("url")} placeholder={values.kind === "otlp_http" ? "https://collector.example.com:4318/v1/traces" : "https://hooks.example.com/gateway"} hint="https (http only for localhost)" />
          {values.kind === "webhook" ? <TextField label="Signing secret (write-only)" type="password" autoComplete="new-password" {...form.field("secret")} hint="16+ characters; receivers check X-Gateway-Signature with it" /> : null}
          <TextAreaField label="Headers (stored encrypted)" value={values.headers} onChange={(value) => form.set("headers", value)} error={form.errorFor("headers") ?? form.errorFor("config.headers")} hint="Optional, one per line: Header-Name: value" monospace rows={2} />
        </>
      ) : null}
    </FormDialog>
  );
}
