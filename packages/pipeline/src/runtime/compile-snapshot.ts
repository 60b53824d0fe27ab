import { type BudgetIndex, compileBudgetIndex } from "@gateway/budget";
import { type AccessIndex, compileAccessIndex } from "@gateway/policy-engine";
import type {
  ControlPlaneSnapshot,
  SnapshotApiKey,
  SnapshotBudget,
  SnapshotConnection,
  SnapshotMcpToken,
  SnapshotOrganization,
  SnapshotProject,
  SnapshotRateLimit,
  SnapshotRoute,
} from "@gateway/contracts";
import { type McpServerDirectory, compileMcpServerDirectory } from "../mcp/mcp-server-directory.js";

/**
 * A snapshot with the lookup indexes the hot path needs, built once per snapshot version so
 * that every request does only map lookups.
 */
export interface CompiledSnapshot {
  readonly version: string;
  readonly snapshot: ControlPlaneSnapshot;
  readonly apiKeysByHash: ReadonlyMap<string, SnapshotApiKey>;
  readonly apiKeysById: ReadonlyMap<string, SnapshotApiKey>;
  readonly projectsById: ReadonlyMap<string, SnapshotProject>;
  readonly organizationsById: ReadonlyMap<string, SnapshotOrganization>;
  /** Model access, resolution and guardrails index of `@gateway/policy-engine`. */
  readonly access: AccessIndex<SnapshotConnection, SnapshotRoute>;
  /** organizationId -> budgets. */
  readonly budgetsByOrganization: ReadonlyMap<string, readonly SnapshotBudget[]>;
  /** organizationId -> rate limits. */
  readonly rateLimitsByOrganization: ReadonlyMap<string, readonly SnapshotRateLimit[]>;
  /** Budgets and rate limits by scope: a caller's are a few map look-ups, whatever their number. */
  readonly budgetIndex: BudgetIndex<SnapshotBudget, SnapshotRateLimit>;
  /** Issued MCP tokens by the hex SHA-256 of their secret. */
  readonly mcpTokensByHash: ReadonlyMap<string, SnapshotMcpToken>;
  /** organizationId -> its MCP servers and the prefixes of the names the gateway serves for them. */
  readonly mcpServersByOrganization: ReadonlyMap<string, McpServerDirectory>;
}

/** Builds the lookup indexes of a snapshot. */
export function compileSnapshot(snapshot: ControlPlaneSnapshot): CompiledSnapshot {
  return {
    version: snapshot.version,
    snapshot,
    apiKeysByHash: new Map(snapshot.apiKeys.map((key) => [key.secretHash.toLowerCase(), key])),
    apiKeysById: new Map(snapshot.apiKeys.map((key) => [key.id, key])),
    projectsById: new Map(snapshot.projects.map((project) => [project.id, project])),
    organizationsById: new Map(snapshot.organizations.map((organization) => [organization.id, organization])),
    budgetIndex: compileBudgetIndex(snapshot.budgets, snapshot.rateLimits),
    access: compileAccessIndex<SnapshotConnection, SnapshotRoute>(snapshot),
    budgetsByOrganization: listBy(snapshot.budgets),
    rateLimitsByOrganization: listBy(snapshot.rateLimits),
    mcpTokensByHash: new Map(snapshot.mcpTokens.map((token) => [token.tokenHash.toLowerCase(), token])),
    mcpServersByOrganization: new Map([...listBy(snapshot.mcpServers)].map(([organizationId, servers]) => [organizationId, compileMcpServerDirectory(servers)])),
  };
}

function listBy<T extends { organizationId: string }>(items: readonly T[]): Map<string, T[]> {
  const result = new Map<string, T[]>();
  for (const item of items) {
    const list = result.get(item.organizationId);
    if (list === undefined) result.set(item.organizationId, [item]);
    else list.push(item);
  }
  return result;
}
