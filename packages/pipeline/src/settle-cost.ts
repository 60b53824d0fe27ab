import { computeCostMicros, resolveModelPrice } from "@gateway/budget";
import type { NormalizedUsage, ProviderTarget } from "@gateway/provider-adapters";

/** The model id a target asks its connection for (`<vendor>/<model>`), as prices are keyed. */
export function servedModelOf(target: ProviderTarget): string {
  return target.qualifiedModel.slice(target.connection.name.length + 1);
}

/**
 * The cost of a call in micro-USD from its usage and the connection's price (or the default
 * price table); 0 when the model has no known price.
 */
export function settleCost(target: ProviderTarget, usage: NormalizedUsage): number {
  const connectionPrices = (target.connection as { prices?: Parameters<typeof resolveModelPrice>[0]["connectionPrices"] })
    .prices;
  const price = resolveModelPrice({ model: servedModelOf(target), connectionPrices: connectionPrices ?? null });
  return price === null ? 0 : computeCostMicros(usage, price);
}
