import { useState } from "react";
import { Link } from "react-router";
import { activityLink, parseMetadataLines } from "../activity/activity-filters.js";
import type { ApiKey, CreatedApiKey } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { CopyButton } from "../components/copy-button.js";
import { Dialog } from "../components/dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { SelectField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { LoadMoreButton } from "../components/load-more-button.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useCursorPages } from "../components/use-cursor-pages.js";
import { useNames } from "../components/use-names.js";
import { type FormBody, useSchemaForm } from "../components/use-schema-form.js";
import { formatDateTime, formatRelativeTime } from "../format/format-date-time.js";
import { useSession } from "../session/session-context.js";

const statusTone = { active: "success", expired: "warning", revoked: "danger" } as const;

/** API keys: list with filters, create (the secret shown once, with a copy button), revoke with confirmation. */
export function ApiKeysScreen() {
  const { can, canUseProject } = useSession();
  const names = useNames();
  const [projectId, setProjectId] = useState("");
  const [status, setStatus] = useState<"" | ApiKey["status"]>("");
  const [creating, setCreating] = useState(false);
  const query = { limit: 50, ...(projectId ? { project_id: projectId } : {}), ...(status ? { status } : {}) };
  const keys = useCursorPages({
    queryKey: ["api-keys", "pages", query],
    fetchPage: (cursor) => callApi(dashboardClient.GET("/api/api-keys", { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } })),
  });
  const revoke = useConfirmedMutation({
    mutationFn: (key: ApiKey) => callApi(dashboardClient.DELETE("/api/api-keys/{api_key_id}", { params: { path: { api_key_id: key.id } } })),
    invalidate: [["api-keys"]],
  });
  const usableProjects = names.projects.filter((project) => canUseProject(project.id));
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys authenticate calls to the gateway. Each belongs to a project; its policies, budgets and rate limits apply to every call made with it."
        actions={
          <ActionButton operation="post /api/api-keys" when={usableProjects.length > 0} tone="primary" onClick={() => setCreating(true)}>
            Create API key
          </ActionButton>
        }
      />
      <div className="filters" role="search" aria-label="Filter API keys">
        <SelectField label="Project" value={projectId} onChange={setProjectId} placeholder="All projects" options={names.projects.map((project) => ({ value: project.id, label: project.name }))} />
        <SelectField
          label="Status"
          value={status}
          onChange={(value) => setStatus(value as typeof status)}
          placeholder="Any status"
          options={[
            { value: "active", label: "Active" },
            { value: "expired", label: "Expired" },
            { value: "revoked", label: "Revoked" },
          ]}
        />
      </div>
      <ResourceTable
        query={keys}
        label="the API keys"
        loadingLabel="Loading API keys…"
        empty={
          <EmptyState
            title={projectId || status ? "No keys match these filters" : "No API keys yet"}
            action={
              <ActionButton operation="post /api/api-keys" when={usableProjects.length > 0 && !projectId && !status} tone="primary" onClick={() => setCreating(true)}>
                Create the first key
              </ActionButton>
            }
          >
            A key lets an application call the gateway's <code>/v1</code> endpoints.
          </EmptyState>
        }
        tableLabel="API keys"
        columns={["Name", "Key", "Project", "Status", "Last used", "Expires"]}
        actions
      >
        {(key) => (
          <tr key={key.id} data-testid={`api-key-${key.id}`}>
            <td>{key.name}</td>
            <td className="mono">
              {key.prefix}…{key.last_four}
            </td>
            <td>{names.project(key.project_id)}</td>
            <td>
              <StatusBadge tone={statusTone[key.status]}>{key.status}</StatusBadge>
            </td>
            <td title={formatDateTime(key.last_used_at)}>{formatRelativeTime(key.last_used_at)}</td>
            <td>{formatDateTime(key.expires_at)}</td>
            <td className="row-actions">
              {can("get /api/activity") ? (
                <Link className="button small" to={activityLink({ api_key_id: key.id })} aria-label={`Activity of ${key.name}`}>
                  Activity
                </Link>
              ) : null}
              <ActionButton operation="delete /api/api-keys/{api_key_id}" when={key.status !== "revoked" && canUseProject(key.project_id)} small tone="danger" onClick={() => revoke.ask(key)} aria-label={`Revoke ${key.name}`}>
                Revoke
              </ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      <LoadMoreButton pages={keys} label="Load more" />
      {creating ? <CreateApiKeyDialog projects={usableProjects} onClose={() => setCreating(false)} /> : null}
      <ConfirmDialog {...revoke.dialog} title="Revoke this API key?" confirmLabel="Revoke key">
        <p>
          <strong>{revoke.item?.name}</strong> ({revoke.item?.prefix}…{revoke.item?.last_four}) stops working within a second: the gateway refuses every call made with it. This
          cannot be undone; the record stays for the audit trail.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** The create dialog: a form, then the new secret, shown this one time. */
function CreateApiKeyDialog(props: { projects: { id: string; name: string }[]; onClose: () => void }) {
  const names = useNames();
  const { can, session } = useSession();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const form = useSchemaForm({
    operation: "post /api/api-keys",
    initial: { name: "", project_id: props.projects[0]?.id ?? "", team_id: "", expires_at: "", default_metadata: "" },
    toBody: (values): FormBody => {
      const expires = values.expires_at ? new Date(values.expires_at) : null;
      if (expires !== null && Number.isNaN(expires.getTime())) return { body: {}, errors: { expires_at: "Enter a date and time." } };
      const metadata = parseMetadataLines(values.default_metadata);
      if (metadata.error) return { body: {}, errors: { default_metadata: metadata.error } };
      return {
        body: {
          name: values.name.trim(),
          project_id: values.project_id,
          ...(values.team_id ? { team_id: values.team_id } : {}),
          ...(expires ? { expires_at: expires.toISOString() } : {}),
          ...(Object.keys(metadata.metadata).length > 0 ? { default_metadata: metadata.metadata } : {}),
        },
      };
    },
    send: (body) => callApi(dashboardClient.POST("/api/api-keys", { body })),
    invalidate: [["api-keys"]],
    onSuccess: setCreated,
  });
  if (created) {
    return (
      <Dialog
        open
        title="Your new API key"
        onClose={props.onClose}
        footer={
          <button type="button" className="button primary" onClick={props.onClose}>
            Done
          </button>
        }
      >
        <div className="stack">
          <div className="notice warning" role="status">
            <strong className="notice-title">Copy this key now.</strong>
            <span>It is shown only this once; the gateway keeps only its hash. If you lose it, create a new key and revoke this one.</span>
          </div>
          <div className="secret-box">
            <code data-testid="new-api-key-secret">{created.secret}</code>
            <CopyButton text={created.secret} label="Copy key" />
          </div>
          <p className="small muted">
            Use it as a bearer token against the gateway at <code>{session.gateway_url}</code>:
          </p>
          <pre className="secret-box small">
            <code data-testid="new-api-key-snippet">{`curl "${session.gateway_url}/v1/models" -H "authorization: Bearer ${created.secret}"`}</code>
          </pre>
        </div>
      </Dialog>
    );
  }
  return (
    <FormDialog title="Create API key" submitLabel="Create key" pendingLabel="Creating…" form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} hint="What the key is for, e.g. “checkout service”" autoFocus />
      <SelectField label="Project" {...form.field("project_id")} options={props.projects.map((project) => ({ value: project.id, label: project.name }))} />
      {can("get /api/teams") && names.teams.length > 0 ? (
        <SelectField label="Team (optional)" {...form.field("team_id")} placeholder="No team" options={names.teams.map((team) => ({ value: team.id, label: team.name }))} hint="Team budgets count the spend of the team's keys." />
      ) : null}
      <TextField label="Expires (optional)" type="datetime-local" {...form.field("expires_at")} hint="Empty: never expires." />
      <TextAreaField label="Default metadata (optional)" {...form.field("default_metadata")} rows={2} monospace placeholder="team=checkout" hint="One key=value per line: recorded with every call of the key, filterable in Activity; a caller's X-Gateway-Metadata wins." />
    </FormDialog>
  );
}
