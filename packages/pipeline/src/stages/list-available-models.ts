import { listAllowedModels } from "@gateway/policy-engine";
import type { CallerIdentity } from "./authenticate.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";

/** One model a key may use. */
export interface AvailableModel {
  /** `<provider>/<vendor>/<model>` or a routing alias. */
  id: string;
  /** The connection name, or the organization slug for aliases. */
  ownedBy: string;
  kind: "model" | "alias";
}

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
  return allowed.map((model) => ({
    id: model.id,
    ownedBy: model.kind === "model" ? model.connection.name : identity.organization.slug,
    kind: model.kind,
  }));
}
