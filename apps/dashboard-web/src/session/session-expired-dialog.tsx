import { useQueryClient } from "@tanstack/react-query";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { Dialog } from "../components/dialog.js";
import { DialogFooter } from "../components/dialog-footer.js";
import { ErrorNotice } from "../components/error-notice.js";
import { TextField } from "../components/fields.js";
import { PendingButton } from "../components/pending-button.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { useSession } from "./session-context.js";
import { clearSessionExpired, useSessionExpired } from "./session-expiry.js";
import { sessionQueryKey } from "./use-session-query.js";
import { useSignOut } from "./use-sign-out.js";

/**
 * Asks to sign in again when the API refused the session mid-work (it expired, or was revoked):
 * the screen under it, an open form with what was typed into it included, stays as it was, so
 * the person signs in and sends the form again. Signing in as someone else leaves for the login page.
 */
export function SessionExpiredDialog() {
  const expired = useSessionExpired();
  return expired ? <SignInAgainDialog /> : null;
}

function SignInAgainDialog() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const form = useSchemaForm({
    operation: "post /v1/auth/login",
    initial: { password: "" },
    toBody: (values) => ({ body: { email: session.person.email, password: values.password, organization_id: session.organization.id } }),
    send: (body) => callApi(dashboardClient.POST("/v1/auth/login", { body })),
    onSuccess: (renewed) => {
      queryClient.setQueryData(sessionQueryKey, renewed);
      clearSessionExpired();
      // What failed while signed out loads again; the session itself was just answered.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    },
  });
  return (
    <Dialog
      open
      title="Your session has expired"
      onClose={clearSessionExpired}
      footer={
        <DialogFooter onCancel={clearSessionExpired}>
          <button type="button" className="button" onClick={() => void signOut()}>
            Sign in as someone else
          </button>
          <PendingButton type="submit" form="form-sign-in-again" className="button primary" pending={form.pending} pendingLabel="Signing in…">
            Sign in
          </PendingButton>
        </DialogFooter>
      }
    >
      <form id="form-sign-in-again" className="stack" onSubmit={form.submit} noValidate>
        <p>
          Sign in again as <strong>{session.person.email}</strong> to go on. Nothing you entered is lost: send it again once you are signed in.
        </p>
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
        {form.formError ? <ErrorNotice error={form.formError} title="Could not sign in" /> : null}
      </form>
    </Dialog>
  );
}
