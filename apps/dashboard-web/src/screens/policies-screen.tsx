import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { Policy } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { type Scope, ScopeFields, useScopeLabel } from "../components/scope-fields.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { useSession } from "../session/session-context.js";

/** The number of guardrail rules a policy holds. */
export function guardrailRuleCount(policy: Policy): number {
  const rules = (policy.guardrails as { rules?: unknown[] } | null)?.rules;
  return Array.isArray(rules) ? rules.length : 0;
}

/** Model policies: which models an organization, project or key may use (allow and deny globs). */
export function PoliciesScreen() {
  const scopeLabel = useScopeLabel();
  const policies = useQuery(dashboardQueries.policies());
  const editor = useEditDialog<Policy>();
  const remove = useConfirmedMutation({
    mutationFn: (policy: Policy) => callApi(dashboardClient.DELETE("/api/policies/{policy_id}", { params: { path: { policy_id: policy.id } } })),
    invalidate: [["policies"]],
  });
  return (
    <>
      <PageHeader
        title="Policies"
        description={
          <>
            One policy per scope: which models may be called (globs over provider-qualified ids, e.g. <code>openai/*</code>; deny wins). Its <Link to="/guardrails">guardrails</Link> check content.
          </>
        }
        actions={<ActionButton operation="post /api/policies" tone="primary" onClick={editor.create}>Create policy</ActionButton>}
      />
      <ResourceTable
        query={policies}
        label="policies"
        empty={
          <EmptyState title="No policies yet" action={<ActionButton operation="post /api/policies" tone="primary" onClick={editor.create}>Create a policy</ActionButton>}>
            Without a policy every model of every connection may be called.
          </EmptyState>
        }
        tableLabel="Policies"
        columns={["Name", "Applies to", "Allow", "Deny", { label: "Guardrails", numeric: true }]}
        actions
      >
        {(policy) => (
          <tr key={policy.id}>
            <td>{policy.name || <span className="muted">unnamed</span>}</td>
            <td>{scopeLabel(policy.scope, policy.scope_id)}</td>
            <td className="mono small">{policy.allow.length > 0 ? policy.allow.join(", ") : <span className="muted">every model</span>}</td>
            <td className="mono small">{policy.deny.length > 0 ? policy.deny.join(", ") : "–"}</td>
            <td className="numeric">{guardrailRuleCount(policy)}</td>
            <td className="row-actions">
              <ActionButton operation="patch /api/policies/{policy_id}" small onClick={() => editor.edit(policy)}>Edit</ActionButton>
              <ActionButton operation="delete /api/policies/{policy_id}" small tone="danger" onClick={() => remove.ask(policy)}>Delete</ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      {editor.open ? <PolicyDialog policy={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this policy?" confirmLabel="Delete policy">
        <p>Its model rules and guardrails stop applying at once.</p>
      </ConfirmDialog>
    </>
  );
}

const globLines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

function PolicyDialog(props: { policy: Policy | null; onClose: () => void }) {
  const { session } = useSession();
  const form = useSchemaForm({
    operation: props.policy ? "patch /api/policies/{policy_id}" : "post /api/policies",
    initial: {
      name: props.policy?.name ?? "",
      scope: (props.policy?.scope ?? "organization") as Scope,
      scope_id: props.policy?.scope_id ?? session.organization.id,
      allow: (props.policy?.allow ?? []).join("\n"),
      deny: (props.policy?.deny ?? []).join("\n"),
    },
    toBody: (values) => ({
      body: { name: values.name.trim(), ...(props.policy ? {} : { scope: values.scope, scope_id: values.scope_id }), allow: globLines(values.allow), deny: globLines(values.deny) },
    }),
    send: (body) =>
      props.policy ? callApi(dashboardClient.PATCH("/api/policies/{policy_id}", { params: { path: { policy_id: props.policy.id } }, body })) : callApi(dashboardClient.POST("/api/policies", { body })),
    invalidate: [["policies"]],
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={props.policy ? "Edit policy" : "Create policy"} submitLabel={props.policy ? "Save" : "Create policy"} form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} autoFocus />
      <ScopeFields
        scopes={["organization", "project", "key"]}
        scope={form.values.scope}
        scopeId={form.values.scope_id}
        disabled={props.policy !== null}
        onChange={(scope, scopeId) => form.update((values) => ({ ...values, scope, scope_id: scopeId }))}
        errors={{ scope: form.errors.scope, scope_id: form.errors.scope_id }}
      />
      <TextAreaField label="Allow" {...form.field("allow")} hint="One glob per line, e.g. openai/* or */anthropic/claude-*. Empty: every model not denied." monospace rows={3} />
      <TextAreaField label="Deny" {...form.field("deny")} hint="One glob per line; deny wins over allow." monospace rows={3} />
    </FormDialog>
  );
}
