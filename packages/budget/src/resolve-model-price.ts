import { defaultPriceTable } from "./default-price-table.js";
import type { ModelPrice } from "@gateway/contracts";

/** Input of {@link resolveModelPrice}. */
export interface ResolveModelPriceInput {
  /** `<vendor>/<model>` as served by the connection (not provider-qualified). */
  model: string;
  /** The connection's `prices` (snapshot `connections[].prices`); wins over the defaults. */
  connectionPrices?: Readonly<Record<string, ModelPrice>> | null;
  /** The fallback table; default {@link defaultPriceTable}. Pass `{}` to disable defaults. */
  defaultPrices?: Readonly<Record<string, ModelPrice>>;
}

/**
 * The price of a model: the connection's own entry, else the default table's, else `null`
 * (unknown price: the caller records cost 0 and cannot bound the call's cost).
 */
export function resolveModelPrice(input: ResolveModelPriceInput): ModelPrice | null {
  const own = input.connectionPrices ? lookup(input.connectionPrices, input.model) : undefined;
  if (own) return own;
  return lookup(input.defaultPrices ?? defaultPriceTable, input.model) ?? null;
}

function lookup(table: Readonly<Record<string, ModelPrice>>, model: string): ModelPrice | undefined {
  return Object.hasOwn(table, model) ? table[model] : undefined;
}
