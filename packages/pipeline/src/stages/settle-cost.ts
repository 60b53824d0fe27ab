import type { ModelPrice } from "@gateway/contracts";
import { computeCostMicros, resolveModelPrice } from "@gateway/budget";
import type { NormalizedUsage } from "@gateway/contracts";
import { providerOf } from "@gateway/provider-adapters";
import type { CallTarget } from "./call-target.js";

/** The model id a target asks its connection for (`<vendor>/<model>`), as prices are keyed. */
export function servedModelOf(target: CallTarget): string {
  return target.qualifiedModel.slice(target.connection.name.length + 1);
}

/**
 * The price of a target: the connection's `prices[<vendor>/<model>]` (from the snapshot),
 * else `@gateway/budget`'s default price table, else its provider's default prices
 * ({@link providerDefaultPrice}), else null (unknown: the call costs 0).
 */
export function priceOfTarget(target: CallTarget): ModelPrice | null {
  const connectionPrices = (target.connection as { prices?: Record<string, ModelPrice> }).prices;
  const model = servedModelOf(target);
  return resolveModelPrice({ model, connectionPrices: connectionPrices ?? null }) ?? providerDefaultPrice((target.connection as { kind?: string }).kind, model);
}

/** The default price its provider declares for a model (`defaultPrices` of the provider folder), or null. */
export function providerDefaultPrice(kind: string | undefined, model: string): ModelPrice | null {
  const prices = kind === undefined ? undefined : providerOf(kind)?.defaultPrices;
  return prices !== undefined && Object.hasOwn(prices, model) ? prices[model]! : null;
}

/**
 * The cost of a call in micro-USD from its usage and the target's price
 * ({@link priceOfTarget}); 0 when the model has no known price.
 */
export function settleCost(target: CallTarget, usage: NormalizedUsage): number {
  const price = priceOfTarget(target);
  return price === null ? 0 : computeCostMicros(usage, price);
}
