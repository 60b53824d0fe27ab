import { listAllowedModels } from "@gateway/policy-engine";
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
 * snapshot: every key whose scopes carry the same policies gets the same (frozen) list.
 */
export function listAvailableModels(snapshot: CompiledSnapshot, identity: CallerIdentity): readonly AvailableModel[] {
  const caller = { index: snapshot.access, organizationId: identity.organization.id, projectId: identity.project.id, apiKeyId: identity.apiKey.id };
  const chain = snapshot.access.chainOf(caller);
  const cached = chain.artefacts.get(artefactName) as readonly AvailableModel[] | undefined;
  if (cached !== undefined) return cached;
  const models = listAllowedModels(caller).map((model): AvailableModel => {
    let endpoints: readonly ServedEndpoint[];
    if (model.kind === "model") endpoints = servedEndpoints(model.connection, model.id.slice(model.connection.name.length + 1));
    else {
      const union = new Set<ServedEndpoint>();
      for (const target of model.targets) for (const endpoint of servedEndpoints(target.connection, target.qualifiedModel.slice(target.connection.name.length + 1))) union.add(endpoint);
      endpoints = endpointOrder.filter((endpoint) => union.has(endpoint));
    }
    // The organization is the chain's, so its slug is the same for every key on the chain.
    return Object.freeze({ id: model.id, ownedBy: model.kind === "model" ? model.connection.name : identity.organization.slug, kind: model.kind, endpoints });
  });
  const frozen = Object.freeze(models);
  chain.artefacts.set(artefactName, frozen);
  return frozen;
}

const artefactName = "available-models";
