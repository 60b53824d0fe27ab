import type { SecretBox } from "./secret-box.js";
import { type SqlClient, sqlDate, sqlJson, sqlNullableString, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";

/** Tokens of an MCP server (decrypted, in memory only). */
export interface McpServerTokens {
  accessToken: string;
  refreshToken?: string | null;
  tokenType?: string | null;
  scope?: string | null;
}

/** Stored (encrypted) with the OAuth token response's field names (RFC 6749 section 5.1). */
export function encodeMcpServerTokens(tokens: McpServerTokens, secretBox: SecretBox): string {
  return secretBox.encrypt(
    JSON.stringify({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken ?? null, token_type: tokens.tokenType ?? null, scope: tokens.scope ?? null }),
  );
}

/** Reads stored tokens (also the camelCase layout older rows may carry). */
export function decodeMcpServerTokens(ciphertext: string, secretBox: SecretBox): McpServerTokens {
  const stored = JSON.parse(secretBox.decrypt(ciphertext)) as Record<string, string | null | undefined>;
  const text = (snake: string, camel: string): string | null => stored[snake] ?? stored[camel] ?? null;
  return { accessToken: text("access_token", "accessToken") ?? "", refreshToken: text("refresh_token", "refreshToken"), tokenType: text("token_type", "tokenType"), scope: text("scope", "scope") };
}

/** What refreshing an MCP server's OAuth grant needs, read fresh from its row. */
export interface McpServerGrant {
  serverId: string;
  organizationId: string;
  name: string;
  authKind: string;
  /**
   * The stored ciphertext the tokens were read from: a refresh stores its result only while the
   * row still holds it (another instance may have refreshed in between).
   */
  tokensCiphertext: string | null;
  tokens: McpServerTokens | null;
  expiresAt: Date | null;
  /** From the discovery the dashboard stored: the token endpoint and the RFC 8707 resource. */
  tokenEndpoint: string | null;
  resource: string | null;
  /** The OAuth client the grant was issued to (its secret decrypted), or null. */
  client: { clientId: string; clientSecret: string | null; tokenEndpointAuthMethod: string } | null;
}

/**
 * Reads an MCP server's grant on the raw driver (no Prisma: the gateway refreshes grants while
 * it serves): the decrypted tokens, the token endpoint and the client. Null when the server is gone.
 */
export async function readMcpServerGrant(db: SqlClient, serverId: string, options: { secretBox: SecretBox }): Promise<McpServerGrant | null> {
  const rows = await db.queryStatement({
    sql: `SELECT "id", "organization_id", "name", "auth_kind", "tokens_ciphertext", "tokens_expires_at", "oauth_metadata", "oauth_client_registration", "oauth_client_secret_ciphertext" FROM "mcp_servers" WHERE "id" = ${sqlPlaceholder(db.provider, 1)}`,
    args: [serverId],
  });
  const row = rows[0];
  if (row === undefined) return null;
  const tokensCiphertext = sqlNullableString(row.tokens_ciphertext);
  const metadata = jsonObject(row.oauth_metadata);
  const registration = jsonObject(row.oauth_client_registration);
  const clientSecretCiphertext = sqlNullableString(row.oauth_client_secret_ciphertext);
  const clientId = typeof registration.client_id === "string" ? registration.client_id : null;
  return {
    serverId: String(row.id),
    organizationId: String(row.organization_id),
    name: String(row.name),
    authKind: String(row.auth_kind),
    tokensCiphertext,
    tokens: tokensCiphertext === null ? null : decodeMcpServerTokens(tokensCiphertext, options.secretBox),
    expiresAt: sqlDate(row.tokens_expires_at),
    tokenEndpoint: typeof metadata.token_endpoint === "string" ? metadata.token_endpoint : null,
    resource: typeof metadata.resource === "string" ? metadata.resource : null,
    client:
      clientId === null
        ? null
        : {
            clientId,
            clientSecret: clientSecretCiphertext === null ? null : options.secretBox.decrypt(clientSecretCiphertext),
            tokenEndpointAuthMethod: typeof registration.token_endpoint_auth_method === "string" ? registration.token_endpoint_auth_method : "none",
          },
  };
}

/**
 * Stores refreshed tokens (encrypted) on the raw driver, only while the row still holds
 * `previousCiphertext` (compare and swap: two instances refreshing at once store one result).
 * Marks the server connected and moves the expiry of its active grant record. Returns whether
 * this call stored them. The write bumps the control-plane version, so every instance reloads
 * the new access token.
 */
export async function storeRefreshedMcpServerTokens(
  db: SqlClient,
  input: { serverId: string; previousCiphertext: string; tokens: McpServerTokens; expiresAt: Date | null; now?: Date },
  options: { secretBox: SecretBox },
): Promise<boolean> {
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  const now = sqlTimestamp(db.provider, input.now ?? new Date());
  const expiresAt = input.expiresAt === null ? null : sqlTimestamp(db.provider, input.expiresAt);
  const stored = await db.queryStatement({
    sql: `UPDATE "mcp_servers" SET "tokens_ciphertext" = ${p(1)}, "tokens_expires_at" = ${p(2)}, "status" = 'connected', "status_message" = NULL, "updated_at" = ${p(3)} WHERE "id" = ${p(4)} AND "tokens_ciphertext" = ${p(5)} RETURNING "id"`,
    args: [encodeMcpServerTokens(input.tokens, options.secretBox), expiresAt, now, input.serverId, input.previousCiphertext],
  });
  if (stored.length === 0) return false;
  await db.runStatements([
    {
      sql: `UPDATE "mcp_tokens" SET "expires_at" = ${p(1)} WHERE "server_id" = ${p(2)} AND "token_hash" IS NULL AND "revoked_at" IS NULL`,
      args: [expiresAt, input.serverId],
    },
  ]);
  return true;
}

/**
 * Marks an MCP server's grant as failed (status "error" with `message`, shown in the dashboard)
 * on the raw driver, unless its tokens changed since `previousCiphertext` was read (a refresh or
 * a new authorization won). The stored tokens stay: authorizing again replaces them.
 */
export async function markMcpServerAuthorizationFailed(
  db: SqlClient,
  input: { serverId: string; previousCiphertext: string | null; message: string; now?: Date },
): Promise<boolean> {
  const p = (position: number) => sqlPlaceholder(db.provider, position);
  const now = sqlTimestamp(db.provider, input.now ?? new Date());
  const sameTokens = input.previousCiphertext === null ? `"tokens_ciphertext" IS NULL` : `"tokens_ciphertext" = ${p(4)}`;
  const marked = await db.queryStatement({
    sql: `UPDATE "mcp_servers" SET "status" = 'error', "status_message" = ${p(1)}, "updated_at" = ${p(2)} WHERE "id" = ${p(3)} AND ${sameTokens} RETURNING "id"`,
    args: input.previousCiphertext === null ? [input.message, now, input.serverId] : [input.message, now, input.serverId, input.previousCiphertext],
  });
  return marked.length > 0;
}

function jsonObject(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  try {
    const parsed = sqlJson(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
