import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Invitation, Member } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { Dialog } from "../components/dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { CheckboxGroup, SelectField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { QueryView } from "../components/query-view.js";
import { type BadgeTone, StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useNames } from "../components/use-names.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatDateTime, formatRelativeTime } from "../format/format-date-time.js";
import { useSession } from "../session/session-context.js";

/** The roles a signed-in user may grant (only owners grant the owner role). */
function grantableRoles(role: string) {
  return [
    ...(role === "owner" ? [{ value: "owner", label: "Owner" }] : []),
    { value: "admin", label: "Administrator" },
    { value: "member", label: "Member" },
    { value: "viewer", label: "Viewer" },
  ];
}

const deliveryTone: Record<string, BadgeTone> = { sent: "success", failed: "danger", expired: "warning" };
const invitationTone: Record<Invitation["status"], BadgeTone> = { pending: "info", accepted: "success", revoked: "neutral", expired: "warning" };

/** Members of the organization and invitations (with email delivery status, resend and revoke). */
export function MembersScreen() {
  const { can, session } = useSession();
  const names = useNames();
  const members = useQuery(dashboardQueries.members());
  const invitations = useQuery({ ...dashboardQueries.invitations({ limit: 100 }), enabled: can("get /api/invitations") });
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [inviting, setInviting] = useState(false);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const remove = useApiMutation({
    mutationFn: (member: Member) => callApi(dashboardClient.DELETE("/api/members/{user_id}", { params: { path: { user_id: member.id } } })),
    invalidate: [["members"]],
    onSuccess: () => setRemoving(null),
  });
  const resend = useApiMutation({
    mutationFn: (invitation: Invitation) => callApi(dashboardClient.POST("/api/invitations/{invitation_id}/resend", { params: { path: { invitation_id: invitation.id } } })),
    invalidate: [["invitations"]],
  });
  const revoke = useApiMutation({
    mutationFn: (invitation: Invitation) => callApi(dashboardClient.DELETE("/api/invitations/{invitation_id}", { params: { path: { invitation_id: invitation.id } } })),
    invalidate: [["invitations"]],
    onSuccess: () => setRevoking(null),
  });
  const mayInvite = can("post /api/invitations");
  return (
    <>
      <PageHeader
        title="Members"
        description="People in the organization and their roles: owners do everything, administrators all but organization settings, members use keys and the playground of their projects, viewers read."
        actions={mayInvite ? <button type="button" className="button primary" onClick={() => setInviting(true)}>Invite member</button> : null}
      />
      <QueryView query={members} label="members">
        {(list) => (
          <div className="table-wrap">
            <table aria-label="Members">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Projects</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((member) => (
                  <tr key={member.id}>
                    <td>
                      {member.name}
                      {member.id === session.user.id ? <span className="small muted"> (you)</span> : null}
                    </td>
                    <td>{member.email}</td>
                    <td>
                      <StatusBadge tone={member.role === "owner" ? "info" : "neutral"}>{member.role_label}</StatusBadge>
                    </td>
                    <td className="small">{member.role === "owner" || member.role === "admin" ? <span className="muted">all</span> : member.project_ids.map(names.project).join(", ") || <span className="muted">none</span>}</td>
                    <td title={formatDateTime(member.last_login_at)}>{formatRelativeTime(member.last_login_at)}</td>
                    <td className="row-actions">
                      {can("patch /api/members/{user_id}") && (member.role !== "owner" || session.user.role === "owner") ? <button type="button" className="button small" onClick={() => setEditing(member)} aria-label={`Change ${member.name}`}>Change</button> : null}
                      {can("delete /api/members/{user_id}") && member.id !== session.user.id && (member.role !== "owner" || session.user.role === "owner") ? (
                        <button type="button" className="button small danger" onClick={() => setRemoving(member)} aria-label={`Remove ${member.name}`}>
                          Remove
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      {can("get /api/invitations") ? (
        <section className="stack" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitations</h2>
          <QueryView query={invitations} label="invitations">
            {(list) =>
              list.data.length === 0 ? (
                <div className="card">
                  <EmptyState title="No invitations" action={mayInvite ? <button type="button" className="button" onClick={() => setInviting(true)}>Invite someone</button> : null}>
                    Invited people get an email with a link to join.
                  </EmptyState>
                </div>
              ) : (
                <div className="table-wrap">
                  <table aria-label="Invitations">
                    <thead>
                      <tr>
                        <th scope="col">Email</th>
                        <th scope="col">Role</th>
                        <th scope="col">Status</th>
                        <th scope="col">Email delivery</th>
                        <th scope="col">Expires</th>
                        <th scope="col"><span className="visually-hidden">Actions</span></th>
                      </tr>
                    </thead>
                    <tbody>
                      {list.data.map((invitation) => (
                        <tr key={invitation.id} data-testid={`invitation-${invitation.email}`}>
                          <td>{invitation.email}</td>
                          <td>{invitation.role}</td>
                          <td>
                            <StatusBadge tone={invitationTone[invitation.status]}>{invitation.status}</StatusBadge>
                          </td>
                          <td>
                            {invitation.delivery_status ? <StatusBadge tone={deliveryTone[invitation.delivery_status] ?? "neutral"}>{invitation.delivery_status}</StatusBadge> : <span className="muted">not sent</span>}
                            {invitation.email_sent_at ? <div className="small muted">sent {formatRelativeTime(invitation.email_sent_at)}</div> : null}
                          </td>
                          <td>{formatDateTime(invitation.expires_at)}</td>
                          <td className="row-actions">
                            {(invitation.status === "pending" || invitation.status === "expired") && can("post /api/invitations/{invitation_id}/resend") ? (
                              <button type="button" className="button small" onClick={() => resend.mutate(invitation)} disabled={resend.isPending && resend.variables?.id === invitation.id} aria-label={`Resend the invitation to ${invitation.email}`}>
                                {resend.isPending && resend.variables?.id === invitation.id ? "Sending…" : "Resend"}
                              </button>
                            ) : null}
                            {invitation.status === "pending" && can("delete /api/invitations/{invitation_id}") ? (
                              <button type="button" className="button small danger" onClick={() => setRevoking(invitation)} aria-label={`Revoke the invitation to ${invitation.email}`}>
                                Revoke
                              </button>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )
            }
          </QueryView>
          {resend.error ? <ErrorNotice error={resend.error} title="Could not resend" /> : null}
          {resend.isSuccess ? (
            <div className="notice success" role="status">
              Invitation to {resend.data.email} {resend.data.delivery_status === "sent" ? "sent again" : "could not be delivered"}.
            </div>
          ) : null}
        </section>
      ) : null}
      {inviting ? <InviteDialog onClose={() => setInviting(false)} /> : null}
      {editing ? <MemberDialog member={editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this member?"
        confirmLabel="Remove member"
        onClose={() => { setRemoving(null); remove.reset(); }}
        onConfirm={() => removing && remove.mutate(removing)}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>
          <strong>{removing?.name}</strong> ({removing?.email}) loses access to {session.organization.name} and is signed out.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this invitation?"
        confirmLabel="Revoke invitation"
        onClose={() => { setRevoking(null); revoke.reset(); }}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        pending={revoke.isPending}
        error={revoke.error}
      >
        <p>The link sent to {revoking?.email} stops working.</p>
      </ConfirmDialog>
    </>
  );
}

function InviteDialog(props: { onClose: () => void }) {
  const { session } = useSession();
  const names = useNames();
  const [sent, setSent] = useState<Invitation | null>(null);
  const save = useApiMutation({ mutationFn: (body: any) => callApi(dashboardClient.POST("/api/invitations", { body })), invalidate: [["invitations"]] });
  const form = useSchemaForm({
    operation: "post /api/invitations",
    initial: { email: "", role: "member", project_ids: [] as string[] },
    toBody: (values) => ({ body: { email: values.email.trim(), role: values.role, project_ids: values.role === "member" || values.role === "viewer" ? values.project_ids : [] } }),
    send: save.mutateAsync,
    onSuccess: (invitation) => setSent(invitation as Invitation),
  });
  if (sent) {
    return (
      <Dialog
        open
        title="Invitation created"
        onClose={props.onClose}
        footer={
          <>
            <button type="button" className="button" onClick={() => { setSent(null); form.reset({ email: "", role: form.values.role, project_ids: form.values.project_ids }); }}>
              Invite another
            </button>
            <button type="button" className="button primary" onClick={props.onClose}>
              Done
            </button>
          </>
        }
      >
        {sent.delivery_status === "sent" ? (
          <div className="notice success" role="status">
            An email with the link went to <strong>{sent.email}</strong>. The link is valid until {formatDateTime(sent.expires_at)}.
          </div>
        ) : (
          <div className="notice warning" role="status">
            The email to <strong>{sent.email}</strong> could not be delivered. Check the mail settings, then resend it from the list.
          </div>
        )}
      </Dialog>
    );
  }
  return (
    <FormDialog title="Invite member" submitLabel="Send invitation" form={form} onClose={props.onClose}>
      <TextField label="Email" type="email" value={form.values.email} onChange={(value) => form.set("email", value)} error={form.errors.email} autoFocus />
      <SelectField label="Role" value={form.values.role} onChange={(value) => form.set("role", value)} error={form.errors.role} options={grantableRoles(session.user.role)} />
      {form.values.role === "member" || form.values.role === "viewer" ? (
        <CheckboxGroup legend="Projects" options={names.projects.map((project) => ({ value: project.id, label: project.name }))} values={form.values.project_ids} onChange={(projectIds) => form.set("project_ids", projectIds)} error={form.errorFor("project_ids")} hint="Members create keys and use the playground in these projects." />
      ) : null}
    </FormDialog>
  );
}

function MemberDialog(props: { member: Member; onClose: () => void }) {
  const { session } = useSession();
  const names = useNames();
  const save = useApiMutation({
    mutationFn: (body: any) => callApi(dashboardClient.PATCH("/api/members/{user_id}", { params: { path: { user_id: props.member.id } }, body })),
    invalidate: [["members"], ["session"]],
  });
  const form = useSchemaForm({
    operation: "patch /api/members/{user_id}",
    initial: { role: props.member.role as string, project_ids: props.member.project_ids },
    toBody: (values) => ({ body: { role: values.role, project_ids: values.project_ids } }),
    send: save.mutateAsync,
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={`Change ${props.member.name || props.member.email}`} submitLabel="Save" form={form} onClose={props.onClose}>
      <SelectField label="Role" value={form.values.role} onChange={(value) => form.set("role", value)} error={form.errors.role} options={grantableRoles(session.user.role)} />
      {form.values.role === "member" || form.values.role === "viewer" ? (
        <CheckboxGroup legend="Projects" options={names.projects.map((project) => ({ value: project.id, label: project.name }))} values={form.values.project_ids} onChange={(projectIds) => form.set("project_ids", projectIds)} error={form.errorFor("project_ids")} />
      ) : null}
    </FormDialog>
  );
}
