import { useSession } from "../session/session-context.js";
import { SelectField } from "./fields.js";
import { useNames } from "./use-names.js";

/** A scope a policy, budget or rate limit applies to. */
export type Scope = "organization" | "project" | "key" | "team";

const scopeLabels: Record<Scope, string> = { organization: "Whole organization", project: "Project", key: "API key", team: "Team" };

/** Scope and target pickers (the target list follows the scope). */
export function ScopeFields(props: {
  scopes: readonly Scope[];
  scope: Scope;
  scopeId: string;
  onChange: (scope: Scope, scopeId: string) => void;
  errors: { scope?: string | undefined; scope_id?: string | undefined };
  disabled?: boolean;
}) {
  const { session } = useSession();
  const names = useNames();
  const targets = (scope: Scope) =>
    scope === "organization"
      ? [{ value: session.organization.id, label: session.organization.name }]
      : scope === "project"
        ? names.projects.map((project) => ({ value: project.id, label: project.name }))
        : scope === "key"
          ? names.keys.filter((key) => key.status === "active").map((key) => ({ value: key.id, label: `${key.name} (${key.prefix}…${key.last_four})` }))
          : names.teams.map((team) => ({ value: team.id, label: team.name }));
  return (
    <div className="form-row">
      <SelectField
        label="Applies to"
        value={props.scope}
        disabled={props.disabled}
        onChange={(value) => {
          const scope = value as Scope;
          props.onChange(scope, targets(scope)[0]?.value ?? "");
        }}
        error={props.errors.scope}
        options={props.scopes.map((scope) => ({ value: scope, label: scopeLabels[scope] }))}
      />
      <SelectField
        label={scopeLabels[props.scope]}
        value={props.scopeId}
        disabled={props.disabled || props.scope === "organization"}
        onChange={(value) => props.onChange(props.scope, value)}
        error={props.errors.scope_id}
        placeholder={targets(props.scope).length === 0 ? "Nothing to choose yet" : props.scopeId === "" ? "Choose…" : undefined}
        options={targets(props.scope)}
      />
    </div>
  );
}

/** Names a scope target for tables ("Project checkout", "Key ci (gak_ab…wxyz)"). */
export function useScopeLabel(): (scope: Scope, scopeId: string) => string {
  const { session } = useSession();
  const names = useNames();
  return (scope, scopeId) =>
    scope === "organization"
      ? session.organization.name
      : scope === "project"
        ? `Project ${names.project(scopeId)}`
        : scope === "key"
          ? `Key ${names.key(scopeId)}`
          : `Team ${names.team(scopeId)}`;
}
