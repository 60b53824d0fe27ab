import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { translateWrite } from "./repository-support.js";

/**
 * An MCP token record: a token the gateway issued to an MCP client (only its hash is stored; it
 * acts as `apiKeyId` on the MCP endpoint), or the record of an MCP server's OAuth grant (no
 * gateway token: the upstream tokens are stored encrypted on the server; see `completeMcpServerOAuth`).
 */
export interface McpTokenRecord {
  id: string;
  organizationId: string;
  serverId: string | null;
  userId: string | null;
  /** The API key a gateway-issued token acts as; null for grant records. */
  apiKeyId: string | null;
  /** Whether the gateway issued it to an MCP client (it has a hash); false for grant records. */
  issued: boolean;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedByUserId: string | null;
}

type Row = Awaited<ReturnType<DatabaseClient["prisma"]["mcpToken"]["findFirstOrThrow"]>>;
/** A token row without its hash, JSON parsed. */
export const toMcpTokenRecord = ({ tokenHash, ...row }: Row): McpTokenRecord => ({
  ...row,
  issued: tokenHash !== null,
  scopes: parseJsonColumn(stringArraySchema, row.scopes, `mcp_tokens ${row.id} scopes`),
});

/**
 * Stores a token by hash (`hashToken(token)` of the secret the gateway hands to an MCP client;
 * null for grant records that carry no gateway token); `prefix` is for display. A gateway-issued
 * token names the API key it acts as (`apiKeyId`, an active key of the organization; 400 otherwise)
 * and may be narrowed to one server (`serverId`).
 */
export async function createMcpToken(
  db: DatabaseClient,
  input: {
    organizationId: string;
    serverId?: string | null;
    userId?: string | null;
    apiKeyId?: string | null;
    name: string;
    prefix: string;
    tokenHash?: string | null;
    scopes?: string[];
    expiresAt?: Date | null;
  },
): Promise<McpTokenRecord> {
  if (input.serverId) {
    const server = await db.prisma.mcpServer.findFirst({ where: { id: input.serverId, organizationId: input.organizationId }, select: { id: true } });
    if (!server) throw new GatewayError("invalid_request", { message: "server_id does not name an MCP server of this organization", param: "server_id" });
  }
  if (input.apiKeyId) {
    const key = await db.prisma.apiKey.findFirst({ where: { id: input.apiKeyId, organizationId: input.organizationId, revokedAt: null }, select: { id: true } });
    if (!key) throw new GatewayError("invalid_request", { message: "api_key_id does not name an active API key of this organization", param: "api_key_id" });
  }
  if (input.tokenHash && !input.apiKeyId) {
    throw new GatewayError("invalid_request", { message: "A token the gateway issues acts as an API key: api_key_id is required", param: "api_key_id" });
  }
  return toMcpTokenRecord(
    await translateWrite("MCP token", () =>
      db.prisma.mcpToken.create({
        data: {
          organizationId: input.organizationId,
          serverId: input.serverId ?? null,
          userId: input.userId ?? null,
          apiKeyId: input.apiKeyId ?? null,
          name: input.name,
          prefix: input.prefix,
          tokenHash: input.tokenHash ?? null,
          scopes: input.scopes ?? [],
          expiresAt: input.expiresAt ?? null,
        },
      }),
    ),
  );
}

/** Tokens of an organization (optionally one user's, one server's or one key's), newest first; revoked ones only when asked. */
export async function listMcpTokens(
  db: DatabaseClient,
  input: { organizationId: string; userId?: string; serverId?: string; apiKeyId?: string; includeRevoked?: boolean },
): Promise<McpTokenRecord[]> {
  const rows = await db.prisma.mcpToken.findMany({
    where: {
      organizationId: input.organizationId,
      ...(input.userId ? { userId: input.userId } : {}),
      ...(input.serverId ? { serverId: input.serverId } : {}),
      ...(input.apiKeyId ? { apiKeyId: input.apiKeyId } : {}),
      ...(input.includeRevoked ? {} : { revokedAt: null }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toMcpTokenRecord);
}

/** The token (revoked or not), or null when it is not in the organization. */
export async function getMcpToken(db: DatabaseClient, organizationId: string, id: string): Promise<McpTokenRecord | null> {
  const row = await db.prisma.mcpToken.findFirst({ where: { id, organizationId } });
  return row ? toMcpTokenRecord(row) : null;
}

/**
 * Revokes a token (idempotent, keeps the row and the first `revokedAt`); `revoked` tells whether
 * this call revoked it. 404 when not in the organization.
 */
export async function revokeMcpToken(
  db: DatabaseClient,
  input: { organizationId: string; id: string; revokedByUserId?: string | null; now?: Date },
): Promise<{ token: McpTokenRecord; revoked: boolean }> {
  const result = await db.prisma.mcpToken.updateMany({
    where: { id: input.id, organizationId: input.organizationId, revokedAt: null },
    data: { revokedAt: input.now ?? new Date(), revokedByUserId: input.revokedByUserId ?? null },
  });
  const row = await db.prisma.mcpToken.findFirst({ where: { id: input.id, organizationId: input.organizationId } });
  if (!row) throw new GatewayError("not_found", { message: "MCP token not found" });
  return { token: toMcpTokenRecord(row), revoked: result.count > 0 };
}
