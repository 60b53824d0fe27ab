import { mcpAuthKindSchema, mcpTransportSchema } from "@gateway/contracts";
import {
  beginMcpServerOAuth,
  claimMcpServerOAuthState,
  clearMcpServerTokens,
  completeMcpServerOAuth,
  createMcpServer,
  deleteMcpServer,
  generateToken,
  getMcpServer,
  getMcpServerClientSecret,
  createMcpToken,
  getApiKey,
  getMcpServerTokens,
  getMcpToken,
  hashToken,
  listMcpServers,
  listMcpTokens,
  revokeMcpToken,
  updateMcpServer,
  type McpServerRecord,
  type McpTokenRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { mcpTokenPrefix } from "@gateway/pipeline";
import { z } from "zod";
import { deliveryUrl } from "../delivery/destination-url.js";
import { redirectBrowserToWebApp } from "../http/redirect-browser-to-web-app.js";
import {
  buildAuthorizationUrl,
  createPkcePair,
  discoverOAuthMetadata,
  exchangeAuthorizationCode,
  registerOAuthClient,
  revokeOAuthToken,
  type OAuthClient,
} from "@gateway/mcp/oauth";
import { canUseProject, type DashboardPrincipal } from "../auth/dashboard-principal.js";
import { deletedObjectSchema, displayName, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { recordAuditEvent } from "../services/record-audit-event.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

const pendingLifetimeMs = 10 * 60_000;

/** Issued tokens act as an API key: managing them needs the key's project, as managing the key does. */
function assertKeyProjectAccess(principal: DashboardPrincipal, projectId: string): void {
  if (!canUseProject(principal, projectId)) {
    throw new GatewayError("permission_denied", { message: "You may only manage MCP tokens of your own projects' API keys.", details: { project_id: projectId } });
  }
}

/** An MCP server as the API shows it (never tokens or client secrets). */
export const mcpServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  transport: mcpTransportSchema,
  auth_kind: mcpAuthKindSchema,
  status: z.enum(["pending", "connected", "error", "disconnected"]),
  status_message: z.string().nullable(),
  has_credentials: z.boolean(),
  token_expires_at: timestamp.nullable(),
  oauth_client_id: z.string().nullable(),
  authorization_server: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("mcp.server"),
});

/**
 * An MCP token record: a token the gateway issued to an MCP client (`kind: "issued"`; only its
 * hash is stored), or the record of an MCP server's OAuth grant (`kind: "grant"`; the upstream
 * tokens are stored encrypted on the server). Never the token itself.
 */
export const mcpTokenSchema = z.object({
  id: z.string(),
  kind: z.enum(["issued", "grant"]),
  name: z.string(),
  server_id: z.string().nullable(),
  user_id: z.string().nullable(),
  api_key_id: z.string().nullable().describe("The API key an issued token acts as on the gateway's MCP endpoint"),
  prefix: z.string(),
  scopes: z.array(z.string()),
  status: z.enum(["active", "expired", "revoked"]),
  created_at: timestamp,
  expires_at: timestamp.nullable(),
  last_used_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
  revoked_by_user_id: z.string().nullable(),
  object: z.literal("mcp.token"),
});

const oauthStartSchema = z.object({
  server_id: z.string(),
  authorization_url: z.string().describe("Open this URL in the browser to authorize"),
  state: z.string(),
  redirect_uri: z.string(),
  expires_at: timestamp.describe("The authorization must finish before this time"),
  authorization_server: z.string(),
  client_id: z.string(),
  scope: z.string().nullable(),
  code_challenge_method: z.literal("S256"),
  object: z.literal("mcp.oauth.authorization"),
});

const oauthResultSchema = z.object({
  server_id: z.string(),
  status: z.literal("connected"),
  token_id: z.string(),
  expires_at: timestamp.nullable(),
  object: z.literal("mcp.oauth.result"),
});

interface StoredMetadata {
  resource?: string;
  issuer?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  revocation_endpoint?: string;
  scope?: string | null;
}

interface StoredRegistration {
  client_id?: string;
  token_endpoint_auth_method?: string;
  redirect_uri?: string;
  preregistered?: boolean;
}

function metadataOf(row: McpServerRecord): StoredMetadata {
  return typeof row.oauthMetadata === "object" && row.oauthMetadata !== null ? (row.oauthMetadata as StoredMetadata) : {};
}

function registrationOf(row: McpServerRecord): StoredRegistration {
  return typeof row.oauthClientRegistration === "object" && row.oauthClientRegistration !== null ? (row.oauthClientRegistration as StoredRegistration) : {};
}

/** The `<server>` of the tool names the gateway serves (`<server>__<tool>`), so: letters, digits, '-'. */
const mcpServerName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/, "1-32 letters, digits or '-' (the <server> of the tool names the gateway serves, <server>__<tool>)");

/** A token the gateway issued, with its secret (answered once). */
const issuedTokenSchema = mcpTokenSchema.extend({ token: z.string().describe("The MCP token (`gmt_...`); shown only this once") });

const issueTokenBody = z.object({
  name: displayName,
  api_key_id: resourceId.describe("The API key the token acts as (its project, policies, rate limits and budgets apply)"),
  server_id: resourceId.optional().describe("Only this MCP server's tools, prompts and resources; default every server the key may use"),
  expires_at: z.iso.datetime({ offset: true }).optional().describe("Default: never (revoke it, or its key, to end it)"),
});

const createBody = z
  .object({
    name: mcpServerName,
    url: deliveryUrl.describe("The MCP server endpoint (https; http only for localhost)"),
    transport: mcpTransportSchema.default("streamable_http"),
    auth_kind: mcpAuthKindSchema.default("oauth"),
    bearer_token: z.string().min(1).max(10_000).optional().describe("For auth_kind bearer; stored encrypted"),
    oauth_client_id: z.string().min(1).max(500).optional().describe("A pre-registered OAuth client, for servers without dynamic registration"),
    oauth_client_secret: z.string().min(1).max(2000).optional(),
  })
  .refine((value) => value.auth_kind !== "bearer" || value.bearer_token !== undefined, { message: "bearer_token is required for auth_kind bearer", path: ["bearer_token"] });
const updateBody = z
  .object({
    name: mcpServerName,
    url: deliveryUrl,
    transport: mcpTransportSchema,
    bearer_token: z.string().min(1).max(10_000),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("server_id");
const tokenParams = idParams("token_id");
const callbackQuery = z.object({
  state: z.string().min(1).max(500),
  code: z.string().min(1).max(4000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});
const tokenListQuery = z.object({ server_id: resourceId.optional(), status: z.enum(["active", "expired", "revoked"]).optional() });

/** MCP routes: servers (`/api/mcp/servers`), the OAuth flow, and tokens (`/api/mcp/tokens`: issued to MCP clients, and grant records). */
export function createMcpRoutes(services: DashboardServices): DashboardRoute[] {
  const redirectUri = () => `${services.settings.publicUrl}/api/mcp/oauth/callback`;
  const timeoutMs = () => services.settings.deliveryTimeoutMs;
  const secretBox = { secretBox: services.secrets };
  const presentServer = (row: McpServerRecord): z.infer<typeof mcpServerSchema> => ({
    id: row.id,
    name: row.name,
    url: row.url,
    transport: row.transport,
    auth_kind: row.authKind,
    status: row.status,
    status_message: row.statusMessage,
    has_credentials: row.hasTokens,
    token_expires_at: iso(row.tokensExpiresAt),
    oauth_client_id: registrationOf(row).client_id ?? null,
    authorization_server: metadataOf(row).issuer ?? null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "mcp.server",
  });
  const presentToken = (row: McpTokenRecord): z.infer<typeof mcpTokenSchema> => ({
    id: row.id,
    kind: row.issued ? "issued" : "grant",
    name: row.name,
    server_id: row.serverId,
    user_id: row.userId,
    api_key_id: row.apiKeyId,
    prefix: row.prefix,
    scopes: row.scopes,
    status: row.revokedAt !== null ? "revoked" : row.expiresAt !== null && row.expiresAt <= services.now() ? "expired" : "active",
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
    revoked_at: iso(row.revokedAt),
    revoked_by_user_id: row.revokedByUserId,
    object: "mcp.token",
  });
  const load = (organizationId: string, id: string) => getMcpServer(services.database, organizationId, id).then((row) => found(row, "MCP server"));
  const conflict = "An MCP server with this name already exists.";
  /** The OAuth client of a server; `clientSecret` as given, else read (decrypted) from the database. */
  const clientOf = async (row: McpServerRecord, clientSecret?: string | null): Promise<OAuthClient | null> => {
    const registration = registrationOf(row);
    if (!registration.client_id) return null;
    return {
      clientId: registration.client_id,
      clientSecret: clientSecret !== undefined ? clientSecret : await getMcpServerClientSecret(services.database, row.organizationId, row.id, secretBox),
      tokenEndpointAuthMethod: registration.token_endpoint_auth_method ?? "none",
      registration: registration as Record<string, unknown>,
    };
  };
  const markFailed = (row: McpServerRecord, statusMessage: string) =>
    updateMcpServer(services.database, row.organizationId, row.id, { status: "error", statusMessage }, secretBox);

  return [
    defineRoute({
      method: "post",
      path: "/api/mcp/servers",
      operationId: "create_mcp_server",
      summary: "Register an MCP server",
      tag: "MCP",
      access: "mcp:write",
      body: createBody,
      exampleBody: { name: "tickets", url: "https://mcp.example.com/mcp", auth_kind: "oauth" },
      responses: [{ status: 201, description: "The server", schema: mcpServerSchema }],
      async handler(context) {
        const { principal, body } = context;
        const row = await withConflict(
          () =>
            createMcpServer(
              services.database,
              {
                organizationId: principal.organization.id,
                name: body.name,
                url: body.url,
                transport: body.transport,
                authKind: body.auth_kind,
                bearerToken: body.bearer_token ?? null,
                oauthClient: body.oauth_client_id ? { clientId: body.oauth_client_id, clientSecret: body.oauth_client_secret ?? null } : null,
                createdByUserId: principal.userId,
              },
              secretBox,
            ),
          conflict,
          "name",
        );
        const after = presentServer(row);
        await auditChange(services, context, { action: "mcp_server.created", targetType: "mcp_server", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/mcp/servers",
      operationId: "list_mcp_servers",
      summary: "List MCP servers",
      tag: "MCP",
      access: "mcp:read",
      responses: [{ status: 200, description: "Servers", schema: listObjectSchema(mcpServerSchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listMcpServers(services.database, principal.organization.id)).map(presentServer)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/mcp/servers/{server_id}",
      operationId: "get_mcp_server",
      summary: "Get an MCP server",
      tag: "MCP",
      access: "mcp:read",
      params,
      responses: [{ status: 200, description: "The server", schema: mcpServerSchema }],
      async handler({ principal, params: { server_id } }) {
        return { status: 200, body: presentServer(await load(principal.organization.id, server_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/mcp/servers/{server_id}",
      operationId: "update_mcp_server",
      summary: "Update an MCP server",
      description: "Changing `url` forgets the OAuth discovery, registration and tokens (they belong to the old server).",
      tag: "MCP",
      access: "mcp:write",
      params,
      body: updateBody,
      exampleBody: { name: "tickets-prod" },
      responses: [{ status: 200, description: "The server", schema: mcpServerSchema }],
      async handler(context) {
        const { principal, params: { server_id }, body } = context;
        const existing = await load(principal.organization.id, server_id);
        const row = await withConflict(
          () =>
            updateMcpServer(
              services.database,
              existing.organizationId,
              existing.id,
              {
                ...(body.name !== undefined ? { name: body.name } : {}),
                ...(body.transport !== undefined ? { transport: body.transport } : {}),
                ...(body.url !== undefined ? { url: body.url } : {}),
                ...(body.bearer_token !== undefined ? { bearerToken: body.bearer_token } : {}),
              },
              { ...secretBox, actorUserId: principal.userId, now: services.now() },
            ),
          conflict,
          "name",
        );
        const after = presentServer(row);
        await auditChange(services, context, { action: "mcp_server.updated", targetType: "mcp_server", targetId: row.id, before: presentServer(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/mcp/servers/{server_id}",
      operationId: "delete_mcp_server",
      summary: "Delete an MCP server",
      tag: "MCP",
      access: "mcp:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("mcp.server") }],
      async handler(context) {
        const { principal, params: { server_id } } = context;
        const existing = await load(principal.organization.id, server_id);
        await deleteMcpServer(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "mcp_server.deleted", targetType: "mcp_server", targetId: existing.id, before: presentServer(existing) });
        return { status: 200, body: { id: existing.id, object: "mcp.server", deleted: true } };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/mcp/servers/{server_id}/oauth",
      operationId: "start_mcp_server_oauth",
      summary: "Start the OAuth authorization of an MCP server",
      description:
        "OAuth 2.1 authorization code flow with PKCE (S256) as the MCP authorization spec describes: discovers the " +
        "server's protected-resource metadata (RFC 9728) and its authorization server's metadata (RFC 8414), registers a " +
        "client dynamically (RFC 7591) when the server offers it and none is registered yet, and answers the " +
        "authorization URL (with `resource`, RFC 8707) and `state`. The browser then authorizes; the authorization server " +
        "redirects to `GET /api/mcp/oauth/callback`, which exchanges the code and stores the tokens encrypted. " +
        "Discovery only uses https URLs on the MCP server's own origin (plain http too for a server on localhost) or " +
        "origins listed in `DASHBOARD_MCP_OAUTH_ORIGINS`, and never follows redirects. " +
        "Discovery failures (a URL outside that rule included) answer 502 `upstream_error`.",
      tag: "MCP",
      access: "mcp:write",
      params,
      responses: [{ status: 200, description: "Where to send the browser", schema: oauthStartSchema }],
      async handler(context) {
        const { principal, params: { server_id } } = context;
        const existing = await load(principal.organization.id, server_id);
        if (existing.authKind !== "oauth") {
          throw new GatewayError("invalid_request", { message: "This MCP server does not use OAuth (auth_kind is not 'oauth')." });
        }
        let discovered;
        try {
          discovered = await discoverOAuthMetadata({
            serverUrl: existing.url,
            timeoutMs: timeoutMs(),
            allowedOrigins: services.settings.mcpOAuthOrigins,
            fetch: services.outboundFetch,
          });
        } catch (error) {
          await markFailed(existing, GatewayError.isInstance(error) ? error.message : "OAuth discovery failed.");
          throw error;
        }
        const authorizationServer = discovered.authorizationServer;
        const scope = discovered.protectedResource.scopes_supported?.join(" ") || null;
        let client = await clientOf(existing);
        const registration = registrationOf(existing);
        const registeredElsewhere = client !== null && !registration.preregistered && registration.redirect_uri !== redirectUri();
        if (client === null || registeredElsewhere) {
          if (!authorizationServer.registration_endpoint) {
            throw new GatewayError("invalid_request", {
              message: "The authorization server offers no dynamic client registration; set oauth_client_id on the MCP server.",
            });
          }
          client = await registerOAuthClient({
            registrationEndpoint: authorizationServer.registration_endpoint,
            redirectUri: redirectUri(),
            clientName: `AI Gateway (${principal.organization.name})`,
            authMethodsSupported: authorizationServer.token_endpoint_auth_methods_supported,
            scope,
            timeoutMs: timeoutMs(),
          });
        }
        const pkce = createPkcePair();
        const state = generateToken("st_");
        const expiresAt = new Date(services.now().getTime() + pendingLifetimeMs);
        const metadata: StoredMetadata = {
          resource: discovered.resource,
          issuer: authorizationServer.issuer,
          authorization_endpoint: authorizationServer.authorization_endpoint,
          token_endpoint: authorizationServer.token_endpoint,
          ...(authorizationServer.revocation_endpoint ? { revocation_endpoint: authorizationServer.revocation_endpoint } : {}),
          scope,
        };
        await beginMcpServerOAuth(
          services.database,
          {
            organizationId: existing.organizationId,
            id: existing.id,
            stateHash: hashToken(state),
            codeVerifier: pkce.verifier,
            redirectUri: redirectUri(),
            expiresAt,
            metadata,
            clientRegistration: {
              ...client.registration,
              client_id: client.clientId,
              token_endpoint_auth_method: client.tokenEndpointAuthMethod,
              redirect_uri: redirectUri(),
              ...(registration.preregistered && client.clientId === registration.client_id ? { preregistered: true } : {}),
            },
            clientSecret: client.clientSecret ?? null,
            pendingUserId: principal.userId,
          },
          secretBox,
        );
        const authorizationUrl = buildAuthorizationUrl({
          authorizationEndpoint: authorizationServer.authorization_endpoint,
          clientId: client.clientId,
          redirectUri: redirectUri(),
          state,
          codeChallenge: pkce.challenge,
          scope,
          resource: discovered.resource,
        });
        await auditChange(services, context, {
          action: "mcp_server.oauth_started",
          targetType: "mcp_server",
          targetId: existing.id,
          after: { authorization_server: authorizationServer.issuer, client_id: client.clientId },
        });
        return {
          status: 200,
          body: {
            server_id: existing.id,
            authorization_url: authorizationUrl,
            state,
            redirect_uri: redirectUri(),
            expires_at: iso(expiresAt),
            authorization_server: authorizationServer.issuer,
            client_id: client.clientId,
            scope,
            code_challenge_method: "S256",
            object: "mcp.oauth.authorization",
          },
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/mcp/oauth/callback",
      operationId: "finish_mcp_server_oauth",
      summary: "OAuth redirect target for MCP servers",
      description:
        "Public: the authorization server sends the browser here with `code` and `state`. The single-use `state` (valid 10 " +
        "minutes) identifies the pending authorization. Exchanges the code with the PKCE verifier, stores the tokens " +
        "encrypted, records an MCP token and answers the result. Unknown or expired state answers 404. A browser " +
        "navigation (Accept: text/html, web app served) is redirected (303) to `/mcp?outcome=ok&server_id=...` or " +
        "`/mcp?outcome=failed&code=...&message=...&request_id=...` instead.",
      tag: "MCP",
      access: "public",
      query: callbackQuery,
      responses: [
        { status: 200, description: "Connected", schema: oauthResultSchema },
        { status: 303, description: "A browser (Accept: text/html) is sent on to the web app's `/mcp` page with the outcome" },
      ],
      handler: redirectBrowserToWebApp(services, { page: "/mcp", success: (body) => ({ server_id: String((body as { server_id: string }).server_id) }) }, async ({ request, requestId, query }) => {
        // Single use: claiming forgets the pending state before anything else.
        const pending = await claimMcpServerOAuthState(services.database, hashToken(query.state), { ...secretBox, now: services.now() });
        if (pending === null) throw new GatewayError("not_found", { message: "Unknown or expired OAuth state; start the authorization again." });
        const { server } = pending;
        const metadata = metadataOf(server);
        if (query.error || !query.code) {
          const message = `Authorization refused: ${query.error ?? "no code"}.`;
          await markFailed(server, message);
          throw new GatewayError("invalid_request", { message, details: { oauth_error: query.error ?? null } });
        }
        const client = await clientOf(server, pending.clientSecret);
        if (client === null || !metadata.token_endpoint || !metadata.resource) throw new GatewayError("not_found", { message: "The authorization is no longer pending." });
        let tokens;
        try {
          tokens = await exchangeAuthorizationCode({
            tokenEndpoint: metadata.token_endpoint,
            client,
            code: query.code,
            redirectUri: pending.redirectUri,
            codeVerifier: pending.codeVerifier,
            resource: metadata.resource,
            timeoutMs: timeoutMs(),
          });
        } catch (error) {
          await markFailed(server, GatewayError.isInstance(error) ? error.message : "Code exchange failed.");
          throw error;
        }
        const now = services.now();
        const expiresAt = typeof tokens.expires_in === "number" ? new Date(now.getTime() + tokens.expires_in * 1000) : null;
        const userId = pending.pendingUserId;
        const { token: tokenRow } = await completeMcpServerOAuth(
          services.database,
          {
            organizationId: server.organizationId,
            id: server.id,
            tokens: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token ?? null, tokenType: tokens.token_type, scope: tokens.scope ?? null },
            expiresAt,
            userId,
            grant: {
              name: `${server.name} (OAuth)`,
              prefix: tokens.access_token.slice(0, 6),
              scopes: (tokens.scope ?? metadata.scope ?? "").split(" ").filter((value) => value !== ""),
            },
            now,
          },
          secretBox,
        );
        await recordAuditEvent(services, { request, requestId }, {
          organizationId: server.organizationId,
          actorId: userId,
          action: "mcp_server.oauth_connected",
          targetType: "mcp_server",
          targetId: server.id,
          after: { token_id: tokenRow.id },
        });
        return { status: 200, body: { server_id: server.id, status: "connected", token_id: tokenRow.id, expires_at: iso(expiresAt), object: "mcp.oauth.result" } };
      }),
    }),
    defineRoute({
      method: "post",
      path: "/api/mcp/tokens",
      operationId: "issue_mcp_token",
      summary: "Issue an MCP token",
      description:
        "A token (`gmt_...`) for an MCP client (a desktop assistant, an IDE) to use the gateway's MCP endpoint (`/mcp`): it acts " +
        "as the API key `api_key_id` (that key's project, policies, rate limits and budgets apply; it cannot call the inference " +
        "endpoints) and may be narrowed to one server. The token is answered only this once (only its SHA-256 is stored). Needs " +
        "`api_keys:write` on the key's project. Revoking the token, or its key, ends it within a second on every gateway instance.",
      tag: "MCP",
      access: "api_keys:write",
      body: issueTokenBody,
      exampleBody: { name: "my IDE", api_key_id: "key_example" },
      responses: [{ status: 201, description: "The token, with its secret", schema: issuedTokenSchema }],
      async handler(context) {
        const { principal, body } = context;
        const organizationId = principal.organization.id;
        const key = await getApiKey(services.database, organizationId, body.api_key_id);
        if (key === null || key.revokedAt !== null) {
          throw new GatewayError("invalid_request", { message: "api_key_id does not name an active API key of this organization.", param: "api_key_id" });
        }
        assertKeyProjectAccess(principal, key.projectId);
        const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
        if (expiresAt !== null && expiresAt <= services.now()) {
          throw new GatewayError("invalid_request", { message: "expires_at must be in the future.", param: "expires_at" });
        }
        if (body.server_id !== undefined) await load(organizationId, body.server_id);
        const secret = generateToken(mcpTokenPrefix);
        const row = await createMcpToken(services.database, {
          organizationId,
          apiKeyId: key.id,
          serverId: body.server_id ?? null,
          userId: principal.userId,
          name: body.name,
          prefix: secret.slice(0, mcpTokenPrefix.length + 6),
          tokenHash: hashToken(secret),
          scopes: [],
          expiresAt,
        });
        const after = presentToken(row);
        await auditChange(services, context, { action: "mcp_token.issued", targetType: "mcp_token", targetId: row.id, after });
        return { status: 201, body: { ...after, token: secret }, headers: { "cache-control": "no-store" } };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/mcp/tokens",
      operationId: "list_mcp_tokens",
      summary: "List MCP tokens",
      description:
        "The tokens issued to MCP clients (`kind: issued`) and one record per OAuth grant of an MCP server (`kind: grant`); the " +
        "tokens themselves are never shown. Filters: `server_id`, `status`.",
      tag: "MCP",
      access: "mcp:read",
      query: tokenListQuery,
      responses: [{ status: 200, description: "Tokens, newest first", schema: listObjectSchema(mcpTokenSchema) }],
      async handler({ principal, query }) {
        const rows = await listMcpTokens(services.database, {
          organizationId: principal.organization.id,
          ...(query.server_id ? { serverId: query.server_id } : {}),
          includeRevoked: true,
        });
        const data = rows.map(presentToken).filter((token) => query.status === undefined || token.status === query.status);
        return { status: 200, body: fullList(data) };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/mcp/tokens/{token_id}",
      operationId: "revoke_mcp_token",
      summary: "Revoke an MCP token",
      description:
        "An issued token stops working on every gateway instance within a second (needs `api_keys:write` on its key's project). " +
        "A grant (needs `mcp:write`): the stored tokens of its server are erased (the server shows `disconnected`) and, when the " +
        "authorization server has a revocation endpoint (RFC 7009), the tokens are revoked there too (best effort). " +
        "The record stays with `revoked_at`. Answers 200 with the token; revoking again answers the same record.",
      tag: "MCP",
      access: "api_keys:write",
      params: tokenParams,
      responses: [{ status: 200, description: "The revoked token", schema: mcpTokenSchema }],
      async handler(context) {
        const { principal, params: { token_id } } = context;
        const existing = found(await getMcpToken(services.database, principal.organization.id, token_id), "MCP token");
        if (existing.issued) {
          const key = existing.apiKeyId === null ? null : await getApiKey(services.database, existing.organizationId, existing.apiKeyId);
          if (key !== null) assertKeyProjectAccess(principal, key.projectId);
        } else if (!principal.permissions.has("mcp:write")) {
          throw new GatewayError("permission_denied", { message: "Revoking an MCP server's grant needs the mcp:write permission." });
        }
        if (existing.revokedAt !== null) return { status: 200, body: presentToken(existing) };
        const { token: row, revoked } = await revokeMcpToken(services.database, {
          organizationId: existing.organizationId,
          id: existing.id,
          revokedByUserId: principal.userId,
          now: services.now(),
        });
        if (!revoked) return { status: 200, body: presentToken(row) };
        // An issued token names a server only to narrow it: the server's own grant stays.
        const server = !existing.issued && existing.serverId ? await getMcpServer(services.database, existing.organizationId, existing.serverId) : null;
        if (server !== null && server.authKind === "oauth" && server.hasTokens) {
          const metadata = metadataOf(server);
          const client = await clientOf(server);
          const stored = await getMcpServerTokens(services.database, server.organizationId, server.id, secretBox);
          if (metadata.revocation_endpoint && client && stored) {
            if (stored.refreshToken) {
              await revokeOAuthToken({ revocationEndpoint: metadata.revocation_endpoint, client, token: stored.refreshToken, tokenTypeHint: "refresh_token", timeoutMs: timeoutMs() });
            }
            if (stored.accessToken) {
              await revokeOAuthToken({ revocationEndpoint: metadata.revocation_endpoint, client, token: stored.accessToken, tokenTypeHint: "access_token", timeoutMs: timeoutMs() });
            }
          }
          await clearMcpServerTokens(services.database, server.organizationId, server.id);
        }
        const after = presentToken(row);
        await auditChange(services, context, { action: "mcp_token.revoked", targetType: "mcp_token", targetId: row.id, before: presentToken(existing), after });
        return { status: 200, body: after };
      },
    }),
  ];
}
