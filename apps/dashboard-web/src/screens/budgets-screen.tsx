import { useQuery } from "@tanstack/react-query";
import type { Budget, BudgetStatus } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { SelectField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { type Scope, ScopeFields, useScopeLabel } from "../components/scope-fields.js";
import { StatusBadge } from "../components/status-badge.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatDateTime } from "../format/format-date-time.js";
import { formatMicros, parseDollarsToMicros } from "../format/format-micros.js";
import { limitSourceNotes } from "../format/limit-source-notes.js";
import { formatPercent } from "../format/format-number.js";
import { useSession } from "../session/session-context.js";

const periodLabels = { day: "Daily", week: "Weekly", month: "Monthly", total: "Total" } as const;

/** A spend bar: green, amber from 80 %, red from 100 %. */
function SpendBar(props: { status: BudgetStatus }) {
  const fraction = props.status.used_fraction;
  const tone = fraction >= 1 ? "danger" : fraction >= 0.8 ? "warning" : "";
  return (
    <div className={`progress ${tone}`} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(Math.min(fraction, 1) * 100)} aria-label="Spent of the budget">
      <span style={{ width: `${Math.min(fraction, 1) * 100}%` }} />
    </div>
  );
}

/** Budgets with their current spend and what remains; create, edit, delete. */
export function BudgetsScreen() {
  const scopeLabel = useScopeLabel();
  const budgets = useQuery(dashboardQueries.budgets());
  const statuses = useQuery(dashboardQueries.budgetStatuses());
  const editor = useEditDialog<Budget>();
  const remove = useConfirmedMutation({
    mutationFn: (budget: Budget) => callApi(dashboardClient.DELETE("/api/budgets/{budget_id}", { params: { path: { budget_id: budget.id } } })),
    invalidate: [["budgets"]],
  });
  const reset = useConfirmedMutation({
    mutationFn: (budget: Budget) => callApi(dashboardClient.POST("/api/budgets/{budget_id}/reset", { params: { path: { budget_id: budget.id } } })),
    invalidate: [["budgets"]],
  });
  const statusOf = new Map((statuses.data?.data ?? []).map((status) => [status.budget_id, status]));
  return (
    <>
      <PageHeader
        title="Budgets"
        description="Spend caps per organization, project, team or key for a UTC day, ISO week, month or in total. Hard budgets refuse calls that could exceed them; soft budgets notify at their thresholds."
        actions={<ActionButton operation="post /api/budgets" tone="primary" onClick={editor.create}>Create budget</ActionButton>}
      />
      <ResourceTable
        query={budgets}
        label="budgets"
        empty={
          <EmptyState title="No budgets yet" action={<ActionButton operation="post /api/budgets" tone="primary" onClick={editor.create}>Create a budget</ActionButton>}>
            Spend is unlimited until a budget says otherwise.
          </EmptyState>
        }
        tableLabel="Budgets"
        columns={["Name", "Applies to", "Period", "Mode", { label: "Amount", numeric: true }, { label: "Spent", numeric: true }, { label: "Remaining", numeric: true }, "Used"]}
        actions
      >
        {(budget) => {
          const status = statusOf.get(budget.id);
          return (
            <tr key={budget.id} data-testid={`budget-${budget.name}`}>
              <td>{budget.name}</td>
              <td>{scopeLabel(budget.scope, budget.scope_id)}</td>
              <td>
                {periodLabels[budget.period]}
                {status?.period_end ? <div className="small muted">until {formatDateTime(status.period_end)}</div> : null}
              </td>
              <td>{budget.mode === "hard" ? <StatusBadge tone="danger">hard</StatusBadge> : <StatusBadge>soft</StatusBadge>}</td>
              <td className="numeric">{formatMicros(budget.amount_micros)}</td>
              <td className="numeric" data-testid="budget-spent">
                {status ? formatMicros(status.spent_micros) : "…"}
                {status && status.reserved_micros > 0 ? <div className="small muted" data-testid="budget-reserved">+ {formatMicros(status.reserved_micros)} in flight</div> : null}
                {status?.spend_reset_at ? <div className="small muted">reset {formatDateTime(status.spend_reset_at)}</div> : null}
              </td>
              <td className="numeric" data-testid="budget-remaining">{status ? formatMicros(status.remaining_micros) : "…"}</td>
              <td>
                {status ? (
                  <>
                    <SpendBar status={status} />
                    <span className="small muted">{formatPercent(status.used_fraction)}</span>
                  </>
                ) : null}
              </td>
              <td className="row-actions">
                <ActionButton operation="patch /api/budgets/{budget_id}" small onClick={() => editor.edit(budget)}>Edit</ActionButton>
                <ActionButton operation="post /api/budgets/{budget_id}/reset" small onClick={() => reset.ask(budget)}>Reset spend</ActionButton>
                <ActionButton operation="delete /api/budgets/{budget_id}" small tone="danger" onClick={() => remove.ask(budget)}>Delete</ActionButton>
              </td>
            </tr>
          );
        }}
      </ResourceTable>
      <p className="small muted" data-testid="budget-source">
        Spent: what admission counts in the current period, from {limitSourceNotes[statuses.data?.data[0]?.source ?? "recorded_usage"]}. It is the
        recorded usage of the period (minus a reset) plus calls settled since; calls still running are shown as in flight. Remaining leaves room for them.
      </p>
      {editor.open ? <BudgetDialog budget={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...reset.dialog} title="Reset this budget's spend?" confirmLabel="Reset spend">
        <p>
          <strong>{reset.item?.name}</strong> counts only spend recorded from now on for the rest of its current period; the next period counts in full.
          Every gateway picks the reset up, and it is recorded in the audit log.
        </p>
      </ConfirmDialog>
      <ConfirmDialog {...remove.dialog} title="Delete this budget?" confirmLabel="Delete budget">
        <p>
          <strong>{remove.item?.name}</strong> stops limiting spend at once.
        </p>
      </ConfirmDialog>
    </>
  );
}

function BudgetDialog(props: { budget: Budget | null; onClose: () => void }) {
  const { session } = useSession();
  const form = useSchemaForm({
    operation: props.budget ? "patch /api/budgets/{budget_id}" : "post /api/budgets",
    initial: {
      name: props.budget?.name ?? "",
      scope: (props.budget?.scope ?? "organization") as Scope,
      scope_id: props.budget?.scope_id ?? session.organization.id,
      amount: props.budget ? String(props.budget.amount_micros / 1_000_000) : "",
      period: props.budget?.period ?? "month",
      mode: props.budget?.mode ?? "soft",
      thresholds: (props.budget?.thresholds ?? [0.5, 0.8, 1]).map((threshold) => String(Math.round(threshold * 1000) / 10)).join(", "),
    },
    toBody: (values) => {
      const errors: Record<string, string> = {};
      const micros = parseDollarsToMicros(values.amount);
      if (micros === null) errors.amount = "Enter an amount in dollars, e.g. 25 or 0.50.";
      const thresholds = values.thresholds
        .split(",")
        .map((part) => part.trim().replace(/%$/, ""))
        .filter((part) => part !== "")
        .map((part) => Number(part) / 100);
      if (thresholds.some((threshold) => !Number.isFinite(threshold))) errors.thresholds = "Enter percentages separated by commas, e.g. 50, 80, 100.";
      return {
        body: {
          name: values.name.trim(),
          ...(props.budget ? {} : { scope: values.scope, scope_id: values.scope_id }),
          amount_micros: micros ?? 0,
          period: values.period,
          mode: values.mode,
          thresholds,
        },
        errors,
      };
    },
    send: (body) =>
      props.budget ? callApi(dashboardClient.PATCH("/api/budgets/{budget_id}", { params: { path: { budget_id: props.budget.id } }, body })) : callApi(dashboardClient.POST("/api/budgets", { body })),
    invalidate: [["budgets"]],
    onSuccess: props.onClose,
    fieldOf: { amount_micros: "amount" },
  });
  return (
    <FormDialog title={props.budget ? "Edit budget" : "Create budget"} submitLabel={props.budget ? "Save" : "Create budget"} form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} autoFocus />
      <ScopeFields
        scopes={["organization", "project", "team", "key"]}
        scope={form.values.scope}
        scopeId={form.values.scope_id}
        disabled={props.budget !== null}
        onChange={(scope, scopeId) => form.update((values) => ({ ...values, scope, scope_id: scopeId }))}
        errors={{ scope: form.errors.scope, scope_id: form.errors.scope_id }}
      />
      <div className="form-row">
        <TextField label="Amount (USD)" {...form.field("amount")} placeholder="25.00" />
        <SelectField label="Period" value={form.values.period} onChange={(value) => form.set("period", value as typeof form.values.period)} error={form.errors.period} options={Object.entries(periodLabels).map(([value, label]) => ({ value, label }))} />
        <SelectField
          label="Mode"
          value={form.values.mode}
          onChange={(value) => form.set("mode", value as typeof form.values.mode)}
          error={form.errors.mode}
          options={[
            { value: "soft", label: "Soft: notify" },
            { value: "hard", label: "Hard: refuse calls" },
          ]}
        />
      </div>
      <TextField label="Notify at (% of the amount)" {...form.field("thresholds")} hint="Comma-separated, e.g. 50, 80, 100" />
    </FormDialog>
  );
}
