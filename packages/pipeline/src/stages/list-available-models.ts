import { type AllowedModel, listAllowedModels, listModelsWithoutPolicies } from "@gateway/policy-engine";
import type { SnapshotConnection, SnapshotRoute } from "@gateway/contracts";
import { type ServedEndpoint, servedEndpoints } from "@gateway/provider-adapters";
import type { CallerIdentity } from "./authenticate.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";

/** One model a key may use. */
export interface AvailableModel {
  /** `<provider>/<vendor>/<model>` or a routing alias. */
  id: string;
  /** The connection name, or the organization slug for aliases. */
  ownedBy: string;
  kind: "model" | "alias";
  /** The gateway endpoints it serves (an alias: those any of its usable targets serves). */
  endpoints: readonly ServedEndpoint[];
}

const endpointOrder: readonly ServedEndpoint[] = ["chat_completions", "messages", "responses", "embeddings", "decisions"];

/**
 * Every model id the caller may send: provider-qualified models of enabled connections and
 * aliases, each kept only when the resolver that enforces access accepts it
 * (`listAllowedModels` of `@gateway/policy-engine`). Computed once per policy chain and
 * snapshot: every key whose scopes carry the same policies gets the same (frozen) list, and
 * chains whose policies change nothing share the organization's list, built when the snapshot
 * is compiled ({@link precomputeAvailableModels}).
 */
export function listAvailableModels(snapshot: CompiledSnapshot, identity: CallerIdentity): readonly AvailableModel[] {
  const caller = { index: snapshot.access, organizationId: identity.organization.id, projectId: identity.project.id, apiKeyId: identity.apiKey.id };
  const chain = snapshot.access.chainOf(caller);
  const cached = chain.artefacts.get(artefactName) as readonly AvailableModel[] | undefined;
  if (cached !== undefined) return cached;
  const models = availableModelsOf(listAllowedModels(caller), identity.organization.slug);
  chain.artefacts.set(artefactName, models);
  return models;
}

/**
 * Builds each organization's list for the chains whose policies change nothing, so that the
 * first `GET /v1/models` of such a chain after a reload costs what later ones do.
 */
export function precomputeAvailableModels(snapshot: CompiledSnapshot): void {
  for (const organizationId of snapshot.access.organizationIds()) {
    const organization = snapshot.organizationsById.get(organizationId);
    if (organization !== undefined) availableModelsOf(listModelsWithoutPolicies(snapshot.access, organizationId), organization.slug);
  }
}

/** Per allowed list (shared by chains, and by snapshots while the organization's rows are unchanged): its presentation. */
const presented = new WeakMap<readonly AllowedModel<SnapshotConnection, SnapshotRoute>[], { slug: string; models: readonly AvailableModel[] }>();

function availableModelsOf(allowed: readonly AllowedModel<SnapshotConnection, SnapshotRoute>[], organizationSlug: string): readonly AvailableModel[] {
  const known = presented.get(allowed);
  if (known !== undefined && known.slug === organizationSlug) return known.models;
  const models = allowed.map((model): AvailableModel => {
    let endpoints: readonly ServedEndpoint[];
    if (model.kind === "model") endpoints = servedEndpoints(model.connection, model.id.slice(model.connection.name.length + 1));
    else {
      const union = new Set<ServedEndpoint>();
      for (const target of model.targets) for (const endpoint of servedEndpoints(target.connection, target.qualifiedModel.slice(target.connection.name.length + 1))) union.add(endpoint);
      endpoints = endpointOrder.filter((endpoint) => union.has(endpoint));
    }
    // Aliases are owned by the organization (the chain's, so the same for every key on it).
    return Object.freeze({ id: model.id, ownedBy: model.kind === "model" ? model.connection.name : organizationSlug, kind: model.kind, endpoints });
  });
  const frozen = Object.freeze(models);
  presented.set(allowed, { slug: organizationSlug, models: frozen });
  return frozen;
}

const artefactName = "available-models";
