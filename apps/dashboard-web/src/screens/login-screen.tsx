import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { ApiError, isApiError } from "../api/api-error.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { ErrorNotice } from "../components/error-notice.js";
import { TextField } from "../components/fields.js";
import { PendingButton } from "../components/pending-button.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { useDocumentTitle } from "../layout/use-document-title.js";
import { clearSessionExpired } from "../session/session-expiry.js";
import { sessionQueryKey } from "../session/use-session-query.js";

/** An organization whose single sign-on accepts the email's domain (`POST /v1/auth/sso/discover`). */
interface SsoOrganization {
  name: string;
  slug: string;
  sso_required: boolean;
  start_url: string;
}

/** Where single sign-on failed, from the dashboard's redirect (`?sso_error=&message=&request_id=`). */
function ssoFailureOf(parameters: URLSearchParams): ApiError | null {
  const code = parameters.get("sso_error");
  if (code === null) return null;
  return new ApiError({ status: 0, code, message: parameters.get("message") ?? "Single sign-on failed.", requestId: parameters.get("request_id") });
}

interface OrganizationChoice {
  id: string;
  name: string;
  role: string;
  authentication_required: "password" | "sso";
}

/**
 * Sign-in: email and password, or single sign-on found from the email's domain; an account in
 * several organizations then picks one. For an organization that requires single sign-on the
 * password form is hidden (owners named for break-glass can show it).
 */
export function LoginScreen() {
  const [parameters] = useSearchParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [choices, setChoices] = useState<OrganizationChoice[] | null>(null);
  const [organizationId, setOrganizationId] = useState(parameters.get("organization_id") ?? "");
  const from = (location.state as { from?: string } | null)?.from ?? "/";
  const [ssoOrganizations, setSsoOrganizations] = useState<SsoOrganization[] | null>(null);
  const [ssoPending, setSsoPending] = useState(false);
  const [ssoError, setSsoError] = useState<unknown>(() => ssoFailureOf(parameters));
  const [breakGlass, setBreakGlass] = useState(false);
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
  const ssoRequiredError = isApiError(form.formError) && form.formError.code === "sso_required" ? String(form.formError.details.sso_start_url ?? "") : "";
  // An email of an organization that requires single sign-on: the password form is for break-glass owners only.
  const passwordHidden = !breakGlass && (ssoOrganizations ?? []).some((organization) => organization.sso_required);

  async function discover(): Promise<SsoOrganization[] | null> {
    const email = form.values.email.trim();
    if (!email.includes("@")) return null;
    const found = await callApi(dashboardClient.POST("/v1/auth/sso/discover", { body: { email } }));
    setSsoOrganizations(found.organizations);
    return found.organizations;
  }

  async function continueWithSso() {
    setSsoError(null);
    if (!form.values.email.trim().includes("@")) {
      setSsoError(new Error("Enter your work email first: it tells which organization's identity provider to use."));
      return;
    }
    setSsoPending(true);
    try {
      const organizations = (await discover()) ?? [];
      if (organizations.length === 1) {
        window.location.assign(organizations[0]!.start_url);
        return;
      }
      if (organizations.length === 0) setSsoError(new Error("No organization signs in with single sign-on for this email domain: use your password."));
    } catch (error) {
      setSsoError(error);
    } finally {
      setSsoPending(false);
    }
  }
  return (
    <div className="auth-page">
      <main className="card auth-card" id="content">
        <form className="stack" onSubmit={form.submit} noValidate aria-labelledby="login-title">
          <div>
            <h1 id="login-title">Sign in</h1>
            <p className="muted">AI Gateway dashboard</p>
          </div>
          <div onBlur={() => void discover().catch(() => undefined)}>
            <TextField label="Email" type="email" autoComplete="username" {...form.field("email")} autoFocus />
          </div>
          {passwordHidden ? (
            <div className="notice info" role="status">
              <span>Your organization signs in through single sign-on.</span>
              <span>
                <button type="button" className="button link small" onClick={() => setBreakGlass(true)}>
                  Owner emergency sign-in with a password
                </button>
              </span>
            </div>
          ) : (
            <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
          )}
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
          {ssoRequiredError !== "" ? (
            <a className="button primary" href={ssoRequiredError}>
              Continue with single sign-on
            </a>
          ) : null}
          {passwordHidden ? null : (
            <PendingButton type="submit" className="button primary" pending={form.pending} pendingLabel="Signing in…">
              Sign in
            </PendingButton>
          )}
        </form>
        <div className="stack sso-section">
          <p className="small muted">Or</p>
          <PendingButton type="button" className="button" pending={ssoPending} pendingLabel="Finding your identity provider…" onClick={() => void continueWithSso()}>
            Continue with single sign-on
          </PendingButton>
          {ssoOrganizations !== null && ssoOrganizations.length > 1 ? (
            <ul className="plain-list">
              {ssoOrganizations.map((organization) => (
                <li key={organization.slug}>
                  <a href={organization.start_url}>Sign in to {organization.name} with single sign-on</a>
                </li>
              ))}
            </ul>
          ) : null}
          {ssoError ? <ErrorNotice error={ssoError} title="Single sign-on did not work" /> : null}
        </div>
      </main>
    </div>
  );
}
