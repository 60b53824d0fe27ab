import { generateToken, hashToken } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { deliveryUrl } from "../delivery/destination-url.js";
import {
  buildAuthorizationUrl,
  createPkcePair,
  discoverOAuthMetadata,
  exchangeAuthorizationCode,
  registerOAuthClient,
  revokeOAuthToken,
  type OAuthClient,
} from "../mcp/oauth-client.js";
import { deletedObjectSchema, displayName, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { recordAuditEvent } from "../services/record-audit-event.js";
import { auditChange, found, stringArray, withConflict } from "./resource-helpers.js";

const pendingLifetimeMs = 10 * 60_000;

/** An MCP server as the API shows it (never tokens or client secrets). */
export const mcpServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  transport: z.enum(["streamable_http", "sse"]),
  auth_kind: z.enum(["none", "bearer", "oauth"]),
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

/** An MCP token record (the token itself is stored encrypted on the server; here only metadata). */
export const mcpTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  server_id: z.string().nullable(),
  user_id: z.string().nullable(),
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

interface ServerRow {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  transport: string;
  authKind: string;
  status: string;
  statusMessage: string | null;
  oauthMetadata: unknown;
  oauthClientRegistration: unknown;
  oauthClientSecretCiphertext: string | null;
  tokensCiphertext: string | null;
  tokensExpiresAt: Date | null;
  pendingVerifierCiphertext: string | null;
  pendingRedirectUri: string | null;
  pendingExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface StoredMetadata {
  resource?: string;
  issuer?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  revocation_endpoint?: string;
  scope?: string | null;
  pending_user_id?: string | null;
}

interface StoredRegistration {
  client_id?: string;
  token_endpoint_auth_method?: string;
  redirect_uri?: string;
  preregistered?: boolean;
}

function metadataOf(row: ServerRow): StoredMetadata {
  return typeof row.oauthMetadata === "object" && row.oauthMetadata !== null ? (row.oauthMetadata as StoredMetadata) : {};
}

function registrationOf(row: ServerRow): StoredRegistration {
  return typeof row.oauthClientRegistration === "object" && row.oauthClientRegistration !== null ? (row.oauthClientRegistration as StoredRegistration) : {};
}

const createBody = z
  .object({
    name: displayName,
    url: deliveryUrl.describe("The MCP server endpoint (https; http only for localhost)"),
    transport: z.enum(["streamable_http", "sse"]).default("streamable_http"),
    auth_kind: z.enum(["none", "bearer", "oauth"]).default("oauth"),
    bearer_token: z.string().min(1).max(10_000).optional().describe("For auth_kind bearer; stored encrypted"),
    oauth_client_id: z.string().min(1).max(500).optional().describe("A pre-registered OAuth client, for servers without dynamic registration"),
    oauth_client_secret: z.string().min(1).max(2000).optional(),
  })
  .refine((value) => value.auth_kind !== "bearer" || value.bearer_token !== undefined, { message: "bearer_token is required for auth_kind bearer", path: ["bearer_token"] });
const updateBody = z
  .object({
    name: displayName,
    url: deliveryUrl,
    transport: z.enum(["streamable_http", "sse"]),
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

/** MCP routes: servers (`/api/mcp/servers`), the OAuth flow, and tokens (`/api/mcp/tokens`). */
export function createMcpRoutes(services: DashboardServices): DashboardRoute[] {
  const redirectUri = () => `${services.settings.publicUrl}/api/mcp/oauth/callback`;
  const timeoutMs = () => services.settings.deliveryTimeoutMs;
  const presentServer = (row: ServerRow): z.infer<typeof mcpServerSchema> => ({
    id: row.id,
    name: row.name,
    url: row.url,
    transport: row.transport as "streamable_http" | "sse",
    auth_kind: row.authKind as "none" | "bearer" | "oauth",
    status: row.status as "pending" | "connected" | "error" | "disconnected",
    status_message: row.statusMessage,
    has_credentials: row.tokensCiphertext !== null,
    token_expires_at: iso(row.tokensExpiresAt),
    oauth_client_id: registrationOf(row).client_id ?? null,
    authorization_server: metadataOf(row).issuer ?? null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "mcp.server",
  });
  const presentToken = (row: {
    id: string;
    name: string;
    serverId: string | null;
    userId: string | null;
    prefix: string;
    scopes: unknown;
    createdAt: Date;
    expiresAt: Date | null;
    lastUsedAt: Date | null;
    revokedAt: Date | null;
    revokedByUserId: string | null;
  }): z.infer<typeof mcpTokenSchema> => ({
    id: row.id,
    name: row.name,
    server_id: row.serverId,
    user_id: row.userId,
    prefix: row.prefix,
    scopes: stringArray(row.scopes),
    status: row.revokedAt !== null ? "revoked" : row.expiresAt !== null && row.expiresAt <= services.now() ? "expired" : "active",
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
    revoked_at: iso(row.revokedAt),
    revoked_by_user_id: row.revokedByUserId,
    object: "mcp.token",
  });
  const load = (organizationId: string, id: string) =>
    services.prisma.mcpServer.findFirst({ where: { id, organizationId } }).then((row) => found(row, "MCP server"));
  const conflict = "An MCP server with this name already exists.";
  const clientOf = (row: ServerRow): OAuthClient | null => {
    const registration = registrationOf(row);
    if (!registration.client_id) return null;
    return {
      clientId: registration.client_id,
      clientSecret: row.oauthClientSecretCiphertext ? services.secrets.decrypt(row.oauthClientSecretCiphertext) : null,
      tokenEndpointAuthMethod: registration.token_endpoint_auth_method ?? "none",
      registration: registration as Record<string, unknown>,
    };
  };

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
            services.prisma.mcpServer.create({
              data: {
                organizationId: principal.organization.id,
                name: body.name,
                url: body.url,
                transport: body.transport,
                authKind: body.auth_kind,
                status: body.auth_kind === "oauth" ? "disconnected" : "connected",
                tokensCiphertext: body.auth_kind === "bearer" && body.bearer_token ? services.secrets.encrypt(JSON.stringify({ access_token: body.bearer_token, token_type: "Bearer" })) : null,
                ...(body.oauth_client_id
                  ? {
                      oauthClientRegistration: { client_id: body.oauth_client_id, token_endpoint_auth_method: body.oauth_client_secret ? "client_secret_basic" : "none", preregistered: true },
                      oauthClientSecretCiphertext: body.oauth_client_secret ? services.secrets.encrypt(body.oauth_client_secret) : null,
                    }
                  : {}),
                createdByUserId: principal.userId,
              },
            }),
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
        const rows = await services.prisma.mcpServer.findMany({ where: { organizationId: principal.organization.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
        return { status: 200, body: fullList(rows.map(presentServer)) };
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
      exampleBody: { name: "tickets (prod)" },
      responses: [{ status: 200, description: "The server", schema: mcpServerSchema }],
      async handler(context) {
        const { principal, params: { server_id }, body } = context;
        const existing = await load(principal.organization.id, server_id);
        if (body.bearer_token !== undefined && existing.authKind !== "bearer") {
          throw new GatewayError("invalid_request", { message: "bearer_token applies only to auth_kind bearer.", param: "bearer_token" });
        }
        const urlChanged = body.url !== undefined && body.url !== existing.url;
        const row = await withConflict(
          () =>
            services.prisma.mcpServer.update({
              where: { id: existing.id },
              data: {
                ...(body.name !== undefined ? { name: body.name } : {}),
                ...(body.transport !== undefined ? { transport: body.transport } : {}),
                ...(body.url !== undefined ? { url: body.url } : {}),
                ...(urlChanged && existing.authKind === "oauth"
                  ? {
                      oauthMetadata: {},
                      ...(registrationOf(existing).preregistered ? {} : { oauthClientRegistration: {}, oauthClientSecretCiphertext: null }),
                      tokensCiphertext: null,
                      tokensExpiresAt: null,
                      status: "disconnected",
                      statusMessage: null,
                      pendingStateHash: null,
                    }
                  : {}),
                ...(body.bearer_token !== undefined
                  ? { tokensCiphertext: services.secrets.encrypt(JSON.stringify({ access_token: body.bearer_token, token_type: "Bearer" })), status: "connected" }
                  : {}),
              },
            }),
          conflict,
          "name",
        );
        if (urlChanged && existing.authKind === "oauth") {
          await services.prisma.mcpToken.updateMany({ where: { serverId: existing.id, revokedAt: null }, data: { revokedAt: services.now(), revokedByUserId: principal.userId } });
        }
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
        await services.prisma.mcpServer.delete({ where: { id: existing.id } });
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
        "Discovery failures answer 502 `upstream_error`.",
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
          discovered = await discoverOAuthMetadata({ serverUrl: existing.url, timeoutMs: timeoutMs() });
        } catch (error) {
          const message = GatewayError.isInstance(error) ? error.message : "OAuth discovery failed.";
          await services.prisma.mcpServer.update({ where: { id: existing.id }, data: { status: "error", statusMessage: message } });
          throw error;
        }
        const authorizationServer = discovered.authorizationServer;
        const scope = discovered.protectedResource.scopes_supported?.join(" ") || null;
        let client = clientOf(existing);
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
          pending_user_id: principal.userId,
        };
        await services.prisma.mcpServer.update({
          where: { id: existing.id },
          data: {
            status: "pending",
            statusMessage: null,
            oauthMetadata: metadata as object,
            oauthClientRegistration: {
              ...client.registration,
              client_id: client.clientId,
              token_endpoint_auth_method: client.tokenEndpointAuthMethod,
              redirect_uri: redirectUri(),
              ...(registration.preregistered && client.clientId === registration.client_id ? { preregistered: true } : {}),
            },
            oauthClientSecretCiphertext: client.clientSecret ? services.secrets.encrypt(client.clientSecret) : null,
            pendingStateHash: hashToken(state),
            pendingVerifierCiphertext: services.secrets.encrypt(pkce.verifier),
            pendingRedirectUri: redirectUri(),
            pendingExpiresAt: expiresAt,
          },
        });
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
        "encrypted, records an MCP token and answers the result. Unknown or expired state answers 404.",
      tag: "MCP",
      access: "public",
      query: callbackQuery,
      responses: [{ status: 200, description: "Connected", schema: oauthResultSchema }],
      async handler({ request, requestId, query }) {
        const server = await services.prisma.mcpServer.findUnique({ where: { pendingStateHash: hashToken(query.state) } });
        if (server === null || server.pendingExpiresAt === null || server.pendingExpiresAt <= services.now() || !server.pendingVerifierCiphertext) {
          throw new GatewayError("not_found", { message: "Unknown or expired OAuth state; start the authorization again." });
        }
        // Single use: forget the pending state before anything else.
        await services.prisma.mcpServer.update({
          where: { id: server.id },
          data: { pendingStateHash: null, pendingVerifierCiphertext: null, pendingExpiresAt: null, pendingRedirectUri: null },
        });
        const metadata = metadataOf(server);
        if (query.error || !query.code) {
          const message = `Authorization refused: ${query.error ?? "no code"}.`;
          await services.prisma.mcpServer.update({ where: { id: server.id }, data: { status: "error", statusMessage: message } });
          throw new GatewayError("invalid_request", { message, details: { oauth_error: query.error ?? null } });
        }
        const client = clientOf(server);
        if (client === null || !metadata.token_endpoint || !metadata.resource) throw new GatewayError("not_found", { message: "The authorization is no longer pending." });
        let tokens;
        try {
          tokens = await exchangeAuthorizationCode({
            tokenEndpoint: metadata.token_endpoint,
            client,
            code: query.code,
            redirectUri: server.pendingRedirectUri ?? redirectUri(),
            codeVerifier: services.secrets.decrypt(server.pendingVerifierCiphertext),
            resource: metadata.resource,
            timeoutMs: timeoutMs(),
          });
        } catch (error) {
          await services.prisma.mcpServer.update({ where: { id: server.id }, data: { status: "error", statusMessage: GatewayError.isInstance(error) ? error.message : "Code exchange failed." } });
          throw error;
        }
        const now = services.now();
        const expiresAt = typeof tokens.expires_in === "number" ? new Date(now.getTime() + tokens.expires_in * 1000) : null;
        const userId = metadata.pending_user_id ?? null;
        await services.prisma.mcpToken.updateMany({ where: { serverId: server.id, revokedAt: null }, data: { revokedAt: now, revokedByUserId: userId } });
        await services.prisma.mcpServer.update({
          where: { id: server.id },
          data: {
            status: "connected",
            statusMessage: null,
            tokensCiphertext: services.secrets.encrypt(
              JSON.stringify({ access_token: tokens.access_token, refresh_token: tokens.refresh_token ?? null, token_type: tokens.token_type, scope: tokens.scope ?? null }),
            ),
            tokensExpiresAt: expiresAt,
            oauthMetadata: { ...metadata, pending_user_id: null } as object,
          },
        });
        const tokenRow = await services.prisma.mcpToken.create({
          data: {
            organizationId: server.organizationId,
            serverId: server.id,
            userId,
            name: `${server.name} (OAuth)`,
            prefix: tokens.access_token.slice(0, 6),
            tokenHash: hashToken(`${server.id}:${tokens.access_token}:${now.getTime()}`),
            scopes: (tokens.scope ?? metadata.scope ?? "").split(" ").filter((value) => value !== ""),
            expiresAt,
          },
        });
        await recordAuditEvent(services, { request, requestId }, {
          organizationId: server.organizationId,
          actorId: userId,
          action: "mcp_server.oauth_connected",
          targetType: "mcp_server",
          targetId: server.id,
          after: { token_id: tokenRow.id },
        });
        return { status: 200, body: { server_id: server.id, status: "connected", token_id: tokenRow.id, expires_at: iso(expiresAt), object: "mcp.oauth.result" } };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/mcp/tokens",
      operationId: "list_mcp_tokens",
      summary: "List MCP tokens",
      description: "One record per OAuth grant of an MCP server (the tokens themselves are never shown). Filters: `server_id`, `status`.",
      tag: "MCP",
      access: "mcp:read",
      query: tokenListQuery,
      responses: [{ status: 200, description: "Tokens, newest first", schema: listObjectSchema(mcpTokenSchema) }],
      async handler({ principal, query }) {
        const rows = await services.prisma.mcpToken.findMany({
          where: { organizationId: principal.organization.id, ...(query.server_id ? { serverId: query.server_id } : {}) },
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
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
        "Revokes the grant: the stored tokens of its server are erased (the server shows `disconnected`) and, when the " +
        "authorization server has a revocation endpoint (RFC 7009), the tokens are revoked there too (best effort). " +
        "The record stays with `revoked_at`. Answers 200 with the token; revoking again answers the same record.",
      tag: "MCP",
      access: "mcp:write",
      params: tokenParams,
      responses: [{ status: 200, description: "The revoked token", schema: mcpTokenSchema }],
      async handler(context) {
        const { principal, params: { token_id } } = context;
        const existing = found(await services.prisma.mcpToken.findFirst({ where: { id: token_id, organizationId: principal.organization.id } }), "MCP token");
        if (existing.revokedAt !== null) return { status: 200, body: presentToken(existing) };
        const row = await services.prisma.mcpToken.update({ where: { id: existing.id }, data: { revokedAt: services.now(), revokedByUserId: principal.userId } });
        if (existing.serverId) {
          const server = await services.prisma.mcpServer.findUnique({ where: { id: existing.serverId } });
          if (server !== null && server.authKind === "oauth" && server.tokensCiphertext) {
            const metadata = metadataOf(server);
            const client = clientOf(server);
            if (metadata.revocation_endpoint && client) {
              const stored = JSON.parse(services.secrets.decrypt(server.tokensCiphertext)) as { access_token?: string; refresh_token?: string | null };
              if (stored.refresh_token) {
                await revokeOAuthToken({ revocationEndpoint: metadata.revocation_endpoint, client, token: stored.refresh_token, tokenTypeHint: "refresh_token", timeoutMs: timeoutMs() });
              }
              if (stored.access_token) {
                await revokeOAuthToken({ revocationEndpoint: metadata.revocation_endpoint, client, token: stored.access_token, tokenTypeHint: "access_token", timeoutMs: timeoutMs() });
              }
            }
            await services.prisma.mcpServer.update({ where: { id: server.id }, data: { tokensCiphertext: null, tokensExpiresAt: null, status: "disconnected" } });
          }
        }
        const after = presentToken(row);
        await auditChange(services, context, { action: "mcp_token.revoked", targetType: "mcp_token", targetId: row.id, before: presentToken(existing), after });
        return { status: 200, body: after };
      },
    }),
  ];
}
