import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { parseJsonColumn, stringArraySchema } from "./json-values.js";
import { translateWrite } from "./repository-support.js";

/**
 * An MCP token record: a token the gateway issued to an MCP client (only its hash is stored), or
 * the record of an MCP server's OAuth grant (no gateway token: the upstream tokens are stored
 * encrypted on the server; see `completeMcpServerOAuth`).
 */
export interface McpTokenRecord {
  id: string;
  organizationId: string;
  serverId: string | null;
  userId: string | null;
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
export const toMcpTokenRecord = ({ tokenHash: _hash, ...row }: Row): McpTokenRecord => ({ ...row, scopes: parseJsonColumn(stringArraySchema, row.scopes, `mcp_tokens ${row.id} scopes`) });

/**
 * Stores a token by hash (`hashToken(token)` of the secret the gateway hands to an MCP client;
 * null for grant records that carry no gateway token); `prefix` is for display.
 */
export async function createMcpToken(
  db: DatabaseClient,
  input: { organizationId: string; serverId?: string | null; userId?: string | null; name: string; prefix: string; tokenHash?: string | null; scopes?: string[]; expiresAt?: Date | null },
): Promise<McpTokenRecord> {
  if (input.serverId) {
    const server = await db.prisma.mcpServer.findFirst({ where: { id: input.serverId, organizationId: input.organizationId }, select: { id: true } });
    if (!server) throw new GatewayError("invalid_request", { message: "server_id does not name an MCP server of this organization", param: "server_id" });
  }
  return toMcpTokenRecord(
    await translateWrite("MCP token", () =>
      db.prisma.mcpToken.create({
        data: {
          organizationId: input.organizationId,
          serverId: input.serverId ?? null,
          userId: input.userId ?? null,
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

/** Tokens of an organization (optionally one user's or one server's), newest first; revoked ones only when asked. */
export async function listMcpTokens(
  db: DatabaseClient,
  input: { organizationId: string; userId?: string; serverId?: string; includeRevoked?: boolean },
): Promise<McpTokenRecord[]> {
  const rows = await db.prisma.mcpToken.findMany({
    where: {
      organizationId: input.organizationId,
      ...(input.userId ? { userId: input.userId } : {}),
      ...(input.serverId ? { serverId: input.serverId } : {}),
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

/** A token that is active at `now` (not revoked, not expired), or null. */
export async function findActiveMcpTokenByHash(db: DatabaseClient, tokenHash: string, now = new Date()): Promise<McpTokenRecord | null> {
  const row = await db.prisma.mcpToken.findFirst({ where: { tokenHash, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } });
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
