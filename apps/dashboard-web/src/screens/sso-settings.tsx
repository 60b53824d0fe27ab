import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { ApiError } from "../api/api-error.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ErrorNotice } from "../components/error-notice.js";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../components/fields.js";
import { PendingButton } from "../components/pending-button.js";
import { QueryView } from "../components/query-view.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import type { paths } from "../generated/dashboard-api.js";
import { useSession } from "../session/session-context.js";

type SsoConfiguration = NonNullable<paths["/api/sso-configuration"]["get"]["responses"][200]["content"]["application/json"]>;
type SsoBody = paths["/api/sso-configuration"]["put"]["requestBody"]["content"]["application/json"];
type Role = "owner" | "admin" | "member" | "viewer";

const roleOptions = [
  { value: "owner", label: "Owner" },
  { value: "admin", label: "Administrator" },
  { value: "member", label: "Member" },
  { value: "viewer", label: "Viewer" },
];

/** `group = value` lines, one mapping a line. */
function parseMappingLines(text: string): { group: string; value: string }[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const separator = line.lastIndexOf("=");
      return separator === -1 ? { group: line, value: "" } : { group: line.slice(0, separator).trim(), value: line.slice(separator + 1).trim() };
    });
}

const ssoQuery = { queryKey: ["sso-configuration"], queryFn: () => callApi(dashboardClient.GET("/api/sso-configuration")) };

/** Settings > Organization: the organization's OpenID Connect single sign-on, with a test run. */
export function SsoSettings() {
  const configuration = useQuery(ssoQuery);
  return (
    <section className="card stack" aria-labelledby="sso-title">
      <div>
        <h2 id="sso-title">Single sign-on</h2>
        <p className="small muted">Sign-in through your organization&apos;s OpenID Connect identity provider (Okta, Entra ID, Google, Keycloak…).</p>
      </div>
      <QueryView query={configuration} label="the single sign-on settings">
        {(data) => <SsoForm configuration={data ?? null} />}
      </QueryView>
      <SsoTestResult />
    </section>
  );
}

function SsoForm(props: { configuration: SsoConfiguration | null }) {
  const { can } = useSession();
  const editable = can("put /api/sso-configuration");
  const teams = useQuery({ ...dashboardQueries.teams(), enabled: editable });
  const projects = useQuery({ ...dashboardQueries.projects(), enabled: editable });
  const current = props.configuration;
  const teamName = (id: string) => teams.data?.data.find((team) => team.id === id)?.name ?? id;
  const projectName = (id: string) => projects.data?.data.find((project) => project.id === id)?.name ?? id;
  const [issuerUrl, setIssuerUrl] = useState(current?.issuer_url ?? "");
  const [clientId, setClientId] = useState(current?.client_id ?? "");
  const [method, setMethod] = useState<string>(current?.client_auth_method ?? "client_secret_basic");
  const [clientSecret, setClientSecret] = useState("");
  const [scopes, setScopes] = useState((current?.scopes ?? ["openid", "email", "profile"]).join(" "));
  const [domains, setDomains] = useState((current?.allowed_email_domains ?? []).join(", "));
  const [groupsClaim, setGroupsClaim] = useState(current?.groups_claim ?? "groups");
  const [roles, setRoles] = useState((current?.role_mappings ?? []).map((mapping) => `${mapping.group} = ${mapping.role}`).join("\n"));
  const [teamLines, setTeamLines] = useState("");
  const [projectLines, setProjectLines] = useState("");
  const [jit, setJit] = useState(current?.jit_provisioning ?? false);
  const [defaultRole, setDefaultRole] = useState<string>(current?.default_role ?? "member");
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  const [problem, setProblem] = useState<unknown>(null);
  const [testError, setTestError] = useState<unknown>(null);
  const [testing, setTesting] = useState(false);

  // Team and project mappings are shown by name once the names are loaded.
  useEffect(() => {
    if (current === null || teams.data === undefined) return;
    setTeamLines(current.team_mappings.map((mapping) => `${mapping.group} = ${teamName(mapping.team_id)}`).join("\n"));
  }, [teams.data, current]);
  useEffect(() => {
    if (current === null || projects.data === undefined) return;
    setProjectLines(current.project_mappings.map((mapping) => `${mapping.group} = ${projectName(mapping.project_id)}`).join("\n"));
  }, [projects.data, current]);

  const save = useApiMutation({
    mutationFn: (body: SsoBody) => callApi(dashboardClient.PUT("/api/sso-configuration", { body })),
    invalidate: [["sso-configuration"]],
  });

  function bodyOf(): SsoBody {
    const teamId = (name: string) => teams.data?.data.find((team) => team.name === name || team.id === name)?.id;
    const projectId = (name: string) => projects.data?.data.find((project) => project.name === name || project.id === name)?.id;
    const roleMappings = parseMappingLines(roles).map(({ group, value }) => {
      if (!roleOptions.some((option) => option.value === value)) throw new Error(`Role mapping "${group}": the role must be owner, admin, member or viewer.`);
      return { group, role: value as Role };
    });
    const teamMappings = parseMappingLines(teamLines).map(({ group, value }) => {
      const id = teamId(value);
      if (id === undefined) throw new Error(`Team mapping "${group}": no team named "${value}".`);
      return { group, team_id: id };
    });
    const projectMappings = parseMappingLines(projectLines).map(({ group, value }) => {
      const id = projectId(value);
      if (id === undefined) throw new Error(`Project mapping "${group}": no project named "${value}".`);
      return { group, project_id: id };
    });
    return {
      enabled,
      issuer_url: issuerUrl.trim(),
      client_id: clientId.trim(),
      client_auth_method: method as SsoBody["client_auth_method"],
      ...(clientSecret !== "" && method !== "private_key_jwt" ? { client_secret: clientSecret } : {}),
      scopes: scopes.split(/\s+/).filter((scope) => scope !== ""),
      allowed_email_domains: domains.split(/[\s,]+/).filter((domain) => domain !== ""),
      groups_claim: groupsClaim.trim(),
      role_mappings: roleMappings,
      team_mappings: teamMappings,
      project_mappings: projectMappings,
      jit_provisioning: jit,
      default_role: defaultRole as Role,
    };
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setProblem(null);
    try {
      await save.mutateAsync(bodyOf());
      setClientSecret("");
    } catch (error) {
      setProblem(error);
    }
  }

  async function runTest() {
    setTestError(null);
    setTesting(true);
    try {
      const started = await callApi(dashboardClient.POST("/api/sso-configuration/test"));
      window.location.assign(started.authorization_url);
    } catch (error) {
      setTestError(error);
      setTesting(false);
    }
  }

  return (
    <form className="stack" onSubmit={(event) => void submit(event)} noValidate aria-label="Single sign-on settings">
      {current !== null ? (
        <p className="small muted">
          Register this redirect URI at the provider: <code>{current.redirect_uri}</code>.{" "}
          {current.owner_signed_in_at ? "An owner has signed in through it: the organization may require single sign-on." : "No owner has signed in through it yet: single sign-on cannot be required until one has."}
        </p>
      ) : null}
      <div className="form-row">
        <TextField label="Issuer URL" type="url" value={issuerUrl} onChange={setIssuerUrl} placeholder="https://acme.okta.com/oauth2/default" disabled={!editable} />
        <TextField label="Client ID" value={clientId} onChange={setClientId} disabled={!editable} />
      </div>
      <div className="form-row">
        <SelectField
          label="Client authentication"
          value={method}
          onChange={setMethod}
          disabled={!editable}
          options={[
            { value: "client_secret_basic", label: "Client secret (HTTP Basic)" },
            { value: "client_secret_post", label: "Client secret (form post)" },
            { value: "private_key_jwt", label: "Private key JWT (key generated here)" },
          ]}
        />
        {method === "private_key_jwt" ? null : (
          <TextField
            label="Client secret"
            type="password"
            value={clientSecret}
            onChange={setClientSecret}
            disabled={!editable}
            hint={current?.has_client_secret ? "Stored encrypted; leave empty to keep it." : "Stored encrypted, never shown again."}
          />
        )}
      </div>
      {current?.public_jwk ? (
        <TextAreaField label="Public key to register at the provider (JWK)" value={JSON.stringify(current.public_jwk, null, 2)} onChange={() => undefined} monospace rows={6} />
      ) : null}
      <div className="form-row">
        <TextField label="Scopes" value={scopes} onChange={setScopes} hint="Space-separated; add the scope that carries the groups claim if your provider needs one." disabled={!editable} />
        <TextField label="Allowed email domains" value={domains} onChange={setDomains} hint="Comma-separated; the sign-in page finds this organization from them." disabled={!editable} />
      </div>
      <div className="form-row">
        <TextField label="Groups claim" value={groupsClaim} onChange={setGroupsClaim} disabled={!editable} />
        <SelectField label="Default role" value={defaultRole} onChange={setDefaultRole} options={roleOptions} disabled={!editable} hint="For new members whose groups map to no role." />
      </div>
      <TextAreaField label="Groups to roles" value={roles} onChange={setRoles} monospace rows={3} placeholder="gateway-admins = admin" hint="One `group = role` a line. With any line, the role follows the groups at every sign-in." />
      <div className="form-row">
        <TextAreaField label="Groups to teams" value={teamLines} onChange={setTeamLines} monospace rows={3} placeholder="platform-engineers = Platform" hint="One `group = team name` a line." />
        <TextAreaField label="Groups to projects" value={projectLines} onChange={setProjectLines} monospace rows={3} placeholder="support = Support bot" hint="One `group = project name` a line." />
      </div>
      <CheckboxField label="Create members at their first sign-in (just-in-time provisioning)" checked={jit} onChange={setJit} disabled={!editable} hint="Off: people need an invitation first." />
      <CheckboxField label="Single sign-on switched on" checked={enabled} onChange={setEnabled} disabled={!editable} />
      {problem ? <ErrorNotice error={problem} title="Could not save single sign-on" /> : null}
      {save.isSuccess && problem === null ? <div className="notice success" role="status">Saved.</div> : null}
      {testError ? <ErrorNotice error={testError} title="Could not start the test" /> : null}
      {editable ? (
        <div className="form-row">
          <PendingButton type="submit" className="button primary" pending={save.isPending} pendingLabel="Saving…">
            Save single sign-on
          </PendingButton>
          {current !== null ? (
            <PendingButton type="button" className="button" pending={testing} pendingLabel="Opening the provider…" onClick={() => void runTest()}>
              Test sign-in
            </PendingButton>
          ) : null}
        </div>
      ) : (
        <p className="small muted">Only owners change single sign-on.</p>
      )}
    </form>
  );
}

/** After a test run the provider sends the browser back here with `?sso_test=<id>` (or `?sso_error=`). */
function SsoTestResult() {
  const [parameters] = useSearchParams();
  const testId = parameters.get("sso_test");
  const failure = parameters.get("sso_error");
  const result = useQuery({
    queryKey: ["sso-test", testId],
    enabled: testId !== null,
    queryFn: () => callApi(dashboardClient.GET("/api/sso-configuration/tests/{test_id}", { params: { path: { test_id: testId! } } })),
  });
  if (failure !== null) {
    const error = new ApiError({ status: 0, code: failure, message: parameters.get("message") ?? "The test sign-in failed.", requestId: parameters.get("request_id") });
    return <ErrorNotice error={error} title="The test sign-in failed" />;
  }
  if (testId === null) return null;
  if (result.error) return <ErrorNotice error={result.error} title="Could not read the test result" />;
  if (result.data === undefined) return <p className="small muted">Reading the test result…</p>;
  const data = result.data as { email?: string; role?: string; groups?: string[]; claims?: Record<string, unknown> };
  return (
    <div className="notice success stack" role="status" aria-label="Test sign-in result">
      <strong className="notice-title">The test sign-in worked</strong>
      <span>
        {data.email} would sign in as <strong>{data.role}</strong>
        {data.groups && data.groups.length > 0 ? ` (groups: ${data.groups.join(", ")})` : " (no groups received)"}.
      </span>
      <pre className="claims" data-testid="sso-claims">{JSON.stringify(data.claims ?? {}, null, 2)}</pre>
    </div>
  );
}
