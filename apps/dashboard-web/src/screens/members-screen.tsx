import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import type { Invitation, InvitationWithLink, Member } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { CopyButton } from "../components/copy-button.js";
import { DataTable } from "../components/data-table.js";
import { Dialog } from "../components/dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { CheckboxGroup, SelectField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { QueryView } from "../components/query-view.js";
import { ResourceTable } from "../components/resource-table.js";
import { type BadgeTone, StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
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

/** Why an invitation email was not delivered, in words. */
const deliveryFailureText: Record<NonNullable<Invitation["delivery_failure"]>, string> = {
  no_mail_transport: "no mail transport configured",
  recipient_rejected: "the mail server refused the address",
  smtp_failed: "the mail server could not be reached or refused the message",
};

/**
 * What happened to the email of a created or resent invitation, and its accept link with a copy
 * button (the link is in this answer only: owners and admins see it, nobody else).
 */
function InvitationOutcome(props: { invitation: InvitationWithLink; sentText: ReactNode }) {
  const { invitation } = props;
  return (
    <div className="stack">
      {invitation.delivery_status === "sent" ? (
        <div className="notice success" role="status">
          {props.sentText}
        </div>
      ) : invitation.delivery_failure === "no_mail_transport" ? (
        <div className="notice warning" role="status">
          <strong>No email was sent to {invitation.email}.</strong>
          <span>This dashboard has no mail transport (SMTP_URL is not set). Copy the link below and send it to them yourself.</span>
        </div>
      ) : (
        <div className="notice warning" role="status">
          <strong>The email to {invitation.email} could not be delivered</strong>
          <span>
            ({invitation.delivery_failure ? deliveryFailureText[invitation.delivery_failure] : "not delivered"}). Copy the link below and send it to them yourself, or check the mail
            settings and resend.
          </span>
        </div>
      )}
      <div className="secret-box">
        <code data-testid="invitation-accept-url">{invitation.accept_url}</code>
        <CopyButton text={invitation.accept_url} label="Copy link" />
      </div>
      <p className="small muted">The link is valid until {formatDateTime(invitation.expires_at)}. It is shown only now; resending makes a new one and the old one stops working.</p>
    </div>
  );
}
const invitationTone: Record<Invitation["status"], BadgeTone> = { pending: "info", accepted: "success", revoked: "neutral", expired: "warning" };

/** Members of the organization and invitations (with email delivery status, resend and revoke). */
export function MembersScreen() {
  const { can, session } = useSession();
  const names = useNames();
  const members = useQuery(dashboardQueries.members());
  const invitations = useQuery({ ...dashboardQueries.invitations({ limit: 100 }), enabled: can("get /api/invitations") });
  const editor = useEditDialog<Member>();
  const [inviting, setInviting] = useState(false);
  const remove = useConfirmedMutation({
    mutationFn: (member: Member) => callApi(dashboardClient.DELETE("/api/members/{user_id}", { params: { path: { user_id: member.id } } })),
    invalidate: [["members"]],
  });
  const resend = useApiMutation({
    mutationFn: (invitation: Invitation) => callApi(dashboardClient.POST("/api/invitations/{invitation_id}/resend", { params: { path: { invitation_id: invitation.id } } })),
    invalidate: [["invitations"]],
  });
  const revoke = useConfirmedMutation({
    mutationFn: (invitation: Invitation) => callApi(dashboardClient.DELETE("/api/invitations/{invitation_id}", { params: { path: { invitation_id: invitation.id } } })),
    invalidate: [["invitations"]],
  });
  // Only owners change or remove owners.
  const mayManage = (member: Member) => member.role !== "owner" || session.user.role === "owner";
  return (
    <>
      <PageHeader
        title="Members"
        description="People in the organization and their roles: owners do everything, administrators all but organization settings, members use keys and the playground of their projects, viewers read."
        actions={<ActionButton operation="post /api/invitations" tone="primary" onClick={() => setInviting(true)}>Invite member</ActionButton>}
      />
      <QueryView query={members} label="members">
        {(list) => (
          <DataTable label="Members" columns={["Name", "Email", "Role", "Projects", "Last sign-in"]} actions>
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
                  <ActionButton operation="patch /api/members/{user_id}" when={mayManage(member)} small onClick={() => editor.edit(member)} aria-label={`Change ${member.name}`}>
                    Change
                  </ActionButton>
                  <ActionButton operation="delete /api/members/{user_id}" when={member.id !== session.user.id && mayManage(member)} small tone="danger" onClick={() => remove.ask(member)} aria-label={`Remove ${member.name}`}>
                    Remove
                  </ActionButton>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
      {can("get /api/invitations") ? (
        <section className="stack" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitations</h2>
          <ResourceTable
            query={invitations}
            label="invitations"
            empty={
              <EmptyState title="No invitations" action={<ActionButton operation="post /api/invitations" onClick={() => setInviting(true)}>Invite someone</ActionButton>}>
                Invited people get an email with a link to join.
              </EmptyState>
            }
            tableLabel="Invitations"
            columns={["Email", "Role", "Status", "Email delivery", "Expires"]}
            actions
          >
            {(invitation) => (
              <tr key={invitation.id} data-testid={`invitation-${invitation.email}`}>
                <td>{invitation.email}</td>
                <td>{invitation.role}</td>
                <td>
                  <StatusBadge tone={invitationTone[invitation.status]}>{invitation.status}</StatusBadge>
                </td>
                <td>
                  {invitation.delivery_status ? <StatusBadge tone={deliveryTone[invitation.delivery_status] ?? "neutral"}>{invitation.delivery_status}</StatusBadge> : <span className="muted">not sent</span>}
                  {invitation.delivery_status === "failed" && invitation.delivery_failure ? <div className="small muted">{deliveryFailureText[invitation.delivery_failure]}</div> : null}
                  {invitation.email_sent_at ? <div className="small muted">sent {formatRelativeTime(invitation.email_sent_at)}</div> : null}
                </td>
                <td>{formatDateTime(invitation.expires_at)}</td>
                <td className="row-actions">
                  <ActionButton
                    operation="post /api/invitations/{invitation_id}/resend"
                    when={invitation.status === "pending" || invitation.status === "expired"}
                    small
                    onClick={() => resend.mutate(invitation)}
                    disabled={resend.isPending && resend.variables?.id === invitation.id}
                    aria-label={`Resend the invitation to ${invitation.email}`}
                  >
                    {resend.isPending && resend.variables?.id === invitation.id ? "Sending…" : "Resend"}
                  </ActionButton>
                  <ActionButton operation="delete /api/invitations/{invitation_id}" when={invitation.status === "pending"} small tone="danger" onClick={() => revoke.ask(invitation)} aria-label={`Revoke the invitation to ${invitation.email}`}>
                    Revoke
                  </ActionButton>
                </td>
              </tr>
            )}
          </ResourceTable>
          {resend.error ? <ErrorNotice error={resend.error} title="Could not resend" /> : null}
          {resend.isSuccess ? (
            <section className="card" aria-label={`New link for ${resend.data.email}`} data-testid="resent-invitation">
              <InvitationOutcome invitation={resend.data} sentText={<>Invitation to <strong>{resend.data.email}</strong> sent again.</>} />
            </section>
          ) : null}
        </section>
      ) : null}
      {inviting ? <InviteDialog onClose={() => setInviting(false)} /> : null}
      {editor.item ? <MemberDialog member={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Remove this member?" confirmLabel="Remove member">
        <p>
          <strong>{remove.item?.name}</strong> ({remove.item?.email}) loses access to {session.organization.name} and is signed out.
        </p>
      </ConfirmDialog>
      <ConfirmDialog {...revoke.dialog} title="Revoke this invitation?" confirmLabel="Revoke invitation">
        <p>The link sent to {revoke.item?.email} stops working.</p>
      </ConfirmDialog>
    </>
  );
}

function InviteDialog(props: { onClose: () => void }) {
  const { session } = useSession();
  const names = useNames();
  const [sent, setSent] = useState<InvitationWithLink | null>(null);
  const form = useSchemaForm({
    operation: "post /api/invitations",
    initial: { email: "", role: "member", project_ids: [] as string[] },
    toBody: (values) => ({ body: { email: values.email.trim(), role: values.role, project_ids: values.role === "member" || values.role === "viewer" ? values.project_ids : [] } }),
    send: (body) => callApi(dashboardClient.POST("/api/invitations", { body })),
    invalidate: [["invitations"]],
    onSuccess: (invitation) => setSent(invitation),
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
        <InvitationOutcome invitation={sent} sentText={<>An email with the link went to <strong>{sent.email}</strong>.</>} />
      </Dialog>
    );
  }
  return (
    <FormDialog title="Invite member" submitLabel="Send invitation" form={form} onClose={props.onClose}>
      <TextField label="Email" type="email" {...form.field("email")} autoFocus />
      <SelectField label="Role" {...form.field("role")} options={grantableRoles(session.user.role)} />
      {form.values.role === "member" || form.values.role === "viewer" ? (
        <CheckboxGroup legend="Projects" options={names.projects.map((project) => ({ value: project.id, label: project.name }))} values={form.values.project_ids} onChange={(projectIds) => form.set("project_ids", projectIds)} error={form.errorFor("project_ids")} hint="Members create keys and use the playground in these projects." />
      ) : null}
    </FormDialog>
  );
}

function MemberDialog(props: { member: Member; onClose: () => void }) {
  const { session } = useSession();
  const names = useNames();
  const form = useSchemaForm({
    operation: "patch /api/members/{user_id}",
    initial: { role: props.member.role as string, project_ids: props.member.project_ids },
    toBody: (values) => ({ body: { role: values.role, project_ids: values.project_ids } }),
    send: (body) => callApi(dashboardClient.PATCH("/api/members/{user_id}", { params: { path: { user_id: props.member.id } }, body })),
    invalidate: [["members"], ["session"]],
    onSuccess: props.onClose,
  });
  return (
    <FormDialog title={`Change ${props.member.name || props.member.email}`} submitLabel="Save" form={form} onClose={props.onClose}>
      <SelectField label="Role" {...form.field("role")} options={grantableRoles(session.user.role)} />
      {form.values.role === "member" || form.values.role === "viewer" ? (
        <CheckboxGroup legend="Projects" options={names.projects.map((project) => ({ value: project.id, label: project.name }))} values={form.values.project_ids} onChange={(projectIds) => form.set("project_ids", projectIds)} error={form.errorFor("project_ids")} />
      ) : null}
    </FormDialog>
  );
}
