import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Connection, ConnectionTest } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { dashboardOperations } from "../generated/dashboard-operations.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { type ConnectionFormValues, connectionFormToBody, connectionToFormValues, type TimeoutName, timeoutNames } from "../connections/connection-form-values.js";
import { formatDuration } from "../format/format-number.js";
import { useSession } from "../session/session-context.js";

/** Names for people of the kinds this screen knows, in the order it offers them; any other kind is shown as it is. */
const kindLabels: Partial<Record<string, string>> = {
  openai: "OpenAI-compatible",
  anthropic: "Anthropic",
  "azure-openai": "Azure OpenAI",
  systemone: "System One (decisions)",
  demo: "Demo (offline)",
};
const kindLabel = (kind: string): string => kindLabels[kind] ?? kind;

/** The kinds the API accepts (its document's enum: one per provider the gateway has), known ones first. */
const apiKinds: readonly string[] = dashboardOperations["post /api/connections"].requestSchema.properties.kind.enum;
const connectionKinds = [...Object.keys(kindLabels).filter((kind) => apiKinds.includes(kind)), ...apiKinds.filter((kind) => !(kind in kindLabels))];

const timeoutLabels: Record<TimeoutName, string> = {
  connect_ms: "Connect timeout",
  total_ms: "Call timeout (JSON)",
  first_byte_ms: "First event timeout (streams)",
  idle_ms: "Idle timeout (streams)",
  max_duration_ms: "Longest stream (0: no limit)",
};

/** Provider connections: create and edit (credentials write-only), test with a real call, delete. */
export function ConnectionsScreen() {
  const connections = useQuery(dashboardQueries.connections());
  const editor = useEditDialog<Connection>();
  const [tests, setTests] = useState<Record<string, ConnectionTest | { error: unknown }>>({});
  const test = useApiMutation({
    mutationFn: (connection: Connection) => callApi(dashboardClient.POST("/api/connections/{connection_id}/test", { params: { path: { connection_id: connection.id } } })),
    invalidate: [],
  });
  const remove = useConfirmedMutation({
    mutationFn: (connection: Connection) => callApi(dashboardClient.DELETE("/api/connections/{connection_id}", { params: { path: { connection_id: connection.id } } })),
    invalidate: [["connections"]],
  });
  const runTest = (connection: Connection) =>
    test.mutate(connection, {
      onSuccess: (result) => setTests((current) => ({ ...current, [connection.id]: result })),
      onError: (error) => setTests((current) => ({ ...current, [connection.id]: { error } })),
    });
  return (
    <>
      <PageHeader
        title="Connections"
        description="Providers the gateway calls. Models are addressed as <connection>/<vendor>/<model>. Credentials are stored encrypted and never shown again."
        actions={<ActionButton operation="post /api/connections" tone="primary" onClick={editor.create}>Add connection</ActionButton>}
      />
      <ResourceTable
        query={connections}
        label="connections"
        empty={
          <EmptyState title="No connections yet" action={<ActionButton operation="post /api/connections" tone="primary" onClick={editor.create}>Add a connection</ActionButton>}>
            Add an OpenAI-compatible, Anthropic or System One provider, or the offline demo.
          </EmptyState>
        }
        tableLabel="Connections"
        columns={["Name", "Kind", "Base URL", "Credential", { label: "Models", numeric: true }, "Status"]}
        actions
      >
        {(connection) => {
          const result = tests[connection.id];
          const testing = test.isPending && test.variables?.id === connection.id;
          return (
            <tr key={connection.id}>
              <td>
                <strong>{connection.name}</strong>
                {result ? (
                  <div className="small" role="status" data-testid={`connection-test-${connection.name}`}>
                    {"error" in result ? (
                      <ErrorNotice error={result.error} title="Test failed" />
                    ) : (
                      <span className={result.ok ? "" : "muted"}>
                        <StatusBadge tone={result.ok ? "success" : "danger"}>{result.ok ? "test passed" : "test failed"}</StatusBadge> {result.message}
                        {result.status_code !== null ? ` (HTTP ${result.status_code}, ${formatDuration(result.latency_ms)})` : ` (${formatDuration(result.latency_ms)})`}
                      </span>
                    )}
                  </div>
                ) : null}
              </td>
              <td>{kindLabel(connection.kind)}</td>
              <td className="mono small">{connection.base_url ?? "default"}</td>
              <td>{connection.has_credential ? <StatusBadge tone="success">stored</StatusBadge> : <StatusBadge>none</StatusBadge>}</td>
              <td className="numeric">{connection.models.length}</td>
              <td>{connection.enabled ? <StatusBadge tone="success">enabled</StatusBadge> : <StatusBadge tone="warning">disabled</StatusBadge>}</td>
              <td className="row-actions">
                <ActionButton operation="post /api/connections/{connection_id}/test" small onClick={() => runTest(connection)} disabled={testing} aria-label={`Test ${connection.name}`}>
                  {testing ? "Testing…" : "Test"}
                </ActionButton>
                <ActionButton operation="patch /api/connections/{connection_id}" small onClick={() => editor.edit(connection)} aria-label={`Edit ${connection.name}`}>
                  Edit
                </ActionButton>
                <ActionButton operation="delete /api/connections/{connection_id}" small tone="danger" onClick={() => remove.ask(connection)} aria-label={`Delete ${connection.name}`}>
                  Delete
                </ActionButton>
              </td>
            </tr>
          );
        }}
      </ResourceTable>
      {editor.open ? <ConnectionDialog connection={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this connection?" confirmLabel="Delete connection">
        <p>
          Calls to <code>{remove.item?.name}/…</code> models fail once <strong>{remove.item?.name}</strong> is deleted, and its stored credential is erased.
        </p>
      </ConfirmDialog>
    </>
  );
}

function ConnectionDialog(props: { connection: Connection | null; onClose: () => void }) {
  const editing = props.connection !== null;
  const form = useSchemaForm<ConnectionFormValues, unknown>({
    operation: editing ? "patch /api/connections/{connection_id}" : "post /api/connections",
    initial: connectionToFormValues(props.connection),
    toBody: (values) => connectionFormToBody(values, editing),
    send: (body) =>
      props.connection
        ? callApi(dashboardClient.PATCH("/api/connections/{connection_id}", { params: { path: { connection_id: props.connection.id } }, body }))
        : callApi(dashboardClient.POST("/api/connections", { body })),
    invalidate: [["connections"]],
    onSuccess: props.onClose,
  });
  const values = form.values;
  return (
    <FormDialog title={editing ? `Edit ${props.connection!.name}` : "Add connection"} submitLabel={editing ? "Save" : "Add connection"} form={form} onClose={props.onClose} wide>
      <div className="form-row">
        <TextField label="Name" {...form.field("name")} hint="The <connection> part of model ids, e.g. openai" autoFocus />
        <SelectField
          label="Kind"
          value={values.kind}
          onChange={(value) => form.set("kind", value as ConnectionFormValues["kind"])}
          error={form.errors.kind}
          disabled={editing}
          options={connectionKinds.map((kind) => ({ value: kind, label: kindLabel(kind) }))}
        />
      </div>
      {values.kind !== "demo" ? (
        <>
          <TextField label="Base URL" type="url" {...form.field("base_url")} hint={values.kind === "systemone" ? "Required; with or without /v1" : values.kind === "azure-openai" ? "Required: the resource endpoint, e.g. https://contoso.openai.azure.com" : "Empty: the provider's public API; with or without /v1"} />
          <TextField
            label={editing && props.connection?.has_credential ? "New API key (write-only)" : "API key (write-only)"}
            type="password"
            autoComplete="new-password"
            value={values.credential}
            onChange={(value) => form.set("credential", value)}
            error={form.errors.credential}
            hint={editing && props.connection?.has_credential ? "A key is stored. Leave empty to keep it; it is never shown." : "Stored encrypted; never shown again."}
          />
          {editing && props.connection?.has_credential ? <CheckboxField label="Remove the stored API key" checked={values.removeCredential} onChange={(checked) => form.set("removeCredential", checked)} /> : null}
        </>
      ) : null}
      <TextAreaField label="Models" {...form.field("models")} hint="One <vendor>/<model> per line, e.g. openai/gpt-4o-mini" monospace />
      <TextAreaField
        label="Prices (USD per million tokens)"
        value={values.prices}
        onChange={(value) => form.set("prices", value)}
        error={form.errorFor("prices")}
        hint="One per line: vendor/model input output [cache_read cache_write]. Unlisted models use the built-in price table."
        monospace
        rows={3}
      />
      {values.kind !== "demo" ? (
        <>
          <TextAreaField label="Upstream model names" {...form.field("upstream_model_names")} hint="Optional, one per line: vendor/model = name the provider expects (default: the name after vendor/)" monospace rows={2} />
          <TextAreaField label="Extra headers" {...form.field("headers")} hint="Optional, one per line: Header-Name: value (not encrypted; put secrets in the API key)" monospace rows={2} />
          <TextAreaField
            label="Provider settings (JSON)"
            value={values.settings}
            onChange={(value) => form.set("settings", value)}
            error={form.errorFor("settings")}
            hint={settingsHint(values.kind)}
            monospace
            rows={3}
          />
        </>
      ) : null}
      {values.kind !== "demo" ? (
        <details>
          <summary>Advanced: timeouts and provider quirks</summary>
          <div className="stack" style={{ marginTop: "0.75rem" }}>
            <div className="form-row">
              {timeoutNames.map((name) => (
                <TextField
                  key={name}
                  label={timeoutLabels[name]}
                  type="number"
                  value={values.timeouts[name]}
                  onChange={(value) => form.update((current) => ({ ...current, timeouts: { ...current.timeouts, [name]: value } }))}
                  error={form.errors[`timeouts.${name}`]}
                  hint="ms; empty: the gateway's setting"
                />
              ))}
            </div>
            {values.kind === "openai" ? (
              <SelectField
                label="Log-probabilities"
                value={values.logprobs}
                onChange={(value) => form.set("logprobs", value as ConnectionFormValues["logprobs"])}
                error={form.errors.logprobs}
                options={[
                  { value: "", label: "Measure them when the provider offers them" },
                  { value: "true", label: "The provider supports logprobs" },
                  { value: "false", label: "The provider rejects logprobs (decisions use stated probabilities)" },
                ]}
              />
            ) : null}
            {values.kind === "openai" ? (
              <SelectField
                label="Responses API"
                value={values.responses_api}
                onChange={(value) => form.set("responses_api", value as ConnectionFormValues["responses_api"])}
                error={form.errors.responses_api}
                options={[
                  { value: "", label: "Native only on OpenAI's own API" },
                  { value: "true", label: "The provider serves POST /responses" },
                  { value: "false", label: "Chat completions only (the gateway translates)" },
                ]}
              />
            ) : null}
            <TextAreaField
              label="Model endpoints"
              value={values.model_endpoints}
              onChange={(value) => form.set("model_endpoints", value)}
              error={form.errorFor("model_endpoints")}
              hint="Optional, one per line: vendor/model = chat, responses, embeddings (default: embeddings for names with “embed”, else chat and responses)"
              monospace
              rows={2}
            />
            {values.kind === "anthropic" ? (
              <TextField label="Default max tokens" type="number" {...form.field("default_max_tokens")} hint="For translated requests without an output cap; empty: 4096" />
            ) : null}
          </div>
        </details>
      ) : null}
      <CheckboxField label="Enabled" checked={values.enabled} onChange={(checked) => form.set("enabled", checked)} />
    </FormDialog>
  );
}

/** What the settings field takes for a kind (the API checks it against the kind's settings schema). */
function settingsHint(kind: string): string {
  if (kind === "azure-openai") {
    return 'A JSON object, e.g. { "deployments": { "openai/gpt-4o": "my-gpt-4o" }, "apiVersion": "2024-10-21" }; with Entra ID add "entra": { "tenantId": "...", "clientId": "..." } and put the client secret in the API key field.';
  }
  return "Optional: a JSON object of the kind's own settings (none for this kind: leave empty). No secrets: they go in the API key field.";
}
