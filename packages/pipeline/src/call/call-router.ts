import type { ProviderAdapter, ProviderTarget, ServedEndpoint } from "@gateway/provider-adapters";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { CallerIdentity } from "../stages/authenticate.js";
import type { CallTarget } from "../stages/call-target.js";
import type { RequestContext } from "../stages/request-context.js";
import { type RoutePlan, resolveRoute } from "../stages/resolve-route.js";
import type { PipelineDependencies } from "./pipeline-dependencies.js";

/** What `invoke` calls a target through: a provider target's adapter, nothing (null) for any other target. */
export type EndpointAdapter<Target extends CallTarget> = Target extends ProviderTarget ? ProviderAdapter : null;

/** What a {@link CallRouter} gets: the authenticated caller and the parsed request. */
export interface CallRouteInput<Request> {
  dependencies: PipelineDependencies;
  snapshot: CompiledSnapshot;
  identity: CallerIdentity;
  /** `X-Provider` and `X-Gateway-Session` are read from it. */
  context: RequestContext;
  request: Request;
  /** What the request names (the endpoint's `model(request)`: a model, an alias, an MCP name). */
  model: string;
}

/**
 * The route stage of an endpoint: where its calls go and what calls a target. Model endpoints
 * share {@link modelRouter}; an endpoint whose calls go elsewhere (the MCP call endpoint, to the
 * server that has the tool) brings its own, with its own target type.
 */
export interface CallRouter<Request, Target extends CallTarget> {
  /** The ordered targets, after the caller's policies (throws 404 / 403 / 400 like model routes). */
  route(input: CallRouteInput<Request>): Promise<RoutePlan<Target>>;
  /** What `invoke` calls `target` through. */
  adapterFor(target: Target, dependencies: PipelineDependencies): EndpointAdapter<Target>;
  /** Whether attempts' latencies are recorded (least-latency routes read them). */
  readonly recordsLatency: boolean;
}

/**
 * The router of model calls: the model policy and the routes (aliases, provider-qualified
 * models, `X-Provider`, affinity, least latency); targets whose model does not serve `serves`
 * are left out. Each target is called through its connection's adapter.
 */
export function modelRouter(serves?: ServedEndpoint): CallRouter<unknown, ProviderTarget> {
  return new ModelRouter(serves);
}

class ModelRouter implements CallRouter<unknown, ProviderTarget> {
  readonly recordsLatency = true;

  constructor(private readonly serves: ServedEndpoint | undefined) {}

  route(input: CallRouteInput<unknown>): Promise<RoutePlan<ProviderTarget>> {
    const { dependencies } = input;
    return resolveRoute({
      snapshot: input.snapshot,
      identity: input.identity,
      model: input.model,
      context: input.context,
      affinityStore: dependencies.affinityStore,
      latencyTracker: dependencies.latencyTracker,
      endpoint: this.serves,
    });
  }

  adapterFor(target: ProviderTarget, dependencies: PipelineDependencies): ProviderAdapter {
    return dependencies.adapters.adapterFor(target.connection);
  }
}
