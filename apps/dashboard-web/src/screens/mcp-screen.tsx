import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import type { McpServer, McpToken } from "../api/api-types.js";
import { ApiError } from "../api/api-error.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { dashboardQueries } from "../api/dashboard-queries.js";
import { ActionButton } from "../components/action-button.js";
import { ConfirmDialog } from "../components/confirm-dialog.js";
import { EmptyState } from "../components/empty-state.js";
import { ErrorNotice } from "../components/error-notice.js";
import { SelectField, TextField } from "../components/fields.js";
import { FormDialog } from "../components/form-dialog.js";
import { PageHeader } from "../components/page-header.js";
import { ResourceTable } from "../components/resource-table.js";
import { type BadgeTone, StatusBadge } from "../components/status-badge.js";
import { useApiMutation } from "../components/use-api-mutation.js";
import { useConfirmedMutation } from "../components/use-confirmed-mutation.js";
import { useEditDialog } from "../components/use-edit-dialog.js";
import { useNames } from "../components/use-names.js";
import { useSchemaForm } from "../components/use-schema-form.js";
import { formatDateTime } from "../format/format-date-time.js";

const statusTone: Record<McpServer["status"], BadgeTone> = { connected: "success", pending: "info", error: "danger", disconnected: "neutral" };

/** MCP servers (OAuth connect flow, bearer tokens) and the OAuth grants (tokens) they hold. */
export function McpScreen() {
  const names = useNames();
  const [parameters, setParameters] = useSearchParams();
  const servers = useQuery(dashboardQueries.mcpServers());
  const tokens = useQuery(dashboardQueries.mcpTokens());
  const editor = useEditDialog<McpServer>();
  const connect = useApiMutation({
    mutationFn: (server: McpServer) => callApi(dashboardClient.POST("/api/mcp/servers/{server_id}/oauth", { params: { path: { server_id: server.id } } })),
    invalidate: [["mcp-servers"]],
    // The authorization server asks the person to approve, then sends the browser back through the dashboard's callback to this page.
    onSuccess: (authorization) => window.location.assign(authorization.authorization_url),
  });
  const remove = useConfirmedMutation({
    mutationFn: (server: McpServer) => callApi(dashboardClient.DELETE("/api/mcp/servers/{server_id}", { params: { path: { server_id: server.id } } })),
    invalidate: [["mcp-servers"], ["mcp-tokens"]],
  });
  const revoke = useConfirmedMutation({
    mutationFn: (token: McpToken) => callApi(dashboardClient.DELETE("/api/mcp/tokens/{token_id}", { params: { path: { token_id: token.id } } })),
    invalidate: [["mcp-servers"], ["mcp-tokens"]],
  });
  const outcome = parameters.get("outcome");
  const serverNames = new Map((servers.data?.data ?? []).map((server) => [server.id, server.name]));
  const dismiss = () => setParameters({}, { replace: true });
  return (
    <>
      <PageHeader
        title="MCP servers"
        description="Model Context Protocol servers the gateway calls tools on. OAuth servers are connected once here (PKCE, dynamic client registration); their tokens are stored encrypted and never shown."
        actions={<ActionButton operation="post /api/mcp/servers" tone="primary" onClick={editor.create}>Register server</ActionButton>}
      />
      {outcome === "ok" ? (
        <div className="notice success" role="status">
          <strong className="notice-title">Connected</strong>
          <span>{serverNames.get(parameters.get("server_id") ?? "") ?? "The server"} is authorized; its tokens are stored encrypted.</span>
          <span>
            <button type="button" className="button small" onClick={dismiss}>Dismiss</button>
          </span>
        </div>
      ) : outcome === "failed" ? (
        <ErrorNotice
          title="The authorization did not complete"
          error={new ApiError({ status: 400, code: parameters.get("code") ?? "oauth_failed", message: parameters.get("message") ?? "The authorization failed.", requestId: parameters.get("request_id") })}
          onRetry={dismiss}
        />
      ) : null}
      {connect.error ? <ErrorNotice error={connect.error} title="Could not start the authorization" /> : null}
      <ResourceTable
        query={servers}
        label="MCP servers"
        empty={<EmptyState title="No MCP servers" action={<ActionButton operation="post /api/mcp/servers" tone="primary" onClick={editor.create}>Register a server</ActionButton>} />}
        tableLabel="MCP servers"
        columns={["Name", "URL", "Authentication", "Status"]}
        actions
      >
        {(server) => (
          <tr key={server.id} data-testid={`mcp-server-${server.name}`}>
            <td>{server.name}</td>
            <td className="mono small">{server.url}</td>
            <td>
              {server.auth_kind}
              {server.authorization_server ? <div className="small muted">{server.authorization_server}</div> : null}
            </td>
            <td>
              <StatusBadge tone={statusTone[server.status]}>{server.status}</StatusBadge>
              {server.status_message ? <div className="small muted">{server.status_message}</div> : null}
              {server.token_expires_at ? <div className="small muted">token until {formatDateTime(server.token_expires_at)}</div> : null}
            </td>
            <td className="row-actions">
              <ActionButton operation="post /api/mcp/servers/{server_id}/oauth" when={server.auth_kind === "oauth"} small tone="primary" onClick={() => connect.mutate(server)} disabled={connect.isPending}>
                {server.status === "connected" ? "Reconnect" : "Connect"}
              </ActionButton>
              <ActionButton operation="patch /api/mcp/servers/{server_id}" small onClick={() => editor.edit(server)}>Edit</ActionButton>
              <ActionButton operation="delete /api/mcp/servers/{server_id}" small tone="danger" onClick={() => remove.ask(server)}>Delete</ActionButton>
            </td>
          </tr>
        )}
      </ResourceTable>
      <section className="stack" aria-labelledby="mcp-tokens">
        <h2 id="mcp-tokens">Tokens</h2>
        <ResourceTable
          query={tokens} label="MCP tokens" empty={<p className="muted">No OAuth grants yet. Connect an OAuth server to create one.</p>}
          tableLabel="MCP tokens"
          columns={["Grant", "Server", "Scopes", "Granted by", "Status", "Expires"]}
          actions
        >
          {(token) => (
            <tr key={token.id}>
              <td>
                {token.name} <span className="mono small muted">{token.prefix}…</span>
              </td>
              <td>{token.server_id ? (serverNames.get(token.server_id) ?? token.server_id) : "–"}</td>
              <td className="small">{token.scopes.join(" ") || "–"}</td>
              <td>{names.member(token.user_id)}</td>
              <td>
                <StatusBadge tone={token.status === "active" ? "success" : token.status === "revoked" ? "danger" : "warning"}>{token.status}</StatusBadge>
              </td>
              <td>{formatDateTime(token.expires_at)}</td>
              <td className="row-actions">
                <ActionButton operation="delete /api/mcp/tokens/{token_id}" when={token.status === "active"} small tone="danger" onClick={() => revoke.ask(token)}>
                  Revoke
                </ActionButton>
              </td>
            </tr>
          )}
        </ResourceTable>
      </section>
      {editor.open ? <ServerDialog server={editor.item} onClose={editor.close} /> : null}
      <ConfirmDialog {...remove.dialog} title="Delete this MCP server?" confirmLabel="Delete server">
        <p>Its stored tokens are erased.</p>
      </ConfirmDialog>
      <ConfirmDialog {...revoke.dialog} title="Revoke this token?" confirmLabel="Revoke token">
        <p>The stored tokens are erased and revoked at the authorization server; connect again to use the server.</p>
      </ConfirmDialog>
    </>
  );
}

function ServerDialog(props: { server: McpServer | null; onClose: () => void }) {
  const editing = props.server !== null;
  const form = useSchemaForm({
    operation: editing ? "patch /api/mcp/servers/{server_id}" : "post /api/mcp/servers",
    initial: { name: props.server?.name ?? "", url: props.server?.url ?? "", transport: props.server?.transport ?? "streamable_http", auth_kind: props.server?.auth_kind ?? "oauth", bearer_token: "", oauth_client_id: "", oauth_client_secret: "" },
    toBody: (values) => ({
      body: {
        name: values.name.trim(),
        url: values.url.trim(),
        transport: values.transport,
        ...(editing ? {} : { auth_kind: values.auth_kind }),
        ...(values.auth_kind === "bearer" && values.bearer_token ? { bearer_token: values.bearer_token } : {}),
        ...(!editing && values.auth_kind === "oauth" && values.oauth_client_id ? { oauth_client_id: values.oauth_client_id.trim(), ...(values.oauth_client_secret ? { oauth_client_secret: values.oauth_client_secret } : {}) } : {}),
      },
    }),
    send: (body) =>
      props.server ? callApi(dashboardClient.PATCH("/api/mcp/servers/{server_id}", { params: { path: { server_id: props.server.id } }, body })) : callApi(dashboardClient.POST("/api/mcp/servers", { body })),
    invalidate: [["mcp-servers"]],
    onSuccess: props.onClose,
  });
  const values = form.values;
  return (
    <FormDialog title={editing ? `Edit ${props.server!.name}` : "Register MCP server"} submitLabel={editing ? "Save" : "Register"} form={form} onClose={props.onClose}>
      <TextField label="Name" {...form.field("name")} autoFocus />
      <TextField label="URL" type="url" {...form.field("url")} placeholder="https://mcp.example.com/mcp" hint="https (http only for localhost)" />
      <div className="form-row">
        <SelectField
          label="Transport"
          value={values.transport}
          onChange={(value) => form.set("transport", value as typeof values.transport)}
          error={form.errors.transport}
          options={[
            { value: "streamable_http", label: "Streamable HTTP" },
            { value: "sse", label: "Server-sent events (legacy)" },
          ]}
        />
        <SelectField
          label="Authentication"
          value={values.auth_kind}
          disabled={editing}
          onChange={(value) => form.set("auth_kind", value as typeof values.auth_kind)}
          error={form.errors.auth_kind}
          options={[
            { value: "oauth", label: "OAuth (connect in the browser)" },
            { value: "bearer", label: "Static bearer token" },
            { value: "none", label: "None" },
          ]}
        />
      </div>
      {values.auth_kind === "bearer" ? (
        <TextField label={editing ? "New bearer token (write-only)" : "Bearer token (write-only)"} type="password" autoComplete="new-password" {...form.field("bearer_token")} hint={editing ? "Empty keeps the stored token" : "Stored encrypted"} />
      ) : null}
      {!editing && values.auth_kind === "oauth" ? (
        <div className="form-row">
          <TextField label="OAuth client id (optional)" {...form.field("oauth_client_id")} hint="Only for servers without dynamic registration" />
          <TextField label="OAuth client secret (optional)" type="password" autoComplete="new-password" {...form.field("oauth_client_secret")} />
        </div>
      ) : null}
    </FormDialog>
  );
}
