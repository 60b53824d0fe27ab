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
 * else its provider's default prices (Bedrock's model ids), else `@gateway/budget`'s default
 * price table, else null (unknown: the call costs 0).
 */
export function priceOfTarget(target: CallTarget): ModelPrice | null {
  return priceOfConnectionModel(target.connection as { kind?: string; prices?: Record<string, ModelPrice> }, servedModelOf(target));
}

/** {@link priceOfTarget} for a connection and a `<vendor>/<model>` it serves. */
export function priceOfConnectionModel(connection: { kind?: string; prices?: Readonly<Record<string, ModelPrice>> | null }, model: string): ModelPrice | null {
  const own = connection.prices == null ? null : resolveModelPrice({ model, connectionPrices: connection.prices, defaultPrices: {} });
  if (own !== null) return own;
  const providerPrices = connection.kind === undefined ? undefined : providerOf(connection.kind)?.defaultPrices;
  if (providerPrices !== undefined && Object.hasOwn(providerPrices, model)) return providerPrices[model]!;
  return resolveModelPrice({ model, connectionPrices: null });
}

/**
 * The cost of a call in micro-USD from its usage and the target's price
 * ({@link priceOfTarget}); 0 when the model has no known price.
 */
export function settleCost(target: CallTarget, usage: NormalizedUsage): number {
  const price = priceOfTarget(target);
  return price === null ? 0 : computeCostMicros(usage, price);
}
