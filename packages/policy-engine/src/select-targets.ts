import type { AccessConnection } from "./access-snapshot.js";
import type { AffinityStore } from "./affinity-store.js";
import type { LatencyTracker } from "./create-latency-tracker.js";
import type { ResolvedRouteTarget } from "./resolve-model.js";

/** The part of a resolved route that target selection needs. */
export interface SelectableRoute<TConnection extends AccessConnection = AccessConnection> {
  route: {
    strategy: "priority" | "weighted" | "least-latency";
    affinity: { enabled: boolean; ttlSeconds: number };
  };
  /** Allowed, available targets in route order (as `resolveModel` returns them). */
  targets: readonly ResolvedRouteTarget<TConnection>[];
}

/** Options of {@link selectTargets}. */
export interface SelectTargetsOptions<TConnection extends AccessConnection> {
  route: SelectableRoute<TConnection>;
  /** `createAffinityKey(...)` of a valid `X-Gateway-Session`; ignored when the route's affinity is off. */
  sessionKey?: string | null;
  affinityStore?: AffinityStore;
  latencyTracker?: LatencyTracker;
  /** Uniform random in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/** Targets to try, in order, and the affinity key in use (for reporting outcomes). */
export interface TargetSelection<TConnection extends AccessConnection = AccessConnection> {
  targets: ResolvedRouteTarget<TConnection>[];
  affinityKey: string | null;
  /** Whether the first target came from session affinity. */
  sticky: boolean;
}

/**
 * Orders a route's targets for one call: try the first, fall back to the next on retryable
 * errors.
 *
 * - `priority`: route order.
 * - `weighted`: the first pick is random with probability weight / sum of weights (targets
 *   with weight <= 0 are never picked first); the rest follow in route order.
 * - `least-latency`: targets never observed first (in route order), then by ascending moving
 *   average latency (ties keep route order).
 *
 * With affinity on and a session key, a remembered target that is still in the list goes
 * first; otherwise the strategy's first pick is remembered for the route's TTL.
 */
export async function selectTargets<TConnection extends AccessConnection>(
  options: SelectTargetsOptions<TConnection>,
): Promise<TargetSelection<TConnection>> {
  const { route } = options;
  const random = options.random ?? Math.random;
  let ordered = orderByStrategy(route, random, options.latencyTracker);
  const affinity = route.route.affinity;
  const affinityKey =
    affinity.enabled && options.sessionKey && options.affinityStore && ordered.length > 0 ? options.sessionKey : null;
  if (affinityKey === null || !options.affinityStore) return { targets: ordered, affinityKey: null, sticky: false };

  const remembered = await options.affinityStore.get(affinityKey);
  if (remembered !== null) {
    const position = ordered.findIndex((target) => target.qualifiedModel === remembered);
    if (position !== -1) {
      const sticky = ordered[position] as ResolvedRouteTarget<TConnection>;
      ordered = [sticky, ...ordered.slice(0, position), ...ordered.slice(position + 1)];
      return { targets: ordered, affinityKey, sticky: true };
    }
  }
  await options.affinityStore.set(affinityKey, (ordered[0] as ResolvedRouteTarget<TConnection>).qualifiedModel, affinity.ttlSeconds);
  return { targets: ordered, affinityKey, sticky: false };
}

function orderByStrategy<TConnection extends AccessConnection>(
  route: SelectableRoute<TConnection>,
  random: () => number,
  latencyTracker: LatencyTracker | undefined,
): ResolvedRouteTarget<TConnection>[] {
  const targets = [...route.targets];
  switch (route.route.strategy) {
    case "priority":
      return targets;
    case "weighted": {
      const total = targets.reduce((sum, target) => sum + (target.weight > 0 ? target.weight : 0), 0);
      if (total <= 0) return targets;
      let threshold = random() * total;
      let chosen = targets.length - 1;
      for (let position = 0; position < targets.length; position += 1) {
        const weight = (targets[position] as ResolvedRouteTarget<TConnection>).weight;
        if (weight <= 0) continue;
        chosen = position;
        if (threshold < weight) break;
        threshold -= weight;
      }
      const [first] = targets.splice(chosen, 1);
      return [first as ResolvedRouteTarget<TConnection>, ...targets];
    }
    case "least-latency": {
      if (!latencyTracker) return targets;
      const keyed = targets.map((target, position) => ({ target, position, latency: latencyTracker.estimate(target.qualifiedModel) }));
      keyed.sort((left, right) => {
        if (left.latency === undefined || right.latency === undefined) {
          if (left.latency === right.latency) return left.position - right.position;
          return left.latency === undefined ? -1 : 1;
        }
        return left.latency - right.latency || left.position - right.position;
      });
      return keyed.map((entry) => entry.target);
    }
  }
}

/**
 * Reports that a target answered: if it is not the remembered one (a fallback served the
 * session), the session now sticks to it for the route's TTL.
 */
export async function reportTargetSuccess(options: {
  affinityStore?: AffinityStore;
  affinityKey: string | null;
  target: { qualifiedModel: string };
  ttlSeconds: number;
}): Promise<void> {
  if (!options.affinityStore || options.affinityKey === null) return;
  const remembered = await options.affinityStore.get(options.affinityKey);
  if (remembered !== options.target.qualifiedModel) {
    await options.affinityStore.set(options.affinityKey, options.target.qualifiedModel, options.ttlSeconds);
  }
}

/** Reports that a target failed: a session stuck to it is released (the next call re-selects). */
export async function reportTargetFailure(options: {
  affinityStore?: AffinityStore;
  affinityKey: string | null;
  target: { qualifiedModel: string };
}): Promise<void> {
  if (!options.affinityStore || options.affinityKey === null) return;
  const remembered = await options.affinityStore.get(options.affinityKey);
  if (remembered === options.target.qualifiedModel) await options.affinityStore.delete(options.affinityKey);
}
