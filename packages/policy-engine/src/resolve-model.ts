import { GatewayError } from "@gateway/errors";
import type { AccessIndex, OrganizationAccess } from "./access-index.js";
import type { AccessCaller, AccessConnection, AccessRoute } from "./access-snapshot.js";
import { evaluateModelPolicy, type PolicyDecision, type PolicyRule } from "./evaluate-model-policy.js";

/** One provider-qualified target: what an adapter needs to make the call. */
export interface ResolvedTarget<TConnection extends AccessConnection = AccessConnection> {
  connection: TConnection;
  /** `<provider>/<vendor>/<model>`. */
  qualifiedModel: string;
  /**
   * The name sent upstream: the connection's `upstreamModelNames` entry for `<vendor>/<model>`,
   * else `<model>` (the vendor segment is the gateway's naming, not the provider's:
   * `openai/gpt-4o-mini` is sent as `gpt-4o-mini`).
   */
  upstreamModel: string;
}

/** A target of a route, with its weight and its position in `route.targets`. */
export interface ResolvedRouteTarget<TConnection extends AccessConnection = AccessConnection>
  extends ResolvedTarget<TConnection> {
  weight: number;
  index: number;
}

/** A route target left out of a resolution, and why. */
export interface SkippedRouteTarget {
  model: string;
  /** `unavailable`: unknown or disabled connection, or the connection does not serve the model. */
  reason: "unavailable" | "denied";
  rule?: PolicyRule;
}

/** The result of {@link resolveModel}. Results are shared and must be treated as read-only. */
export type ModelResolution<TConnection extends AccessConnection = AccessConnection, TRoute extends AccessRoute = AccessRoute> =
  | { kind: "target"; requestedModel: string; target: ResolvedTarget<TConnection> }
  | {
      kind: "route";
      requestedModel: string;
      route: TRoute;
      /** Available and allowed targets in route order (strategy ordering is `selectTargets`'s job). */
      targets: readonly ResolvedRouteTarget<TConnection>[];
      skippedTargets: readonly SkippedRouteTarget[];
    }
  | { kind: "denied"; requestedModel: string; error: GatewayError };

/** Options of {@link resolveModel}. */
export interface ResolveModelOptions<TConnection extends AccessConnection, TRoute extends AccessRoute> extends AccessCaller {
  index: AccessIndex<TConnection, TRoute>;
  /** The request's `model`. */
  requestedModel: string;
  /** The `X-Provider` header, if any. */
  providerHeader?: string | null | undefined;
}

const cacheableModelLength = 512;

/** A denial before it becomes an error (building an Error is costly; the model list needs only the verdict). */
interface Denial {
  kind: "denied";
  requestedModel: string;
  code: "model_not_found" | "model_not_allowed";
  message: string;
  details: Record<string, unknown>;
}

type InternalResolution<TConnection extends AccessConnection, TRoute extends AccessRoute> =
  | Exclude<ModelResolution<TConnection, TRoute>, { kind: "denied" }>
  | Denial;

/**
 * Resolves a requested model for a caller: the single function behind both enforcement and
 * the model list.
 *
 * - `<provider>/<vendor>/<model>` (two or more `/`): the connection named `<provider>`,
 *   asked for `<vendor>/<model>`; `X-Provider` is ignored.
 * - `<vendor>/<model>` (one `/`): needs `X-Provider: <connection name>`.
 * - no `/`: a routing alias of the caller's organization (`X-Provider` is ignored).
 *
 * Unknown model, unknown or disabled connection, or a connection that does not serve the
 * model: 404 `model_not_found`. Denied by policy: 403 `model_not_allowed` naming the rule.
 * For an alias, the alias must be allowed; then each target is checked: unavailable or
 * denied targets are skipped; none left is 403 if any was denied, else 404.
 */
export function resolveModel<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: ResolveModelOptions<TConnection, TRoute>,
): ModelResolution<TConnection, TRoute> {
  const { requestedModel } = options;
  const header = options.providerHeader ?? "";
  const cacheable = requestedModel.length <= cacheableModelLength && header.length <= cacheableModelLength;
  const cacheKey = `resolve\u0000${requestedModel}\u0000${header}`;
  const cache = cacheable ? options.index.chainCache(options) : null;
  const cached = cache?.get(cacheKey) as ModelResolution<TConnection, TRoute> | undefined;
  if (cached) return cached;
  const resolution = resolveUncached(options, header);
  if (resolution.kind === "denied") {
    return {
      kind: "denied",
      requestedModel,
      error: new GatewayError(resolution.code, { message: resolution.message, param: "model", details: resolution.details }),
    };
  }
  if (cache) cache.set(cacheKey, resolution);
  return resolution;
}

/**
 * The verdict of {@link resolveModel} without building the error object: same code path, used
 * by the model list. It skips the resolution cache (the list itself is kept per chain) and
 * remembers the policy decisions of one listing in `decisions` (many aliases share targets).
 */
export function isModelUsable<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: ResolveModelOptions<TConnection, TRoute>,
  decisions: Map<string, PolicyDecision>,
): ModelResolution<TConnection, TRoute> | null {
  const resolution = resolveUncached(options, options.providerHeader ?? "", decisions);
  return resolution.kind === "denied" ? null : resolution;
}

function resolveUncached<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: ResolveModelOptions<TConnection, TRoute>,
  header: string,
  decisions: Map<string, PolicyDecision> | null = null,
): InternalResolution<TConnection, TRoute> {
  const { requestedModel, index } = options;
  const organization = index.organization(options.organizationId);
  const firstSlash = requestedModel.indexOf("/");
  if (firstSlash === -1) return resolveAlias(options, organization, decisions);

  let provider: string;
  let served: string;
  if (requestedModel.indexOf("/", firstSlash + 1) !== -1) {
    provider = requestedModel.slice(0, firstSlash);
    served = requestedModel.slice(firstSlash + 1);
  } else if (header !== "") {
    provider = header;
    served = requestedModel;
  } else {
    return denied(
      requestedModel,
      notFound(requestedModel, "Use a provider-qualified model `<provider>/<vendor>/<model>` or send X-Provider.", {
        reason: "provider_required",
      }),
    );
  }
  const target = lookupTarget(organization, provider, served);
  if (!target) return denied(requestedModel, notFound(requestedModel, undefined, { reason: "unknown_model" }));
  const decision = decide(options, target.qualifiedModel, decisions);
  if (!decision.allowed) return denied(requestedModel, notAllowed(target.qualifiedModel, { rule: decision.rule }));
  return { kind: "target", requestedModel, target };
}

/** The policy decision for `model`, remembered in `decisions` when given. */
function decide<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: ResolveModelOptions<TConnection, TRoute>,
  model: string,
  decisions: Map<string, PolicyDecision> | null,
): PolicyDecision {
  const known = decisions?.get(model);
  if (known !== undefined) return known;
  const decision = evaluateModelPolicy({ ...callerOf(options), index: options.index, model });
  decisions?.set(model, decision);
  return decision;
}

function resolveAlias<TConnection extends AccessConnection, TRoute extends AccessRoute>(
  options: ResolveModelOptions<TConnection, TRoute>,
  organization: OrganizationAccess<TConnection, TRoute>,
  decisions: Map<string, PolicyDecision> | null,
): InternalResolution<TConnection, TRoute> {
  const { requestedModel } = options;
  const route = organization.routesByAlias.get(requestedModel);
  if (!route) return denied(requestedModel, notFound(requestedModel, undefined, { reason: "unknown_model" }));
  const aliasDecision = decide(options, route.alias, decisions);
  if (!aliasDecision.allowed) return denied(requestedModel, notAllowed(route.alias, { rule: aliasDecision.rule }));

  const targets: ResolvedRouteTarget<TConnection>[] = [];
  const skippedTargets: SkippedRouteTarget[] = [];
  route.targets.forEach((routeTarget, position) => {
    const slash = routeTarget.model.indexOf("/");
    const target = slash === -1 ? null : lookupTarget(organization, routeTarget.model.slice(0, slash), routeTarget.model.slice(slash + 1));
    if (!target) {
      skippedTargets.push({ model: routeTarget.model, reason: "unavailable" });
      return;
    }
    const decision = decide(options, target.qualifiedModel, decisions);
    if (!decision.allowed) {
      skippedTargets.push({ model: target.qualifiedModel, reason: "denied", ...(decision.rule ? { rule: decision.rule } : {}) });
      return;
    }
    targets.push({ ...target, weight: routeTarget.weight, index: position });
  });
  if (targets.length === 0) {
    const deniedTargets = skippedTargets.filter((skipped) => skipped.reason === "denied");
    if (deniedTargets.length > 0) {
      return denied(
        requestedModel,
        notAllowed(route.alias, {
          deniedTargets: deniedTargets.map((skipped) => ({ model: skipped.model, rule: skipped.rule ?? null })),
        }),
      );
    }
    return denied(requestedModel, notFound(requestedModel, "No target of this alias is available.", { reason: "no_available_target" }));
  }
  return {
    kind: "route",
    requestedModel,
    route,
    targets: Object.freeze(targets),
    skippedTargets: Object.freeze(skippedTargets),
  };
}

function lookupTarget<TConnection extends AccessConnection>(
  organization: OrganizationAccess<TConnection, AccessRoute>,
  provider: string,
  served: string,
): ResolvedTarget<TConnection> | null {
  const entry = organization.enabledConnections.get(provider);
  if (!entry || !entry.models.has(served)) return null;
  const override = Object.hasOwn(entry.connection.upstreamModelNames, served) ? entry.connection.upstreamModelNames[served] : undefined;
  return { connection: entry.connection, qualifiedModel: `${provider}/${served}`, upstreamModel: override ?? defaultUpstreamModel(served) };
}

/** `<vendor>/<model>` -> `<model>` (everything after the first `/`; a name without one stays as it is). */
function defaultUpstreamModel(served: string): string {
  const slash = served.indexOf("/");
  return slash === -1 ? served : served.slice(slash + 1);
}

function callerOf(options: AccessCaller): AccessCaller {
  return { organizationId: options.organizationId, projectId: options.projectId, apiKeyId: options.apiKeyId };
}

function denied(requestedModel: string, denial: Omit<Denial, "kind" | "requestedModel">): Denial {
  return { kind: "denied", requestedModel, ...denial };
}

/** Model ids can be up to 1 MiB long; error messages quote at most this much of one. */
function quote(model: string): string {
  return model.length > 200 ? `'${model.slice(0, 200)}…'` : `'${model}'`;
}

function notFound(model: string, hint: string | undefined, details: Record<string, unknown>): Omit<Denial, "kind" | "requestedModel"> {
  return {
    code: "model_not_found",
    message: `The model ${quote(model)} does not exist or is not available.${hint ? ` ${hint}` : ""}`,
    details,
  };
}

function notAllowed(model: string, details: Record<string, unknown>): Omit<Denial, "kind" | "requestedModel"> {
  return { code: "model_not_allowed", message: `A model policy does not allow the model ${quote(model)}.`, details: { model, ...details } };
}
