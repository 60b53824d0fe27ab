import { GatewayError } from "@gateway/errors";
import { type ProviderTarget, type ServedEndpoint, servedEndpoints } from "@gateway/provider-adapters";
import {
  type AffinityStore,
  type LatencyTracker,
  createAffinityKey,
  resolveModel,
  selectTargets,
  validateSessionHeader,
} from "@gateway/policy-engine";
import type { CallerIdentity } from "./authenticate.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { SnapshotConnection, SnapshotRoute } from "@gateway/contracts";
import type { RequestContext } from "./request-context.js";
import type { CallTarget } from "./call-target.js";

/**
 * Where a requested model goes: the alias route (if any) and its ordered targets. An endpoint
 * that routes itself (an MCP tool call goes to the server that has the tool) makes plans of its
 * own targets.
 */
export interface RoutePlan<Target extends CallTarget = ProviderTarget> {
  /** The model as the caller asked for it. */
  requestedModel: string;
  /** The alias route, or null for a provider-qualified model or one picked with `X-Provider`. */
  route: SnapshotRoute | null;
  /** Ordered targets (first is preferred, the rest are fallbacks); never empty. */
  targets: Target[];
  /** Attempts per target (the route's retry setting; 1 without a route). */
  maxAttemptsPerTarget: number;
  /** Session-affinity key in use (report outcomes with it), or null. */
  affinityKey: string | null;
}

/** Input of {@link resolveRoute}. */
export interface ResolveRouteInput {
  snapshot: CompiledSnapshot;
  identity: CallerIdentity;
  model: string;
  /** `X-Provider` and `X-Gateway-Session` are read from it. */
  context: Pick<RequestContext, "providerHint" | "affinitySession">;
  affinityStore?: AffinityStore;
  latencyTracker?: LatencyTracker;
  /** The endpoint called: targets whose model does not serve it are left out (400 `unsupported_feature` when none is left). */
  endpoint?: ServedEndpoint;
}

const endpointPaths: Record<ServedEndpoint, string> = {
  chat_completions: "POST /v1/chat/completions",
  messages: "POST /v1/messages",
  responses: "POST /v1/responses",
  embeddings: "POST /v1/embeddings",
  decisions: "POST /v1/systemone",
};

/** Whether a target's model serves the endpoint (`servedEndpoints` of `@gateway/provider-adapters`). */
function serves(target: { connection: SnapshotConnection; qualifiedModel: string }, endpoint: ServedEndpoint): boolean {
  return servedEndpoints(target.connection, target.qualifiedModel.slice(target.connection.name.length + 1)).includes(endpoint);
}

function notServed(model: string, endpoint: ServedEndpoint, alias: boolean): GatewayError {
  const quoted = model.length > 200 ? `'${model.slice(0, 200)}…'` : `'${model}'`;
  return new GatewayError("unsupported_feature", {
    param: "model",
    message: alias ? `No target of the alias ${quoted} serves ${endpointPaths[endpoint]}.` : `The model ${quoted} does not serve ${endpointPaths[endpoint]}.`,
    details: { endpoint },
  });
}

/**
 * The policy and route stages: resolves the requested model for the caller with
 * `@gateway/policy-engine` (the same resolver the model list uses) and orders the targets.
 * - `<provider>/<vendor>/<model>` asks that connection (wins over `X-Provider`);
 *   `<vendor>/<model>` with `X-Provider` asks the named connection; otherwise an alias.
 * - 404 `model_not_found` when nothing serves it; 403 `model_not_allowed` when a policy denies it.
 * - On an alias with affinity on, an invalid `X-Gateway-Session` is 400 (ignored otherwise)
 *   and a valid one sticks the session to a target.
 */
export async function resolveRoute(input: ResolveRouteInput): Promise<RoutePlan> {
  const { identity } = input;
  // One literal, not a spread of the caller's fields plus the model: a spread copy that gains
  // keys gets a new hidden class per call on V8 (`node scripts/bench.mjs hidden-classes`).
  const resolution = resolveModel({
    index: input.snapshot.access,
    organizationId: identity.organization.id,
    projectId: identity.project.id,
    apiKeyId: identity.apiKey.id,
    requestedModel: input.model,
    providerHeader: input.context.providerHint,
  });
  if (resolution.kind === "denied") throw resolution.error;
  if (resolution.kind === "target") {
    if (input.endpoint !== undefined && !serves(resolution.target as ProviderTarget & { connection: SnapshotConnection }, input.endpoint)) {
      throw notServed(input.model, input.endpoint, false);
    }
    return {
      requestedModel: input.model,
      route: null,
      targets: [resolution.target as ProviderTarget],
      maxAttemptsPerTarget: 1,
      affinityKey: null,
    };
  }
  const route = resolution.route;
  let routeResolution = resolution;
  if (input.endpoint !== undefined) {
    const endpoint = input.endpoint;
    const servingTargets = resolution.targets.filter((target) => serves(target, endpoint));
    if (servingTargets.length === 0) throw notServed(input.model, endpoint, true);
    if (servingTargets.length !== resolution.targets.length) routeResolution = { ...resolution, targets: servingTargets };
  }
  const session = validateSessionHeader(input.context.affinitySession, { affinityEnabled: route.affinity.enabled });
  const selection = await selectTargets<SnapshotConnection>({
    route: routeResolution,
    sessionKey:
      session === null
        ? null
        : createAffinityKey({ organizationId: identity.organization.id, apiKeyId: identity.apiKey.id, alias: route.alias, session }),
    ...(input.affinityStore ? { affinityStore: input.affinityStore } : {}),
    ...(input.latencyTracker ? { latencyTracker: input.latencyTracker } : {}),
  });
  return {
    requestedModel: input.model,
    route,
    targets: selection.targets as ProviderTarget[],
    maxAttemptsPerTarget: Math.max(1, route.retry.maxAttempts),
    affinityKey: selection.affinityKey,
  };
}
