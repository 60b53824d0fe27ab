import { useQuery } from "@tanstack/react-query";
import type { GatewayRoute } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, SelectField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";

/** Routing aliases: a name callers use, mapped to ordered or weighted targets with fallbacks. */
export function RoutesScreen() {
  const routes = useQuery(dashboardQueries.routes());
  const editor = useEditDialog<GatewayRoute>();
  const remove = useConfirmedMutation({
    mutationFn: (route: GatewayRoute) => callApi(dashboardClient.DELETE("/api/routes/{route_id}", { params: { path: { route_id: route.id } } })),
    invalidate: [["routes"]],
  });
  return (
    <>
      <PageHeader
        title="Routes"
        description="An alias (e.g. “fast”) that callers put in model, sent to one of several provider models: in priority order with fallbacks, by weight, or to the fastest."
        actions={<ActionButton operation="post /api/routes" tone="primary" onClick={editor.create}>Create route</ActionButton>}
      />
      <ResourceTable
        query={routes}
        label="routes"
        empty={
          <EmptyState title="No routes yet" action={<ActionButton operation="post /api/routes" tone="primary" onClick={editor.create}>Create a route</ActionButton>}>
            Without routes, callers name provider models directly.
          </EmptyState>
        }
        tableLabel="Routes"
        columns={["Alias", "Strategy", "Targets", "Session affinity", { label: "Attempts", numeric: true }]}
        actions
      >
        {(route) => (
          <tr key={route.id}>
            <td className="mono">{route.alias}</td>
            <td>{route.strategy}</td>
            <td className="mono small">
              {route.targets.map((target, index) => (
                <div key={index}>
                  {index + 1}. {target.model}
                  {route.strategy === "weighted" ? ` (weight ${target.weight})` : ""}
                </div>
              ))}
            </td>
            <td>{route.affinity.enabled ? <StatusBadge tone="info">{route.affinity.ttl_seconds} s</StatusBadge> : "off"}</td>
            <td className="numeric">{route.retry.max_attempts}</td>
            <td className="row-actions">
              <ActionButton operation="patch /api/routes/{route_id}" small onClick={() => editor.edit(route)}>Edit</ActionButton>
              <ActionButton operation="delete /api/routes/{route_id}" small tone="danger" onClick={() => remove.ask(route)}>Delete</ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      {editor.open ? <RouteDialog route={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this route?" confirmLabel="Delete route">
        <p>
          Calls naming <code>{remove.item?.alias}</code> fail with “model not found” once it is deleted.
        </p>
      </ConfirmDialog>
    </>
  );
}

interface RouteFormValues {
  alias: string;
  strategy: string;
  targets: { model: string; weight: string }[];
  affinity: boolean;
  ttl_seconds: string;
  max_attempts: string;
}

function RouteDialog(props: { route: GatewayRoute | null; onClose: () => void }) {
  const form = useSchemaForm<RouteFormValues, unknown>({
    operation: props.route ? "patch /api/routes/{route_id}" : "post /api/routes",
    initial: {
      alias: props.route?.alias ?? "",
      strategy: props.route?.strategy ?? "priority",
      targets: props.route?.targets.map((target) => ({ model: target.model, weight: String(target.weight) })) ?? [{ model: "", weight: "1" }],
      affinity: props.route?.affinity.enabled ?? false,
      ttl_seconds: String(props.route?.affinity.ttl_seconds ?? 3600),
      max_attempts: String(props.route?.retry.max_attempts ?? 1),
    },
    toBody: (values) => ({
      body: {
        alias: values.alias.trim(),
        strategy: values.strategy,
        targets: values.targets.map((target) => ({ model: target.model.trim(), weight: Number(target.weight) })),
        affinity: { enabled: values.affinity, ttl_seconds: Number(values.ttl_seconds) },
        retry: { max_attempts: Number(values.max_attempts) },
      },
    }),
    send: (body) =>
      props.route ? callApi(dashboardClient.PATCH("/api/routes/{route_id}", { params: { path: { route_id: props.route.id } }, body })) : callApi(dashboardClient.POST("/api/routes", { body })),
    invalidate: [["routes"]],
    onSuccess: props.onClose,
    fieldOf: { "affinity.ttl_seconds": "ttl_seconds", "affinity.enabled": "affinity", "retry.max_attempts": "max_attempts" },
  });
  const setTarget = (index: number, change: Partial<{ model: string; weight: string }>) =>
    form.update((values) => ({ ...values, targets: values.targets.map((target, position) => (position === index ? { ...target, ...change } : target)) }));
  return (
    <FormDialog title={props.route ? `Edit ${props.route.alias}` : "Create route"} submitLabel={props.route ? "Save" : "Create route"} form={form} onClose={props.onClose} wide>
      <div className="form-row">
        <TextField label="Alias" {...form.field("alias")} hint="What callers put in model, e.g. fast" autoFocus />
        <SelectField
          label="Strategy"
          value={form.values.strategy}
          onChange={(value) => form.set("strategy", value)}
          error={form.errors.strategy}
          options={[
            { value: "priority", label: "Priority (first, then fall back)" },
            { value: "weighted", label: "Weighted" },
            { value: "least-latency", label: "Least latency" },
          ]}
        />
      </div>
      <fieldset>
        <legend>Targets</legend>
        <div className="stack">
          {form.values.targets.map((target, index) => (
            <div className="form-row" key={index}>
              <TextField label={`Target ${index + 1} model`} value={target.model} onChange={(value) => setTarget(index, { model: value })} error={form.errorFor(`targets[${index}]`)} placeholder="openai/openai/gpt-4o-mini" />
              {form.values.strategy === "weighted" ? <TextField label="Weight" type="number" value={target.weight} onChange={(value) => setTarget(index, { weight: value })} /> : null}
              <div className="field">
                <span className="label" aria-hidden="true">&nbsp;</span>
                <button
                  type="button"
                  className="button small"
                  disabled={form.values.targets.length === 1}
                  onClick={() => form.update((values) => ({ ...values, targets: values.targets.filter((_, position) => position !== index) }))}
                  aria-label={`Remove target ${index + 1}`}
                >
                  Remove
                </button>
              </div>
            </div>
          ))}
          {form.errors.targets ? <span className="error">{form.errors.targets}</span> : null}
          <div>
            <button type="button" className="button small" onClick={() => form.update((values) => ({ ...values, targets: [...values.targets, { model: "", weight: "1" }] }))} disabled={form.values.targets.length >= 20}>
              Add target
            </button>
          </div>
        </div>
      </fieldset>
      <div className="form-row">
        <CheckboxField label="Session affinity" checked={form.values.affinity} onChange={(checked) => form.set("affinity", checked)} hint="Calls of one session stay on the same target" />
        {form.values.affinity ? <TextField label="Affinity lifetime (seconds)" type="number" {...form.field("ttl_seconds")} /> : null}
        <TextField label="Attempts per call" type="number" {...form.field("max_attempts")} hint="1 to 10, across targets" />
      </div>
    </FormDialog>
  );
}
