import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Role, Team } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { DataTable } from "../components/data-table.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { SelectField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { QueryView } from "../components/query-view.js";
import { ResourceList } from "../components/resource-list.js";
import { StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useNames } from "../components/use-names.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { useSession } from "../session/session-context.js";

const roleOptions = [
  { value: "owner", label: "Owner" },
  { value: "admin", label: "Administrator" },
  { value: "member", label: "Member" },
  { value: "viewer", label: "Viewer" },
];

/** Teams: members get at least the team's role; team budgets cover the team's keys. */
export function TeamsScreen() {
  const teams = useQuery(dashboardQueries.teams());
  const editor = useEditDialog<Team>();
  const [open, setOpen] = useState<string | null>(null);
  const remove = useConfirmedMutation({
    mutationFn: (team: Team) => callApi(dashboardClient.DELETE("/api/teams/{team_id}", { params: { path: { team_id: team.id } } })),
    invalidate: [["teams"]],
  });
  return (
    <>
      <PageHeader
        title="Teams"
        description="A team gives its members at least its role, and team budgets count the spend of the team's API keys."
        actions={<ActionButton operation="post /api/teams" tone="primary" onClick={editor.create}>Create team</ActionButton>}
      />
      <ResourceList
        query={teams}
        label="teams"
        empty={<EmptyState title="No teams yet" action={<ActionButton operation="post /api/teams" tone="primary" onClick={editor.create}>Create a team</ActionButton>} />}
      >
        {(items) =>
          items.map((team) => (
            <section className="card" key={team.id} aria-label={`Team ${team.name}`}>
              <div className="card-header">
                <h2>
                  {team.name} <StatusBadge>{team.default_role}</StatusBadge> <span className="muted small">{team.member_count} members</span>
                </h2>
                <div className="actions">
                  <button type="button" className="button small" aria-expanded={open === team.id} onClick={() => setOpen(open === team.id ? null : team.id)}>
                    {open === team.id ? "Hide members" : "Members"}
                  </button>
                  <ActionButton operation="patch /api/teams/{team_id}" small onClick={() => editor.edit(team)}>Edit</ActionButton>
                  <ActionButton operation="delete /api/teams/{team_id}" small tone="danger" onClick={() => remove.ask(team)}>Delete</ActionButton>
                </div>
              </div>
              {open === team.id ? <TeamMembers team={team} /> : null}
            </section>
          ))
        }
      </ResourceList>
      {editor.open ? <TeamDialog team={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this team?" confirmLabel="Delete team">
        <p>
          Members of <strong>{remove.item?.name}</strong> keep their own organization role.
        </p>
      </ConfirmDialog>
    </>
  );
}

function TeamMembers(props: { team: Team }) {
  const { can } = useSession();
  const names = useNames();
  const members = useQuery(dashboardQueries.teamMembers(props.team.id));
  const [userId, setUserId] = useState("");
  const [role, setRole] = useState("");
  const invalidate = [["teams"]] as const;
  const add = useApiMutation({
    mutationFn: () => callApi(dashboardClient.PUT("/api/teams/{team_id}/members/{user_id}", { params: { path: { team_id: props.team.id, user_id: userId } }, body: { role: role === "" ? null : (role as Role) } })),
    invalidate,
    onSuccess: () => setUserId(""),
  });
  const remove = useApiMutation({
    mutationFn: (memberId: string) => callApi(dashboardClient.DELETE("/api/teams/{team_id}/members/{user_id}", { params: { path: { team_id: props.team.id, user_id: memberId } } })),
    invalidate,
  });
  const mayChange = can("put /api/teams/{team_id}/members/{user_id}");
  return (
    <QueryView query={members} label="team members">
      {(list) => {
        const inTeam = new Set(list.data.map((member) => member.user_id));
        return (
          <div className="stack">
            {list.data.length === 0 ? (
              <p className="muted">No members yet.</p>
            ) : (
              <DataTable label={`Members of ${props.team.name}`} columns={["Name", "Email", "Team role"]} actions>
                {list.data.map((member) => (
                  <tr key={member.user_id}>
                    <td>{member.name}</td>
                    <td>{member.email}</td>
                    <td>
                      {member.role} {member.role_is_default ? <span className="small muted">(team default)</span> : null}
                    </td>
                    <td className="row-actions">
                      <ActionButton operation="delete /api/teams/{team_id}/members/{user_id}" small tone="danger" onClick={() => remove.mutate(member.user_id)} aria-label={`Remove ${member.name} from ${props.team.name}`}>
                        Remove
                      </ActionButton>
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
            {mayChange ? (
              <form
                className="filters"
                onSubmit={(event) => {
                  event.preventDefault();
                  if (userId) add.mutate();
                }}
              >
                <SelectField label="Add member" value={userId} onChange={setUserId} placeholder="Choose a member…" options={names.members.filter((member) => !inTeam.has(member.id)).map((member) => ({ value: member.id, label: `${member.name || member.email} (${member.email})` }))} />
                <SelectField label="Team role" value={role} onChange={setRole} placeholder={`Team default (${props.team.default_role})`} options={roleOptions} />
                <button type="submit" className="button" disabled={!userId || add.isPending}>
                  Add
                </button>
              </form>
            ) : null}
            {add.error ? <ErrorNotice error={add.error} /> : null}
            {remove.error ? <ErrorNotice error={remove.error} /> : null}
          </div>
        );
      }}
    </QueryView>
  );
}

function TeamDialog(props: { team: Team | null; onClose: () => void }) {
  const form = useSchemaForm({
    operation: props.team ? "patch /api/teams/{team_id}" : "post /api/teams",
    initial: { name: props.team?.name ?? "", default_role: props.team?.default_role ?? "member" },
    toBody: (values) => ({ body: { name: values.name.trim(), default_role: values.default_role } }),
    send: (body) => (props.team ? callApi(dashboardClient.PATCH("/api/teams/{team_id}", { params: { path: { team_id: props.team.id } }, body })) : callApi(dashboardClient.POST("/api/teams", { body }))),
    invalidate: [["teams"]],
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={props.team ? "Edit team" : "Create team"} submitLabel={props.team ? "Save" : "Create team"} form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} autoFocus />
      <SelectField label="Default role of members" value={form.values.default_role} onChange={(value) => form.set("default_role", value as typeof form.values.default_role)} error={form.errors.default_role} options={roleOptions} />
    </FormDialog>
  );
}
