import { GatewayError } from "@gateway/errors";

const sessionPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Validates `X-Gateway-Session`: 1 to 128 characters of `A-Z a-z 0-9 . _ : -`.
 * Returns the value, or `null` when absent. An invalid value is 400 `invalid_request`
 * (param `X-Gateway-Session`) when the route has affinity on, and ignored (`null`) otherwise.
 */
export function validateSessionHeader(
  value: string | readonly string[] | null | undefined,
  options: { affinityEnabled: boolean },
): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" && sessionPattern.test(value)) return value;
  if (!options.affinityEnabled) return null;
  throw new GatewayError("invalid_request", {
    message: "X-Gateway-Session must be 1 to 128 characters of letters, digits, '.', '_', ':' or '-'.",
    param: "X-Gateway-Session",
  });
}
