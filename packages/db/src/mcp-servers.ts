import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { MCP_AUTH_KINDS, MCP_SERVER_STATUSES, MCP_TRANSPORTS } from "./enums.js";
import { requireOneOf, translateWrite } from "./repository-support.js";
import { toMcpTokenRecord, type McpTokenRecord } from "./mcp-tokens.js";
import type { SecretBox } from "./secret-box.js";
import { decodeMcpServerTokens, encodeMcpServerTokens, type McpServerTokens } from "./mcp-server-grants.js";

/** An MCP server as the dashboard sees it (no tokens, no secrets, no pending PKCE data). */
export interface McpServerRecord {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  transport: (typeof MCP_TRANSPORTS)[number];
  authKind: (typeof MCP_AUTH_KINDS)[number];
  status: (typeof MCP_SERVER_STATUSES)[number];
  statusMessage: string | null;
  oauthMetadata: unknown;
  oauthClientRegistration: unknown;
  hasTokens: boolean;
  tokensExpiresAt: Date | null;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type { McpServerTokens } from "./mcp-server-grants.js";

const bearerTokens = (token: string, secretBox: SecretBox) => encodeMcpServerTokens({ accessToken: token, tokenType: "Bearer" }, secretBox);

type Transaction = Parameters<Parameters<DatabaseClient["prisma"]["$transaction"]>[0]>[0];

/** Revokes the active token records (grants) of a server inside a transaction. */
async function revokeServerTokens(transaction: Transaction, serverId: string, input: { revokedByUserId: string | null; now: Date }): Promise<void> {
  await transaction.mcpToken.updateMany({ where: { serverId, revokedAt: null }, data: { revokedAt: input.now, revokedByUserId: input.revokedByUserId } });
}

/** The pending-flow columns, all cleared. */
const noPendingFlow = { pendingStateHash: null, pendingVerifierCiphertext: null, pendingRedirectUri: null, pendingExpiresAt: null, pendingUserId: null };

type Row = Awaited<ReturnType<DatabaseClient["prisma"]["mcpServer"]["findFirstOrThrow"]>>;
const toRecord = (row: Row): McpServerRecord => ({
  id: row.id,
  organizationId: row.organizationId,
  name: row.name,
  url: row.url,
  transport: requireOneOf(MCP_TRANSPORTS, row.transport, "transport"),
  authKind: requireOneOf(MCP_AUTH_KINDS, row.authKind, "auth_kind"),
  status: requireOneOf(MCP_SERVER_STATUSES, row.status, "status"),
  statusMessage: row.statusMessage,
  oauthMetadata: row.oauthMetadata ?? null,
  oauthClientRegistration: row.oauthClientRegistration ?? null,
  hasTokens: row.tokensCiphertext !== null,
  tokensExpiresAt: row.tokensExpiresAt,
  createdByUserId: row.createdByUserId,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

function validateUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return url;
  } catch {
    // fall through
  }
  throw new GatewayError("invalid_request", { message: "url must be an http(s) URL", param: "url" });
}

export interface McpServerInput {
  organizationId: string;
  name: string;
  url: string;
  transport: string;
  authKind: string;
  /** For authKind "bearer": a static token, stored encrypted. */
  bearerToken?: string | null;
  /** For authKind "oauth" without dynamic registration: a pre-registered client (secret stored encrypted). */
  oauthClient?: { clientId: string; clientSecret?: string | null } | null;
  createdByUserId?: string | null;
}

/**
 * Registers an MCP server. An OAuth server starts "disconnected" (until its authorization
 * finishes); a server with a bearer token or without authentication is "connected".
 */
export async function createMcpServer(db: DatabaseClient, input: McpServerInput, options: { secretBox: SecretBox }): Promise<McpServerRecord> {
  const authKind = requireOneOf(MCP_AUTH_KINDS, input.authKind, "auth_kind");
  const client = input.oauthClient ?? null;
  const data = {
    organizationId: input.organizationId,
    name: input.name,
    url: validateUrl(input.url),
    transport: requireOneOf(MCP_TRANSPORTS, input.transport, "transport"),
    authKind,
    status: authKind === "oauth" ? "disconnected" : "connected",
    tokensCiphertext: authKind === "bearer" && input.bearerToken ? bearerTokens(input.bearerToken, options.secretBox) : null,
    ...(client
      ? {
          oauthClientRegistration: { client_id: client.clientId, token_endpoint_auth_method: client.clientSecret ? "client_secret_basic" : "none", preregistered: true },
          oauthClientSecretCiphertext: client.clientSecret ? options.secretBox.encrypt(client.clientSecret) : null,
        }
      : {}),
    createdByUserId: input.createdByUserId ?? null,
  };
  return toRecord(await translateWrite("MCP server", () => db.prisma.mcpServer.create({ data })));
}

/** Servers of an organization, oldest first. */
export async function listMcpServers(db: DatabaseClient, organizationId: string): Promise<McpServerRecord[]> {
  return (await db.prisma.mcpServer.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

export async function getMcpServer(db: DatabaseClient, organizationId: string, id: string): Promise<McpServerRecord | null> {
  const row = await db.prisma.mcpServer.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

/**
 * Updates a server. A new `url` of an OAuth server forgets what belonged to the old one: the
 * discovered metadata, a dynamically registered client (a pre-registered one stays), the
 * tokens and any pending flow (status "disconnected"), and revokes its MCP token records
 * (`actorUserId` recorded as revoker). A new `bearerToken` (bearer servers only, else 400)
 * marks the server "connected"; null clears it. 404 when missing, 409 on a taken name.
 */
export async function updateMcpServer(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: { name?: string; url?: string; transport?: string; authKind?: string; status?: string; statusMessage?: string | null; bearerToken?: string | null },
  options: { secretBox: SecretBox; actorUserId?: string | null; now?: Date },
): Promise<McpServerRecord> {
  return db.prisma.$transaction(async (transaction) => {
    const existing = await transaction.mcpServer.findFirst({ where: { id, organizationId } });
    if (!existing) throw new GatewayError("not_found", { message: "MCP server not found" });
    const data: Record<string, unknown> = {};
    if (changes.name !== undefined) data.name = changes.name;
    if (changes.url !== undefined) data.url = validateUrl(changes.url);
    if (changes.transport !== undefined) data.transport = requireOneOf(MCP_TRANSPORTS, changes.transport, "transport");
    const authKind = changes.authKind === undefined ? existing.authKind : requireOneOf(MCP_AUTH_KINDS, changes.authKind, "auth_kind");
    if (changes.authKind !== undefined) data.authKind = authKind;
    if (changes.status !== undefined) data.status = requireOneOf(MCP_SERVER_STATUSES, changes.status, "status");
    if (changes.statusMessage !== undefined) data.statusMessage = changes.statusMessage;
    const urlChanged = changes.url !== undefined && changes.url !== existing.url;
    if (urlChanged && authKind === "oauth") {
      const registration = existing.oauthClientRegistration as { preregistered?: boolean } | null;
      Object.assign(data, { oauthMetadata: {}, tokensCiphertext: null, tokensExpiresAt: null, status: "disconnected", statusMessage: null, ...noPendingFlow });
      if (!registration?.preregistered) Object.assign(data, { oauthClientRegistration: {}, oauthClientSecretCiphertext: null });
      await revokeServerTokens(transaction, existing.id, { revokedByUserId: options.actorUserId ?? null, now: options.now ?? new Date() });
    }
    if (changes.bearerToken !== undefined) {
      if (authKind !== "bearer") throw new GatewayError("invalid_request", { message: "bearer_token applies only to auth_kind bearer.", param: "bearer_token" });
      data.tokensCiphertext = changes.bearerToken === null ? null : bearerTokens(changes.bearerToken, options.secretBox);
      if (changes.bearerToken !== null) data.status = "connected";
    }
    return toRecord(await translateWrite("MCP server", () => transaction.mcpServer.update({ where: { id: existing.id }, data })));
  });
}

export async function deleteMcpServer(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("MCP server", () => db.prisma.mcpServer.delete({ where: { id, organizationId } }));
}

/**
 * Starts an OAuth flow: stores the discovered metadata, the client registration (its secret
 * encrypted separately; null removes it), the hash of `state`, the encrypted PKCE verifier and
 * the user the grant will be recorded for. Status -> "pending".
 */
export async function beginMcpServerOAuth(
  db: DatabaseClient,
  input: {
    organizationId: string;
    id: string;
    stateHash: string;
    codeVerifier: string;
    redirectUri: string;
    expiresAt: Date;
    metadata: unknown;
    clientRegistration: unknown;
    clientSecret?: string | null;
    pendingUserId?: string | null;
  },
  options: { secretBox: SecretBox },
): Promise<McpServerRecord> {
  const data: Record<string, unknown> = {
    status: "pending",
    statusMessage: null,
    oauthMetadata: input.metadata as object,
    oauthClientRegistration: input.clientRegistration as object,
    pendingStateHash: input.stateHash,
    pendingVerifierCiphertext: options.secretBox.encrypt(input.codeVerifier),
    pendingRedirectUri: input.redirectUri,
    pendingExpiresAt: input.expiresAt,
    pendingUserId: input.pendingUserId ?? null,
  };
  if (input.clientSecret !== undefined) data.oauthClientSecretCiphertext = input.clientSecret === null ? null : options.secretBox.encrypt(input.clientSecret);
  return toRecord(await translateWrite("MCP server", () => db.prisma.mcpServer.update({ where: { id: input.id, organizationId: input.organizationId }, data })));
}

/** What the OAuth callback needs: the server, its decrypted PKCE verifier and client secret, and who started the flow. */
export interface PendingMcpOAuth {
  server: McpServerRecord;
  codeVerifier: string;
  redirectUri: string;
  clientSecret: string | null;
  /** The user who started the flow (null when unknown or since deleted). */
  pendingUserId: string | null;
}

/**
 * Claims a pending flow by the hash of `state` (single use: the pending data is cleared).
 * null when unknown or expired at `now`.
 */
export async function claimMcpServerOAuthState(db: DatabaseClient, stateHash: string, options: { secretBox: SecretBox; now?: Date }): Promise<PendingMcpOAuth | null> {
  const now = options.now ?? new Date();
  const row = await db.prisma.mcpServer.findUnique({ where: { pendingStateHash: stateHash } });
  if (!row || !row.pendingVerifierCiphertext || !row.pendingRedirectUri) return null;
  const claimed = await db.prisma.mcpServer.updateMany({ where: { id: row.id, pendingStateHash: stateHash }, data: noPendingFlow });
  if (claimed.count === 0 || row.pendingExpiresAt === null || row.pendingExpiresAt <= now) return null;
  return {
    server: toRecord(row),
    codeVerifier: options.secretBox.decrypt(row.pendingVerifierCiphertext),
    redirectUri: row.pendingRedirectUri,
    clientSecret: row.oauthClientSecretCiphertext ? options.secretBox.decrypt(row.oauthClientSecretCiphertext) : null,
    pendingUserId: row.pendingUserId,
  };
}

/**
 * Finishes an OAuth flow in one transaction: the server's earlier grants are revoked (one active
 * grant per server, revoker `userId`), the tokens are stored encrypted (status "connected") and
 * the grant is recorded as an MCP token for `userId` (no token hash: the gateway issued no token).
 */
export async function completeMcpServerOAuth(
  db: DatabaseClient,
  input: {
    organizationId: string;
    id: string;
    tokens: McpServerTokens;
    expiresAt: Date | null;
    userId: string | null;
    grant: { name: string; prefix: string; scopes: string[] };
    now?: Date;
  },
  options: { secretBox: SecretBox },
): Promise<{ server: McpServerRecord; token: McpTokenRecord }> {
  const now = input.now ?? new Date();
  return db.prisma.$transaction(async (transaction) => {
    const existing = await transaction.mcpServer.findFirst({ where: { id: input.id, organizationId: input.organizationId }, select: { id: true } });
    if (!existing) throw new GatewayError("not_found", { message: "MCP server not found" });
    await revokeServerTokens(transaction, existing.id, { revokedByUserId: input.userId, now });
    const server = await transaction.mcpServer.update({
      where: { id: existing.id },
      data: { tokensCiphertext: encodeMcpServerTokens(input.tokens, options.secretBox), tokensExpiresAt: input.expiresAt, status: "connected", statusMessage: null },
    });
    const token = await transaction.mcpToken.create({
      data: {
        organizationId: input.organizationId,
        serverId: existing.id,
        userId: input.userId,
        name: input.grant.name,
        prefix: input.grant.prefix,
        tokenHash: null,
        scopes: input.grant.scopes,
        expiresAt: input.expiresAt,
        createdAt: now,
      },
    });
    return { server: toRecord(server), token: toMcpTokenRecord(token) };
  });
}

/** Stores tokens (encrypted) and marks the server connected. */
export async function storeMcpServerTokens(
  db: DatabaseClient,
  input: { organizationId: string; id: string; tokens: McpServerTokens; expiresAt: Date | null },
  options: { secretBox: SecretBox },
): Promise<McpServerRecord> {
  return toRecord(
    await translateWrite("MCP server", () =>
      db.prisma.mcpServer.update({
        where: { id: input.id, organizationId: input.organizationId },
        data: { tokensCiphertext: encodeMcpServerTokens(input.tokens, options.secretBox), tokensExpiresAt: input.expiresAt, status: "connected", statusMessage: null },
      }),
    ),
  );
}

/** Erases the stored tokens of a server (status "disconnected"). 404 when missing. */
export async function clearMcpServerTokens(db: DatabaseClient, organizationId: string, id: string): Promise<McpServerRecord> {
  return toRecord(
    await translateWrite("MCP server", () =>
      db.prisma.mcpServer.update({ where: { id, organizationId }, data: { tokensCiphertext: null, tokensExpiresAt: null, status: "disconnected" } }),
    ),
  );
}

/** The decrypted tokens of a server, or null. */
export async function getMcpServerTokens(db: DatabaseClient, organizationId: string, id: string, options: { secretBox: SecretBox }): Promise<McpServerTokens | null> {
  const row = await db.prisma.mcpServer.findFirst({ where: { id, organizationId }, select: { tokensCiphertext: true } });
  return row?.tokensCiphertext ? decodeMcpServerTokens(row.tokensCiphertext, options.secretBox) : null;
}

/** The decrypted OAuth client secret of a server (for token requests), or null. */
export async function getMcpServerClientSecret(db: DatabaseClient, organizationId: string, id: string, options: { secretBox: SecretBox }): Promise<string | null> {
  const row = await db.prisma.mcpServer.findFirst({ where: { id, organizationId }, select: { oauthClientSecretCiphertext: true } });
  return row?.oauthClientSecretCiphertext ? options.secretBox.decrypt(row.oauthClientSecretCiphertext) : null;
}
