import { useQuery } from "@tanstack/react-query";
import type { Organization } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ErrorNotice } from "../components/error-notice.js";
import { SelectField, TextField } from "../components/fields.js";
import { PageHeader } from "../components/page-header.js";
import { PendingButton } from "../components/pending-button.js";
import { QueryView } from "../components/query-view.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatDateTime } from "../format/format-date-time.js";
import { useSession } from "../session/session-context.js";
import { SsoSettings } from "./sso-settings.js";

/** The organization: its name, slug and sign-in rule (owners change them). */
export function OrganizationScreen() {
  const organization = useQuery(dashboardQueries.organization());
  return (
    <>
      <PageHeader title="Organization" description="Settings of the organization you are signed in to." />
      <QueryView query={organization} label="the organization">
        {(data) => <OrganizationForm organization={data} />}
      </QueryView>
      <SsoSettings />
    </>
  );
}

function OrganizationForm(props: { organization: Organization }) {
  const { can } = useSession();
  const editable = can("patch /api/organization");
  const save = useApiMutation({
    mutationFn: (body: { name: string; authentication_required: "password" | "sso" }) => callApi(dashboardClient.PATCH("/api/organization", { body })),
    invalidate: [["organization"], ["session"]],
  });
  const form = useSchemaForm({
    operation: "patch /api/organization",
    initial: { name: props.organization.name, authentication_required: props.organization.authentication_required as string },
    toBody: (values) => ({ body: { name: values.name.trim(), authentication_required: values.authentication_required } }),
    send: save.mutateAsync,
  });
  return (
    <div className="card">
      <form className="stack" onSubmit={form.submit} noValidate>
        <div className="form-row">
          <TextField label="Name" {...form.field("name")} disabled={!editable} />
          <TextField label="Slug" value={props.organization.slug} onChange={() => undefined} disabled hint="Fixed" />
          {/* The API refuses "Single sign-on only" until single sign-on is configured and an owner signed in through it. */}
          <SelectField
            label="Sign-in"
            value={form.values.authentication_required}
            onChange={(value) => form.set("authentication_required", value)}
            error={form.errors.authentication_required}
            disabled={!editable}
            hint="Single sign-on only: password sign-in is refused (owners named for break-glass aside)."
            options={[
              { value: "password", label: "Password" },
              { value: "sso", label: "Single sign-on only" },
            ]}
          />
        </div>
        <p className="small muted">
          Created {formatDateTime(props.organization.created_at)} · id <code>{props.organization.id}</code>
        </p>
        {form.formError ? <ErrorNotice error={form.formError} /> : null}
        {save.isSuccess ? <div className="notice success" role="status">Saved.</div> : null}
        {editable ? (
          <div>
            <PendingButton type="submit" className="button primary" pending={form.pending} pendingLabel="Saving…">
              Save
            </PendingButton>
          </div>
        ) : (
          <p className="small muted">Only owners change the organization.</p>
        )}
      </form>
    </div>
  );
}
