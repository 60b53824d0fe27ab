import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TelemetryDestination } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { DeliveryTestResult, type DeliveryTestOutcome } from "../components/delivery-test-result.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { QueryView } from "../components/query-view.js";
import { StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatRelativeTime } from "../format/format-date-time.js";
import { parseHeaderLines } from "../format/parse-header-lines.js";
import { useSession } from "../session/session-context.js";

/** Telemetry destinations: usage traces sent to an OTLP collector or a signed webhook, with a test event. */
export function TelemetryScreen() {
  const { can } = useSession();
  const destinations = useQuery(dashboardQueries.telemetryDestinations());
  const [editing, setEditing] = useState<TelemetryDestination | "new" | null>(null);
  const [deleting, setDeleting] = useState<TelemetryDestination | null>(null);
  const [results, setResults] = useState<Record<string, DeliveryTestOutcome>>({});
  const test = useApiMutation({
    mutationFn: (destination: TelemetryDestination) => callApi(dashboardClient.POST("/api/telemetry-destinations/{destination_id}/test", { params: { path: { destination_id: destination.id } } })),
    invalidate: [["telemetry-destinations"]],
    onSuccess: (result, destination) => setResults((current) => ({ ...current, [destination.id]: result })),
  });
  const remove = useApiMutation({
    mutationFn: (destination: TelemetryDestination) => callApi(dashboardClient.DELETE("/api/telemetry-destinations/{destination_id}", { params: { path: { destination_id: destination.id } } })),
    invalidate: [["telemetry-destinations"]],
    onSuccess: () => setDeleting(null),
  });
  const mayCreate = can("post /api/telemetry-destinations");
  return (
    <>
      <PageHeader
        title="Telemetry"
        description="Every gateway call as a trace span to your OpenTelemetry collector (OTLP/HTTP), or as a signed JSON webhook."
        actions={mayCreate ? <button type="button" className="button primary" onClick={() => setEditing("new")}>Add destination</button> : null}
      />
      <QueryView query={destinations} label="telemetry destinations">
        {(list) =>
          list.data.length === 0 ? (
            <div className="card">
              <EmptyState title="No telemetry destinations" action={mayCreate ? <button type="button" className="button primary" onClick={() => setEditing("new")}>Add a destination</button> : null} />
            </div>
          ) : (
            <div className="table-wrap">
              <table aria-label="Telemetry destinations">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Kind</th>
                    <th scope="col">URL</th>
                    <th scope="col">Last delivery</th>
                    <th scope="col">Status</th>
                    <th scope="col"><span className="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((destination) => (
                    <tr key={destination.id}>
                      <td>
                        {destination.name}
                        <DeliveryTestResult outcome={results[destination.id]} error={test.variables?.id === destination.id ? test.error : null} />
                      </td>
                      <td>{destination.kind === "otlp_http" ? "OTLP/HTTP" : "Webhook"}</td>
                      <td className="mono small">{destination.url}</td>
                      <td>
                        {destination.last_delivery_at ? (
                          <>
                            <StatusBadge tone={destination.last_delivery_ok ? "success" : "danger"}>{destination.last_delivery_ok ? "delivered" : "failed"}</StatusBadge>
                            <div className="small muted">{formatRelativeTime(destination.last_delivery_at)}</div>
                          </>
                        ) : (
                          <span className="muted">none yet</span>
                        )}
                      </td>
                      <td>{destination.enabled ? <StatusBadge tone="success">enabled</StatusBadge> : <StatusBadge tone="warning">disabled</StatusBadge>}</td>
                      <td className="row-actions">
                        {can("post /api/telemetry-destinations/{destination_id}/test") ? (
                          <button type="button" className="button small" onClick={() => test.mutate(destination)} disabled={test.isPending}>
                            {test.isPending && test.variables?.id === destination.id ? "Sending…" : "Send test"}
                          </button>
                        ) : null}
                        {can("patch /api/telemetry-destinations/{destination_id}") ? <button type="button" className="button small" onClick={() => setEditing(destination)}>Edit</button> : null}
                        {can("delete /api/telemetry-destinations/{destination_id}") ? <button type="button" className="button small danger" onClick={() => setDeleting(destination)}>Delete</button> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      {editing ? <DestinationDialog destination={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this destination?"
        confirmLabel="Delete destination"
        onClose={() => { setDeleting(null); remove.reset(); }}
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>Traces stop going to {deleting?.url}.</p>
      </ConfirmDialog>
    </>
  );
}

function DestinationDialog(props: { destination: TelemetryDestination | null; onClose: () => void }) {
  const editing = props.destination !== null;
  const save = useApiMutation({
    mutationFn: (body: any) =>
      props.destination
        ? callApi(dashboardClient.PATCH("/api/telemetry-destinations/{destination_id}", { params: { path: { destination_id: props.destination.id } }, body }))
        : callApi(dashboardClient.POST("/api/telemetry-destinations", { body })),
    invalidate: [["telemetry-destinations"]],
  });
  const form = useSchemaForm({
    operation: editing ? "patch /api/telemetry-destinations/{destination_id}" : "post /api/telemetry-destinations",
    initial: { name: props.destination?.name ?? "", enabled: props.destination?.enabled ?? true, replaceConfig: !editing, kind: props.destination?.kind ?? "otlp_http", url: props.destination?.url ?? "", secret: "", headers: "" },
    toBody: (values) => {
      const parsed = parseHeaderLines(values.headers);
      const config = values.kind === "otlp_http" ? { kind: "otlp_http", endpoint: values.url.trim(), headers: parsed.headers } : { kind: "webhook", url: values.url.trim(), secret: values.secret, headers: parsed.headers };
      const errors: Record<string, string> = parsed.error ? { headers: parsed.error } : {};
      return { body: { name: values.name.trim(), enabled: values.enabled, ...(values.replaceConfig ? { config } : {}) }, errors };
    },
    send: save.mutateAsync,
    onSuccess: props.onClose,
    fieldOf: { "config.endpoint": "url", "config.url": "url", "config.secret": "secret", "config.kind": "kind", config: "kind" },
  });
  const values = form.values;
  return (
    <FormDialog title={editing ? `Edit ${props.destination!.name}` : "Add telemetry destination"} submitLabel={editing ? "Save" : "Add destination"} form={form} onClose={props.onClose}>
      <TextField label="Name" value={values.name} onChange={(value) => form.set("name", value)} error={form.errors.name} autoFocus />
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
          <TextField label={values.kind === "otlp_http" ? "Traces endpoint" : "Webhook URL"} type="url" value={values.url} onChange={(value) => form.set("url", value)} error={form.errors.url} placeholder={values.kind === "otlp_http" ? "https://collector.example.com:4318/v1/traces" : "https://hooks.example.com/gateway"} hint="https (http only for localhost)" />
          {values.kind === "webhook" ? <TextField label="Signing secret (write-only)" type="password" autoComplete="new-password" value={values.secret} onChange={(value) => form.set("secret", value)} error={form.errors.secret} hint="16+ characters; receivers check X-Gateway-Signature with it" /> : null}
          <TextAreaField label="Headers (stored encrypted)" value={values.headers} onChange={(value) => form.set("headers", value)} error={form.errorFor("headers") ?? form.errorFor("config.headers")} hint="Optional, one per line: Header-Name: value" monospace rows={2} />
        </>
      ) : null}
    </FormDialog>
  );
}
