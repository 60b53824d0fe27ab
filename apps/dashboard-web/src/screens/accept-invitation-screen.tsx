import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { ResponseBody } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { ErrorNotice } from "../components/error-notice.js";
import { TextField } from "../components/fields.js";
import { PendingButton } from "../components/pending-button.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { useDocumentTitle } from "../layout/use-document-title.js";

type Acceptance = ResponseBody<"/v1/auth/invitations/accept", "post">;

/**
 * The page of an invitation link (`/invitations/accept?token=...`): a new person chooses a name
 * and password; someone with an account confirms with their password. Then they sign in.
 */
export function AcceptInvitationScreen() {
  const [parameters] = useSearchParams();
  const token = parameters.get("token") ?? "";
  const [accepted, setAccepted] = useState<Acceptance | null>(null);
  const form = useSchemaForm({
    operation: "post /v1/auth/invitations/accept",
    initial: { name: "", password: "" },
    toBody: (values) => ({ body: { token, password: values.password, ...(values.name.trim() ? { name: values.name.trim() } : {}) } }),
    send: (body) => callApi(dashboardClient.POST("/v1/auth/invitations/accept", { body })),
    onSuccess: setAccepted,
  });
  useDocumentTitle(accepted ? "Invitation accepted" : "Accept the invitation");
  return (
    <div className="auth-page">
      <main className="card auth-card" id="content">
        {accepted ? (
          <div className="stack">
            <h1>Welcome to {accepted.organization.name}</h1>
            <div className="notice success" role="status">
              {accepted.account_created ? "Your account was created." : "The organization was added to your account."} You joined as{" "}
              <strong>{accepted.invitation.role}</strong>.
            </div>
            <Link className="button primary" to={`/login?email=${encodeURIComponent(accepted.user.email)}&organization_id=${encodeURIComponent(accepted.organization.id)}`}>
              Sign in
            </Link>
          </div>
        ) : token === "" ? (
          <div className="stack">
            <h1>Invitation</h1>
            <div className="notice error" role="alert">
              This link has no invitation token. Open the link from the invitation email again.
            </div>
          </div>
        ) : (
          <form className="stack" onSubmit={form.submit} noValidate>
            <div>
              <h1>Accept the invitation</h1>
              <p className="muted">New here? Choose your name and a password (8 characters or more). Already have an account? Enter its password.</p>
            </div>
            <TextField label="Your name" hint="Needed for a new account" autoComplete="name" {...form.field("name")} autoFocus />
            <TextField label="Password" type="password" autoComplete="new-password" {...form.field("password")} />
            {form.formError ? <ErrorNotice error={form.formError} title="Could not accept the invitation" /> : null}
            <PendingButton type="submit" className="button primary" pending={form.pending} pendingLabel="Accepting…">
              Accept invitation
            </PendingButton>
          </form>
        )}
      </main>
    </div>
  );
}
