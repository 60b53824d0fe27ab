import { useQuery } from "@tanstack/react-query";
import type { RateLimit } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { type Scope, ScopeFields, useScopeLabel } from "../components/scope-fields.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatNumber } from "../format/format-number.js";
import { limitSourceNotes } from "../format/limit-source-notes.js";

function formatWindow(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "1 minute" : `${seconds / 60} minutes`;
  return `${seconds} s`;
}

/** Rate limits per project or key with the current window's calls and tokens; create, edit, delete. */
export function RateLimitsScreen() {
  const scopeLabel = useScopeLabel();
  const limits = useQuery(dashboardQueries.rateLimits());
  const statuses = useQuery(dashboardQueries.rateLimitStatuses());
  const editor = useEditDialog<RateLimit>();
  const remove = useConfirmedMutation({
    mutationFn: (limit: RateLimit) => callApi(dashboardClient.DELETE("/api/rate-limits/{rate_limit_id}", { params: { path: { rate_limit_id: limit.id } } })),
    invalidate: [["rate-limits"]],
  });
  const statusOf = new Map((statuses.data?.data ?? []).map((status) => [status.rate_limit_id, status]));
  const usage = (used: number | undefined, cap: number | null, remaining: number | null | undefined) =>
    cap === null ? <span className="muted">no cap</span> : (
      <>
        {used === undefined ? "…" : formatNumber(used)} / {formatNumber(cap)}
        {remaining !== undefined && remaining !== null ? <div className="small muted">{formatNumber(remaining)} left</div> : null}
      </>
    );
  return (
    <>
      <PageHeader
        title="Rate limits"
        description="Calls, tokens and concurrent calls per project or key in a sliding window. Calls over a limit get 429 with Retry-After."
        actions={<ActionButton operation="post /api/rate-limits" tone="primary" onClick={editor.create}>Create rate limit</ActionButton>}
      />
      <ResourceTable
        query={limits}
        label="rate limits"
        empty={<EmptyState title="No rate limits yet" action={<ActionButton operation="post /api/rate-limits" tone="primary" onClick={editor.create}>Create a rate limit</ActionButton>} />}
        tableLabel="Rate limits"
        columns={["Applies to", "Window", { label: "Requests (used / cap)", numeric: true }, { label: "Tokens (used / cap)", numeric: true }, { label: "Concurrent", numeric: true }]}
        actions
      >
        {(limit) => {
          const status = statusOf.get(limit.id);
          return (
            <tr key={limit.id} data-testid={`rate-limit-${limit.id}`}>
              <td>{scopeLabel(limit.scope, limit.scope_id)}</td>
              <td>{formatWindow(limit.window_seconds)}</td>
              <td className="numeric">{usage(status?.requests, limit.requests_per_window, status?.requests_remaining)}</td>
              <td className="numeric">{usage(status?.tokens, limit.tokens_per_window, status?.tokens_remaining)}</td>
              <td className="numeric">
                {limit.concurrency === null ? <span className="muted">no cap</span> : usage(status?.concurrent ?? undefined, limit.concurrency, undefined)}
              </td>
              <td className="row-actions">
                <ActionButton operation="patch /api/rate-limits/{rate_limit_id}" small onClick={() => editor.edit(limit)}>Edit</ActionButton>
                <ActionButton operation="delete /api/rate-limits/{rate_limit_id}" small tone="danger" onClick={() => remove.ask(limit)}>Delete</ActionButton>
              </td>
            </tr>
          );
        }}
      </ResourceTable>
      <p className="small muted" data-testid="rate-limit-source">
        Used: calls admitted in the last window and their tokens, as the limiter counts them (refused calls do not count), from{" "}
        {limitSourceNotes[statuses.data?.data[0]?.source ?? "recorded_usage"]}.
      </p>
      {editor.open ? <RateLimitDialog limit={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this rate limit?" confirmLabel="Delete rate limit">
        <p>Calls are no longer limited by it.</p>
      </ConfirmDialog>
    </>
  );
}

const optionalInteger = (text: string) => (text.trim() === "" ? null : Number(text));

function RateLimitDialog(props: { limit: RateLimit | null; onClose: () => void }) {
  const names = { value: (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value)) };
  const form = useSchemaForm({
    operation: props.limit ? "patch /api/rate-limits/{rate_limit_id}" : "post /api/rate-limits",
    initial: {
      scope: (props.limit?.scope ?? "project") as Scope,
      scope_id: props.limit?.scope_id ?? "",
      window_seconds: String(props.limit?.window_seconds ?? 60),
      requests_per_window: names.value(props.limit?.requests_per_window),
      tokens_per_window: names.value(props.limit?.tokens_per_window),
      concurrency: names.value(props.limit?.concurrency),
    },
    toBody: (values) => {
      const caps = { requests_per_window: optionalInteger(values.requests_per_window), tokens_per_window: optionalInteger(values.tokens_per_window), concurrency: optionalInteger(values.concurrency) };
      const errors: Record<string, string> = {};
      if (caps.requests_per_window === null && caps.tokens_per_window === null && caps.concurrency === null) errors.requests_per_window = "Set at least one of requests, tokens or concurrent calls.";
      return { body: { ...(props.limit ? {} : { scope: values.scope, scope_id: values.scope_id }), window_seconds: Number(values.window_seconds), ...caps }, errors };
    },
    send: (body) =>
      props.limit
        ? callApi(dashboardClient.PATCH("/api/rate-limits/{rate_limit_id}", { params: { path: { rate_limit_id: props.limit.id } }, body }))
        : callApi(dashboardClient.POST("/api/rate-limits", { body })),
    invalidate: [["rate-limits"]],
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={props.limit ? "Edit rate limit" : "Create rate limit"} submitLabel={props.limit ? "Save" : "Create rate limit"} form={form} onClose={props.onClose}>
      <ScopeFields
        scopes={["project", "key"]}
        scope={form.values.scope}
        scopeId={form.values.scope_id}
        disabled={props.limit !== null}
        onChange={(scope, scopeId) => form.update((values) => ({ ...values, scope, scope_id: scopeId }))}
        errors={{ scope: form.errors.scope, scope_id: form.errors.scope_id }}
      />
      <TextField label="Window (seconds)" type="number" {...form.field("window_seconds")} hint="1 to 86400" />
      <div className="form-row">
        <TextField label="Requests per window" type="number" {...form.field("requests_per_window")} hint="Empty: no cap" />
        <TextField label="Tokens per window" type="number" {...form.field("tokens_per_window")} hint="Empty: no cap" />
        <TextField label="Concurrent calls" type="number" {...form.field("concurrency")} hint="Empty: no cap" />
      </div>
    </FormDialog>
  );
}
