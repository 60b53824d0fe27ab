import type { AccessIndex } from "./access-index.js";
import type { AccessCaller, AccessConnection, AccessRoute } from "./access-snapshot.js";
import type { PolicyDecision } from "./evaluate-model-policy.js";
import { isModelUsable, type ResolvedRouteTarget } from "./resolve-model.js";

/** One entry of the caller's model list. */
export type AllowedModel<TConnection extends AccessConnection = AccessConnection, TRoute extends AccessRoute = AccessRoute> =
  | { id: string; kind: "model"; connection: TConnection }
  /** `targets`: the alias's usable targets for this caller (as `resolveModel` resolves them). */
  | { id: string; kind: "alias"; route: TRoute; targets: readonly ResolvedRouteTarget<TConnection>[] };

/**
 * Exactly the models the caller may use: the provider-qualified ids of every enabled
 * connection's served models, then the organization's aliases, each kept only if
 * `resolveModel` accepts it (the same code path that enforces access). Computed once per policy
 * chain: keys whose scopes carry the same policies share the list.
 */
export function listAllowedModels<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: AccessCaller & { index: AccessIndex<TConnection, TRoute> },
): readonly AllowedModel<TConnection, TRoute>[] {
  // Derived from the chain and the organization's connections and routes only: one list per chain.
  const chain = options.index.chainOf(options);
  const cached = chain.artefacts.get(artefactName) as readonly AllowedModel<TConnection, TRoute>[] | undefined;
  if (cached) return cached;
  const caller: AccessCaller = { organizationId: options.organizationId, projectId: options.projectId, apiKeyId: options.apiKeyId };
  const organization = options.index.organization(options.organizationId);
  const models: AllowedModel<TConnection, TRoute>[] = [];
  const seen = new Set<string>();
  const decisions = new Map<string, PolicyDecision>();
  for (const connection of organization.enabledConnectionList) {
    for (const served of connection.models) {
      const id = `${connection.name}/${served}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const resolution = isModelUsable({ ...caller, index: options.index, requestedModel: id }, decisions);
      if (resolution?.kind === "target") models.push({ id, kind: "model", connection: resolution.target.connection });
    }
  }
  for (const route of organization.routeList) {
    if (seen.has(route.alias)) continue;
    seen.add(route.alias);
    const resolution = isModelUsable({ ...caller, index: options.index, requestedModel: route.alias }, decisions);
    if (resolution?.kind === "route") models.push({ id: route.alias, kind: "alias", route: resolution.route, targets: resolution.targets });
  }
  const frozen = Object.freeze(models);
  chain.artefacts.set(artefactName, frozen);
  return frozen;
}

const artefactName = "model-list";
