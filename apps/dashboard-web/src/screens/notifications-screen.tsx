import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { NotificationChannel } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { DeliveryTestResult, type DeliveryTestOutcome } from "../components/delivery-test-result.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, CheckboxGroup, SelectField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { QueryView } from "../components/query-view.js";
import { StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatRelativeTime } from "../format/format-date-time.js";
import { useSession } from "../session/session-context.js";

const eventOptions = [
  { value: "budget.threshold", label: "Budget threshold reached" },
  { value: "budget.exceeded", label: "Budget exceeded" },
  { value: "rate_limit.exceeded", label: "Rate limit exceeded" },
  { value: "api_key.revoked", label: "API key revoked" },
  { value: "provider.error", label: "Provider errors" },
];
const kindLabels = { webhook: "Webhook", slack: "Slack", email: "Email" } as const;

/** Notification channels (webhook, Slack, email) for budget, limit, key and provider events, with a test notification. */
export function NotificationsScreen() {
  const { can } = useSession();
  const channels = useQuery(dashboardQueries.notificationChannels());
  const [editing, setEditing] = useState<NotificationChannel | "new" | null>(null);
  const [deleting, setDeleting] = useState<NotificationChannel | null>(null);
  const [results, setResults] = useState<Record<string, DeliveryTestOutcome>>({});
  const test = useApiMutation({
    mutationFn: (channel: NotificationChannel) => callApi(dashboardClient.POST("/api/notification-channels/{channel_id}/test", { params: { path: { channel_id: channel.id } } })),
    invalidate: [["notification-channels"]],
    onSuccess: (result, channel) => setResults((current) => ({ ...current, [channel.id]: result })),
  });
  const remove = useApiMutation({
    mutationFn: (channel: NotificationChannel) => callApi(dashboardClient.DELETE("/api/notification-channels/{channel_id}", { params: { path: { channel_id: channel.id } } })),
    invalidate: [["notification-channels"]],
    onSuccess: () => setDeleting(null),
  });
  const mayCreate = can("post /api/notification-channels");
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Where the gateway tells people about budgets reaching thresholds, exceeded limits, revoked keys and provider errors."
        actions={mayCreate ? <button type="button" className="button primary" onClick={() => setEditing("new")}>Add channel</button> : null}
      />
      <QueryView query={channels} label="notification channels">
        {(list) =>
          list.data.length === 0 ? (
            <div className="card">
              <EmptyState title="No notification channels" action={mayCreate ? <button type="button" className="button primary" onClick={() => setEditing("new")}>Add a channel</button> : null} />
            </div>
          ) : (
            <div className="table-wrap">
              <table aria-label="Notification channels">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Target</th>
                    <th scope="col">Events</th>
                    <th scope="col">Last delivery</th>
                    <th scope="col"><span className="visually-hidden">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((channel) => (
                    <tr key={channel.id}>
                      <td>
                        {channel.name} {channel.enabled ? null : <StatusBadge tone="warning">disabled</StatusBadge>}
                        <DeliveryTestResult outcome={results[channel.id]} error={test.variables?.id === channel.id ? test.error : null} />
                      </td>
                      <td>{kindLabels[channel.kind]}</td>
                      <td className="small mono">{channel.target}</td>
                      <td className="small">{channel.events.length === 0 ? "all" : channel.events.join(", ")}</td>
                      <td>
                        {channel.last_delivery_at ? (
                          <>
                            <StatusBadge tone={channel.last_delivery_ok ? "success" : "danger"}>{channel.last_delivery_ok ? "delivered" : "failed"}</StatusBadge>
                            <div className="small muted">{formatRelativeTime(channel.last_delivery_at)}</div>
                          </>
                        ) : (
                          <span className="muted">none yet</span>
                        )}
                      </td>
                      <td className="row-actions">
                        {can("post /api/notification-channels/{channel_id}/test") ? (
                          <button type="button" className="button small" onClick={() => test.mutate(channel)} disabled={test.isPending}>
                            {test.isPending && test.variables?.id === channel.id ? "Sending…" : "Send test"}
                          </button>
                        ) : null}
                        {can("patch /api/notification-channels/{channel_id}") ? <button type="button" className="button small" onClick={() => setEditing(channel)}>Edit</button> : null}
                        {can("delete /api/notification-channels/{channel_id}") ? <button type="button" className="button small danger" onClick={() => setDeleting(channel)}>Delete</button> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      {editing ? <ChannelDialog channel={editing === "new" ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this channel?"
        confirmLabel="Delete channel"
        onClose={() => { setDeleting(null); remove.reset(); }}
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
        error={remove.error}
      >
        <p>Notifications stop going to {deleting?.target}.</p>
      </ConfirmDialog>
    </>
  );
}

function ChannelDialog(props: { channel: NotificationChannel | null; onClose: () => void }) {
  const editing = props.channel !== null;
  const save = useApiMutation({
    mutationFn: (body: any) =>
      props.channel
        ? callApi(dashboardClient.PATCH("/api/notification-channels/{channel_id}", { params: { path: { channel_id: props.channel.id } }, body }))
        : callApi(dashboardClient.POST("/api/notification-channels", { body })),
    invalidate: [["notification-channels"]],
  });
  const form = useSchemaForm({
    operation: editing ? "patch /api/notification-channels/{channel_id}" : "post /api/notification-channels",
    initial: {
      name: props.channel?.name ?? "",
      enabled: props.channel?.enabled ?? true,
      events: (props.channel?.events ?? []) as string[],
      replaceConfig: !editing,
      kind: props.channel?.kind ?? "webhook",
      url: "",
      secret: "",
      recipients: "",
    },
    toBody: (values) => {
      const config =
        values.kind === "webhook"
          ? { kind: "webhook", url: values.url.trim(), secret: values.secret }
          : values.kind === "slack"
            ? { kind: "slack", webhook_url: values.url.trim() }
            : { kind: "email", recipients: values.recipients.split(/[\s,;]+/).filter(Boolean) };
      return { body: { name: values.name.trim(), enabled: values.enabled, events: values.events, ...(values.replaceConfig ? { config } : {}) } };
    },
    send: save.mutateAsync,
    onSuccess: props.onClose,
    fieldOf: { "config.url": "url", "config.webhook_url": "url", "config.secret": "secret", "config.recipients": "recipients", config: "kind" },
  });
  const values = form.values;
  return (
    <FormDialog title={editing ? `Edit ${props.channel!.name}` : "Add notification channel"} submitLabel={editing ? "Save" : "Add channel"} form={form} onClose={props.onClose}>
      <TextField label="Name" value={values.name} onChange={(value) => form.set("name", value)} error={form.errors.name} autoFocus />
      <CheckboxField label="Enabled" checked={values.enabled} onChange={(checked) => form.set("enabled", checked)} />
      <CheckboxGroup legend="Events" options={eventOptions} values={values.events} onChange={(events) => form.set("events", events)} error={form.errorFor("events")} hint="None ticked: all events." />
      {editing ? <CheckboxField label="Replace the destination (URL, secret or recipients)" checked={values.replaceConfig} onChange={(checked) => form.set("replaceConfig", checked)} hint="Stored URLs and secrets are never shown; enter them again to change them." /> : null}
      {values.replaceConfig ? (
        <>
          <SelectField
            label="Kind"
            value={values.kind}
            onChange={(value) => form.set("kind", value as typeof values.kind)}
            error={form.errors.kind}
            options={Object.entries(kindLabels).map(([value, label]) => ({ value, label }))}
          />
          {values.kind === "email" ? (
            <TextAreaField label="Recipients" value={values.recipients} onChange={(value) => form.set("recipients", value)} error={form.errorFor("recipients")} hint="Email addresses, separated by commas or new lines" rows={2} />
          ) : (
            <TextField label={values.kind === "slack" ? "Slack incoming webhook URL (write-only)" : "Webhook URL"} type="url" value={values.url} onChange={(value) => form.set("url", value)} error={form.errors.url} hint="https (http only for localhost)" />
          )}
          {values.kind === "webhook" ? <TextField label="Signing secret (write-only)" type="password" autoComplete="new-password" value={values.secret} onChange={(value) => form.set("secret", value)} error={form.errors.secret} hint="16+ characters" /> : null}
        </>
      ) : null}
    </FormDialog>
  );
}
