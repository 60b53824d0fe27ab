import { type BudgetIndex, compileBudgetIndex } from "@gateway/budget";
import { type AccessIndex, compileAccessIndex } from "@gateway/policy-engine";
import type {
  ControlPlaneConfiguration,
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
import { precomputeAvailableModels } from "../stages/list-available-models.js";
import { ApiKeyStore } from "./api-key-store.js";

/**
 * A snapshot with the lookup indexes the hot path needs, so that every request does only map
 * lookups. The configuration's indexes are built once per configuration; the key maps belong
 * to an {@link ApiKeyStore} that deltas change in place (a new version may share them).
 */
export interface CompiledSnapshot {
  readonly version: string;
  /** The configuration in service (the keys are in the maps below, not in a list). */
  readonly snapshot: ControlPlaneConfiguration;
  /** Active keys by their lower-case hex secret hash (changed in place by deltas). */
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

/**
 * Builds the lookup indexes of a snapshot. Given `keys`, the key maps are that store's (the
 * snapshot holder keeps one store and rebuilds only the configuration's indexes); otherwise a
 * store is made from `snapshot.apiKeys` and `snapshot.mcpTokens`. Given `previous`, policy rows that
 * are the same objects as in it keep their compilation (a delta that leaves the policies table
 * alone recompiles none).
 */
export function compileSnapshot(input: ControlPlaneSnapshot | ControlPlaneConfiguration, keys?: ApiKeyStore, previous?: CompiledSnapshot): CompiledSnapshot {
  const { apiKeys, mcpTokens, ...snapshot } = input as Partial<ControlPlaneSnapshot> & ControlPlaneConfiguration;
  const store = keys ?? ApiKeyStore.from(apiKeys ?? [], mcpTokens ?? []);
  const compiled: CompiledSnapshot = {
    version: snapshot.version,
    snapshot,
    apiKeysByHash: store.apiKeysByHash,
    apiKeysById: store.apiKeysById,
    projectsById: new Map(snapshot.projects.map((project) => [project.id, project])),
    organizationsById: new Map(snapshot.organizations.map((organization) => [organization.id, organization])),
    budgetIndex: compileBudgetIndex(snapshot.budgets, snapshot.rateLimits),
    access: compileAccessIndex<SnapshotConnection, SnapshotRoute>(snapshot, { previous: previous?.access ?? null }),
    budgetsByOrganization: listBy(snapshot.budgets),
    rateLimitsByOrganization: listBy(snapshot.rateLimits),
    mcpTokensByHash: store.mcpTokensByHash,
    mcpServersByOrganization: new Map([...listBy(snapshot.mcpServers)].map(([organizationId, servers]) => [organizationId, compileMcpServerDirectory(servers)])),
  };
  // The model lists depend on policies, connections and routes, never on keys: built here (or
  // kept from `previous` while an organization's connections and routes are unchanged).
  precomputeAvailableModels(compiled);
  return compiled;
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
