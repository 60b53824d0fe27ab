import { useQuery } from "@tanstack/react-query";
import type { NotificationChannel } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { DeliveryTestResult } from "../components/delivery-test-result.js";
import { EmptyState } from "../components/empty-state.js";
import { CheckboxField, CheckboxGroup, SelectField, TextAreaField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { LastDelivery } from "../components/last-delivery.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { StatusBadge } from "../components/status-badge.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useDeliveryTest } from "../components/use-delivery-test.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useSchemaForm } from "../components/use-schema-form.js";

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
  const channels = useQuery(dashboardQueries.notificationChannels());
  const editor = useEditDialog<NotificationChannel>();
  const test = useDeliveryTest({
    send: (channel: NotificationChannel) => callApi(dashboardClient.POST("/api/notification-channels/{channel_id}/test", { params: { path: { channel_id: channel.id } } })),
    invalidate: [["notification-channels"]],
  });
  const remove = useConfirmedMutation({
    mutationFn: (channel: NotificationChannel) => callApi(dashboardClient.DELETE("/api/notification-channels/{channel_id}", { params: { path: { channel_id: channel.id } } })),
    invalidate: [["notification-channels"]],
  });
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Where the gateway tells people about budgets reaching thresholds, exceeded limits, revoked keys and provider errors."
        actions={<ActionButton operation="post /api/notification-channels" tone="primary" onClick={editor.create}>Add channel</ActionButton>}
      />
      <ResourceTable
        query={channels}
        label="notification channels"
        empty={<EmptyState title="No notification channels" action={<ActionButton operation="post /api/notification-channels" tone="primary" onClick={editor.create}>Add a channel</ActionButton>} />}
        tableLabel="Notification channels"
        columns={["Name", "Kind", "Target", "Events", "Last delivery"]}
        actions
      >
        {(channel) => (
          <tr key={channel.id}>
            <td>
              {channel.name} {channel.enabled ? null : <StatusBadge tone="warning">disabled</StatusBadge>}
              <DeliveryTestResult outcome={test.outcome(channel)} error={test.error(channel)} />
            </td>
            <td>{kindLabels[channel.kind]}</td>
            <td className="small mono">{channel.target}</td>
            <td className="small">{channel.events.length === 0 ? "all" : channel.events.join(", ")}</td>
            <td>
              <LastDelivery at={channel.last_delivery_at} ok={channel.last_delivery_ok} />
            </td>
            <td className="row-actions">
              <ActionButton operation="post /api/notification-channels/{channel_id}/test" small onClick={() => test.send(channel)} disabled={test.busy}>
                {test.sending(channel) ? "Sending…" : "Send test"}
              </ActionButton>
              <ActionButton operation="patch /api/notification-channels/{channel_id}" small onClick={() => editor.edit(channel)}>Edit</ActionButton>
              <ActionButton operation="delete /api/notification-channels/{channel_id}" small tone="danger" onClick={() => remove.ask(channel)}>Delete</ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      {editor.open ? <ChannelDialog channel={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this channel?" confirmLabel="Delete channel">
        <p>Notifications stop going to {remove.item?.target}.</p>
      </ConfirmDialog>
    </>
  );
}

function ChannelDialog(props: { channel: NotificationChannel | null; onClose: () => void }) {
  const editing = props.channel !== null;
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
    send: (body) =>
      props.channel
        ? callApi(dashboardClient.PATCH("/api/notification-channels/{channel_id}", { params: { path: { channel_id: props.channel.id } }, body }))
        : callApi(dashboardClient.POST("/api/notification-channels", { body })),
    invalidate: [["notification-channels"]],
    onSuccess: props.onClose,
    fieldOf: { "config.url": "url", "config.webhook_url": "url", "config.secret": "secret", "config.recipients": "recipients", config: "kind" },
  });
  const values = form.values;
  return (
    <FormDialog title={editing ? `Edit ${props.channel!.name}` : "Add notification channel"} submitLabel={editing ? "Save" : "Add channel"} form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} autoFocus />
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
            <TextAreaField label="Recipients" {...form.field("recipients")} hint="Email addresses, separated by commas or new lines" rows={2} />
          ) : (
            <TextField label={values.kind === "slack" ? "Slack incoming webhook URL (write-only)" : "Webhook URL"} type="url" {...form.field("url")} hint="https (http only for localhost)" />
          )}
          {values.kind === "webhook" ? <TextField label="Signing secret (write-only)" type="password" autoComplete="new-password" {...form.field("secret")} hint="16+ characters" /> : null}
        </>
      ) : null}
    </FormDialog>
  );
}
