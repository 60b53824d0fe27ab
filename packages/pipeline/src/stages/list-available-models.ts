import { listAllowedModels, resolveModel } from "@gateway/policy-engine";
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
 * (`listAllowedModels` of `@gateway/policy-engine`).
 */
export function listAvailableModels(snapshot: CompiledSnapshot, identity: CallerIdentity): AvailableModel[] {
  const allowed = listAllowedModels({
    index: snapshot.access,
    organizationId: identity.organization.id,
    projectId: identity.project.id,
    apiKeyId: identity.apiKey.id,
  });
  const caller = { index: snapshot.access, organizationId: identity.organization.id, projectId: identity.project.id, apiKeyId: identity.apiKey.id };
  return allowed.map((model) => {
    let endpoints: readonly ServedEndpoint[];
    if (model.kind === "model") endpoints = servedEndpoints(model.connection, model.id.slice(model.connection.name.length + 1));
    else {
      const resolution = resolveModel({ ...caller, requestedModel: model.id });
      const union = new Set<ServedEndpoint>();
      if (resolution.kind === "route") {
        for (const target of resolution.targets) for (const endpoint of servedEndpoints(target.connection, target.qualifiedModel.slice(target.connection.name.length + 1))) union.add(endpoint);
      }
      endpoints = endpointOrder.filter((endpoint) => union.has(endpoint));
    }
    return { id: model.id, ownedBy: model.kind === "model" ? model.connection.name : identity.organization.slug, kind: model.kind, endpoints };
  });
}
