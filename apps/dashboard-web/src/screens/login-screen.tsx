import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { isApiError } from "../api/api-error.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { ErrorNotice } from "../components/error-notice.js";
import { TextField } from "../components/fields.js";
import { PendingButton } from "../components/pending-button.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { useDocumentTitle } from "../layout/use-document-title.js";
import { clearSessionExpired } from "../session/session-expiry.js";
import { sessionQueryKey } from "../session/use-session-query.js";

interface OrganizationChoice {
  id: string;
  name: string;
  role: string;
  authentication_required: "password" | "sso";
}

/** Sign-in: email and password; an account in several organizations then picks one. */
export function LoginScreen() {
  const [parameters] = useSearchParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [choices, setChoices] = useState<OrganizationChoice[] | null>(null);
  const [organizationId, setOrganizationId] = useState(parameters.get("organization_id") ?? "");
  const from = (location.state as { from?: string } | null)?.from ?? "/";
  useDocumentTitle("Sign in");
  const form = useSchemaForm({
    operation: "post /v1/auth/login",
    initial: { email: parameters.get("email") ?? "", password: "" },
    toBody: (values) => ({ body: { email: values.email.trim(), password: values.password, ...(organizationId ? { organization_id: organizationId } : {}) } }),
    send: (body) => callApi(dashboardClient.POST("/v1/auth/login", { body })),
    onSuccess: (session) => {
      clearSessionExpired();
      queryClient.setQueryData(sessionQueryKey, session);
      navigate(from === "/login" ? "/" : from, { replace: true });
    },
    onError: (error) => {
      if (!isApiError(error) || error.code !== "organization_selection_required") return;
      const organizations = (error.details.organizations ?? []) as OrganizationChoice[];
      setChoices(organizations);
      setOrganizationId((current) => current || (organizations.find((organization) => organization.authentication_required === "password")?.id ?? ""));
    },
  });
  const selection = isApiError(form.formError) && form.formError.code === "organization_selection_required";
  return (
    <div className="auth-page">
      <main className="card auth-card" id="content">
        <form className="stack" onSubmit={form.submit} noValidate aria-labelledby="login-title">
          <div>
            <h1 id="login-title">Sign in</h1>
            <p className="muted">AI Gateway dashboard</p>
          </div>
          <TextField label="Email" type="email" autoComplete="username" {...form.field("email")} autoFocus />
          <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
          {choices && choices.length > 0 ? (
            <fieldset>
              <legend>Organization</legend>
              <p className="small muted">Your account belongs to several organizations. Pick one.</p>
              {choices.map((organization) => (
                <label key={organization.id} className="checkbox">
                  <input
                    type="radio"
                    name="organization"
                    value={organization.id}
                    checked={organizationId === organization.id}
                    disabled={organization.authentication_required === "sso"}
                    onChange={() => setOrganizationId(organization.id)}
                  />
                  {organization.name} <span className="muted small">({organization.role}{organization.authentication_required === "sso" ? ", single sign-on only" : ""})</span>
                </label>
              ))}
            </fieldset>
          ) : null}
          {form.formError && !selection ? <ErrorNotice error={form.formError} title="Could not sign in" /> : null}
          <PendingButton type="submit" className="button primary" pending={form.pending} pendingLabel="Signing in…">
            Sign in
          </PendingButton>
        </form>
      </main>
    </div>
  );
}
