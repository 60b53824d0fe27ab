import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import type { Policy } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { DataTable } from "../components/data-table.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, CheckboxGroup, SelectField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceList } from "../components/resource-list.js";
import { useScopeLabel } from "../components/scope-fields.js";
import { StatusBadge } from "../components/status-badge.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useSchemaForm } from "../components/use-schema-form.js";

/** One guardrail rule as stored in a policy (`{type, action, ...}`; see the policy engine). */
type GuardrailRule = Record<string, unknown> & { type: string; action?: string; name?: string; appliesTo?: string };

const ruleTypes = [
  { value: "secrets", label: "Secrets (API keys, tokens, private keys)" },
  { value: "pii", label: "Personal data (email, phone, cards, IBAN, SSN)" },
  { value: "blocked_terms", label: "Blocked terms" },
  { value: "regex", label: "Regular expression" },
  { value: "max_input_characters", label: "Maximum input size" },
];
const piiDetectors = ["email", "phone", "payment_card", "iban", "us_ssn"];
const secretDetectors = ["openai_api_key", "anthropic_api_key", "aws_access_key_id", "github_token", "slack_token", "gateway_api_key", "private_key"];
const actionTone = { block: "danger", redact: "warning", flag: "info" } as const;

/** A rule's action; size limits block unless they say otherwise (the policy engine's default). */
function actionOf(rule: GuardrailRule): string {
  return rule.action ?? (rule.type === "max_input_characters" ? "block" : "");
}

function rulesOf(policy: Policy): GuardrailRule[] {
  const rules = (policy.guardrails as { rules?: GuardrailRule[] } | null)?.rules;
  return Array.isArray(rules) ? rules : [];
}

function describeRule(rule: GuardrailRule): string {
  switch (rule.type) {
    case "blocked_terms":
      const count = (rule.terms as string[] | undefined)?.length ?? 0;
      return `${count} ${count === 1 ? "term" : "terms"}${rule.wholeWord === false ? "" : ", whole words"}`;
    case "regex":
      return `/${String(rule.pattern)}/${String(rule.flags ?? "")}`;
    case "pii":
    case "secrets":
      return ((rule.detectors as string[] | undefined) ?? ["all detectors"]).join(", ");
    case "max_input_characters":
      return `${Number(rule.limit).toLocaleString("en-US")} characters`;
    default:
      return "";
  }
}

/** Guardrails: content rules of each policy (block, redact or flag secrets, personal data, terms, patterns, size). */
export function GuardrailsScreen() {
  const scopeLabel = useScopeLabel();
  const policies = useQuery(dashboardQueries.policies());
  const [editing, setEditing] = useState<{ policy: Policy; index: number | null } | null>(null);
  const remove = useConfirmedMutation({
    // The rules are the policy's own (as the API answered them) minus the removed one; the API validates them again.
    mutationFn: (rule: { policy: Policy; index: number }) =>
      callApi(
        dashboardClient.PATCH("/api/policies/{policy_id}", {
          params: { path: { policy_id: rule.policy.id } },
          body: { guardrails: { ...(rule.policy.guardrails as object), rules: rulesOf(rule.policy).filter((_, index) => index !== rule.index) as never } },
        }),
      ),
    invalidate: [["policies"]],
  });
  return (
    <>
      <PageHeader
        title="Guardrails"
        description="Rules on what goes to and comes from models, per policy: block the call, redact the match, or flag it on the usage record. Applied to streams too."
      />
      <ResourceList
        query={policies}
        label="guardrails"
        empty={
          <EmptyState title="No policies yet">
            Guardrails belong to a policy. <Link to="/policies">Create a policy</Link> for the organization, a project or a key first.
          </EmptyState>
        }
      >
        {(items) =>
          items.map((policy) => {
            const rules = rulesOf(policy);
            return (
              <section className="card" key={policy.id} aria-label={`Guardrails of ${policy.name || scopeLabel(policy.scope, policy.scope_id)}`}>
                <div className="card-header">
                  <h2>
                    {policy.name || "Policy"} <span className="muted small">· {scopeLabel(policy.scope, policy.scope_id)}</span>
                  </h2>
                  <ActionButton operation="patch /api/policies/{policy_id}" small tone="primary" onClick={() => setEditing({ policy, index: null })}>
                    Add rule
                  </ActionButton>
                </div>
                {rules.length === 0 ? (
                  <p className="muted">No guardrails: content passes unchecked.</p>
                ) : (
                  <DataTable label={`Rules of ${policy.name || scopeLabel(policy.scope, policy.scope_id)}`} columns={["Rule", "Action", "Checks", "Details"]} actions>
                    {rules.map((rule, index) => (
                      <tr key={index}>
                        <td>
                          {ruleTypes.find((type) => type.value === rule.type)?.label.split(" (")[0] ?? rule.type}
                          {rule.name ? <div className="small muted mono">{rule.name}</div> : null}
                        </td>
                        <td>
                          <StatusBadge tone={actionTone[actionOf(rule) as keyof typeof actionTone] ?? "neutral"}>{actionOf(rule)}</StatusBadge>
                        </td>
                        <td>{rule.type === "max_input_characters" ? "input" : (rule.appliesTo ?? "both")}</td>
                        <td className="small mono">{describeRule(rule)}</td>
                        <td className="row-actions">
                          <ActionButton operation="patch /api/policies/{policy_id}" small onClick={() => setEditing({ policy, index })}>Edit</ActionButton>
                          <ActionButton operation="patch /api/policies/{policy_id}" small tone="danger" onClick={() => remove.ask({ policy, index })}>Remove</ActionButton>
                        </td>
                      </tr>
                    ))}
                  </DataTable>
                )}
              </section>
            );
          })
        }
      </ResourceList>
      {editing ? <RuleDialog policy={editing.policy} index={editing.index} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog {...remove.dialog} title="Remove this rule?" confirmLabel="Remove rule">
        <p>Content it checked passes unchecked from now on.</p>
      </ConfirmDialog>
    </>
  );
}

interface RuleFormValues {
  type: string;
  name: string;
  action: string;
  appliesTo: string;
  terms: string;
  wholeWord: boolean;
  pattern: string;
  flags: string;
  detectors: string[];
  limit: string;
}

function RuleDialog(props: { policy: Policy; index: number | null; onClose: () => void }) {
  const existing = props.index === null ? null : rulesOf(props.policy)[props.index]!;
  const position = props.index ?? rulesOf(props.policy).length;
  const fields = ["type", "name", "action", "appliesTo", "terms", "wholeWord", "pattern", "flags", "detectors", "limit"];
  const form = useSchemaForm<RuleFormValues, unknown>({
    operation: "patch /api/policies/{policy_id}",
    initial: {
      type: existing?.type ?? "secrets",
      name: existing?.name ?? "",
      action: existing ? actionOf(existing) || "block" : "block",
      appliesTo: existing?.appliesTo ?? "both",
      terms: ((existing?.terms as string[] | undefined) ?? []).join("\n"),
      wholeWord: existing?.wholeWord !== false,
      pattern: String(existing?.pattern ?? ""),
      flags: String(existing?.flags ?? ""),
      detectors: (existing?.detectors as string[] | undefined) ?? [],
      limit: existing?.limit !== undefined ? String(existing.limit) : "200000",
    },
    toBody: (values) => {
      const rule: GuardrailRule = { type: values.type, action: values.action };
      if (values.name.trim() !== "") rule.name = values.name.trim();
      if (values.type !== "max_input_characters") rule.appliesTo = values.appliesTo;
      if (values.type === "blocked_terms") {
        rule.terms = values.terms.split("\n").map((term) => term.trim()).filter((term) => term !== "");
        rule.wholeWord = values.wholeWord;
      }
      if (values.type === "regex") {
        rule.pattern = values.pattern;
        if (values.flags !== "") rule.flags = values.flags;
      }
      if ((values.type === "pii" || values.type === "secrets") && values.detectors.length > 0) rule.detectors = values.detectors;
      if (values.type === "max_input_characters") rule.limit = Number(values.limit);
      const rules = [...rulesOf(props.policy)];
      rules[position] = rule;
      return { body: { guardrails: { ...(props.policy.guardrails as object), rules } } };
    },
    send: (body) => callApi(dashboardClient.PATCH("/api/policies/{policy_id}", { params: { path: { policy_id: props.policy.id } }, body })),
    invalidate: [["policies"]],
    onSuccess: props.onClose,
    fieldOf: Object.fromEntries([...fields.map((field) => [`guardrails.rules[${position}].${field}`, field]), [`guardrails.rules[${position}]`, "type"]]),
  });
  const values = form.values;
  const detectorOptions = (values.type === "pii" ? piiDetectors : secretDetectors).map((detector) => ({ value: detector, label: detector.replace(/_/g, " ") }));
  return (
    <FormDialog title={existing ? "Edit guardrail" : "Add guardrail"} submitLabel={existing ? "Save rule" : "Add rule"} form={form} onClose={props.onClose}>
      <SelectField label="Type" value={values.type} onChange={(value) => form.update((current) => ({ ...current, type: value, detectors: [], action: value === "max_input_characters" && current.action === "redact" ? "block" : current.action }))} error={form.errors.type} options={ruleTypes} />
      <div className="form-row">
        <SelectField
          label="Action"
          value={values.action}
          onChange={(value) => form.set("action", value)}
          error={form.errors.action}
          options={[
            { value: "block", label: "Block the call" },
            ...(values.type === "max_input_characters" ? [] : [{ value: "redact", label: "Redact the match" }]),
            { value: "flag", label: "Flag on the usage record" },
          ]}
        />
        {values.type !== "max_input_characters" ? (
          <SelectField
            label="Checks"
            value={values.appliesTo}
            onChange={(value) => form.set("appliesTo", value)}
            error={form.errors.appliesTo}
            options={[
              { value: "both", label: "Input and output" },
              { value: "input", label: "Input only" },
              { value: "output", label: "Output only" },
            ]}
          />
        ) : null}
        <TextField label={values.type === "regex" ? "Name" : "Name (optional)"} {...form.field("name")} hint="Shown in flags, e.g. ticket-id" />
      </div>
      {values.type === "blocked_terms" ? (
        <>
          <TextAreaField label="Terms" {...form.field("terms")} hint="One per line" rows={4} />
          <CheckboxField label="Whole words only" checked={values.wholeWord} onChange={(checked) => form.set("wholeWord", checked)} />
        </>
      ) : null}
      {values.type === "regex" ? (
        <div className="form-row">
          <TextField label="Pattern" {...form.field("pattern")} placeholder="TICKET-[0-9]{4,8}" />
          <TextField label="Flags" {...form.field("flags")} hint="Any of i, m, s, u" />
        </div>
      ) : null}
      {values.type === "pii" || values.type === "secrets" ? (
        <CheckboxGroup legend="Detectors" options={detectorOptions} values={values.detectors} onChange={(detectors) => form.set("detectors", detectors)} error={form.errorFor("detectors")} hint="None ticked: all of them." />
      ) : null}
      {values.type === "max_input_characters" ? <TextField label="Limit (characters of all text in one request)" type="number" {...form.field("limit")} /> : null}
    </FormDialog>
  );
}
