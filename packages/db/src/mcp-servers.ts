import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { MCP_AUTH_KINDS, MCP_SERVER_STATUSES, MCP_TRANSPORTS } from "./enums.js";
import { requireOneOf, translateWrite } from "./repository-support.js";
import type { SecretBox } from "./secret-box.js";

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

/** Tokens of an MCP server (decrypted, in memory only). */
export interface McpServerTokens {
  accessToken: string;
  refreshToken?: string | null;
  tokenType?: string | null;
  scope?: string | null;
}

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
  createdByUserId?: string | null;
}

export async function createMcpServer(db: DatabaseClient, input: McpServerInput, options: { secretBox: SecretBox }): Promise<McpServerRecord> {
  const data = {
    organizationId: input.organizationId,
    name: input.name,
    url: validateUrl(input.url),
    transport: requireOneOf(MCP_TRANSPORTS, input.transport, "transport"),
    authKind: requireOneOf(MCP_AUTH_KINDS, input.authKind, "auth_kind"),
    status: input.authKind === "oauth" ? "pending" : "disconnected",
    tokensCiphertext: input.bearerToken ? options.secretBox.encrypt(JSON.stringify({ accessToken: input.bearerToken, tokenType: "Bearer" })) : null,
    createdByUserId: input.createdByUserId ?? null,
  };
  return toRecord(await translateWrite("MCP server", () => db.prisma.mcpServer.create({ data })));
}

export async function listMcpServers(db: DatabaseClient, organizationId: string): Promise<McpServerRecord[]> {
  return (await db.prisma.mcpServer.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } })).map(toRecord);
}

export async function getMcpServer(db: DatabaseClient, organizationId: string, id: string): Promise<McpServerRecord | null> {
  const row = await db.prisma.mcpServer.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

export async function updateMcpServer(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: { name?: string; url?: string; transport?: string; authKind?: string; status?: string; statusMessage?: string | null; bearerToken?: string | null },
  options: { secretBox: SecretBox },
): Promise<McpServerRecord> {
  const data: Record<string, unknown> = {};
  if (changes.name !== undefined) data.name = changes.name;
  if (changes.url !== undefined) data.url = validateUrl(changes.url);
  if (changes.transport !== undefined) data.transport = requireOneOf(MCP_TRANSPORTS, changes.transport, "transport");
  if (changes.authKind !== undefined) data.authKind = requireOneOf(MCP_AUTH_KINDS, changes.authKind, "auth_kind");
  if (changes.status !== undefined) data.status = requireOneOf(MCP_SERVER_STATUSES, changes.status, "status");
  if (changes.statusMessage !== undefined) data.statusMessage = changes.statusMessage;
  if (changes.bearerToken !== undefined) {
    data.tokensCiphertext = changes.bearerToken === null ? null : options.secretBox.encrypt(JSON.stringify({ accessToken: changes.bearerToken, tokenType: "Bearer" }));
  }
  return toRecord(await translateWrite("MCP server", () => db.prisma.mcpServer.update({ where: { id, organizationId }, data })));
}

export async function deleteMcpServer(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("MCP server", () => db.prisma.mcpServer.delete({ where: { id, organizationId } }));
}

/**
 * Starts an OAuth flow: stores the discovered metadata, the client registration (its secret
 * encrypted separately), the hash of `state` and the encrypted PKCE verifier. Status -> "pending".
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
  };
  if (input.clientSecret !== undefined) data.oauthClientSecretCiphertext = input.clientSecret === null ? null : options.secretBox.encrypt(input.clientSecret);
  return toRecord(await translateWrite("MCP server", () => db.prisma.mcpServer.update({ where: { id: input.id, organizationId: input.organizationId }, data })));
}

/** What the OAuth callback needs: the server and its decrypted PKCE verifier and client secret. */
export interface PendingMcpOAuth {
  server: McpServerRecord;
  codeVerifier: string;
  redirectUri: string;
  clientSecret: string | null;
}

/**
 * Claims a pending flow by the hash of `state` (single use: the pending data is cleared).
 * null when unknown or expired.
 */
export async function claimMcpServerOAuthState(db: DatabaseClient, stateHash: string, options: { secretBox: SecretBox; now?: Date }): Promise<PendingMcpOAuth | null> {
  const now = options.now ?? new Date();
  const row = await db.prisma.mcpServer.findUnique({ where: { pendingStateHash: stateHash } });
  if (!row || !row.pendingVerifierCiphertext || !row.pendingRedirectUri) return null;
  const claimed = await db.prisma.mcpServer.updateMany({
    where: { id: row.id, pendingStateHash: stateHash },
    data: { pendingStateHash: null, pendingVerifierCiphertext: null, pendingRedirectUri: null, pendingExpiresAt: null },
  });
  if (claimed.count === 0 || (row.pendingExpiresAt !== null && row.pendingExpiresAt <= now)) return null;
  return {
    server: toRecord(row),
    codeVerifier: options.secretBox.decrypt(row.pendingVerifierCiphertext),
    redirectUri: row.pendingRedirectUri,
    clientSecret: row.oauthClientSecretCiphertext ? options.secretBox.decrypt(row.oauthClientSecretCiphertext) : null,
  };
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
        data: { tokensCiphertext: options.secretBox.encrypt(JSON.stringify(input.tokens)), tokensExpiresAt: input.expiresAt, status: "connected", statusMessage: null },
      }),
    ),
  );
}

/** The decrypted tokens of a server, or null. */
export async function getMcpServerTokens(db: DatabaseClient, organizationId: string, id: string, options: { secretBox: SecretBox }): Promise<McpServerTokens | null> {
  const row = await db.prisma.mcpServer.findFirst({ where: { id, organizationId }, select: { tokensCiphertext: true } });
  return row?.tokensCiphertext ? (JSON.parse(options.secretBox.decrypt(row.tokensCiphertext)) as McpServerTokens) : null;
}
