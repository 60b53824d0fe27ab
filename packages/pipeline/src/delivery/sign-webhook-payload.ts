import { createHmac, timingSafeEqual } from "node:crypto";

/** The header that carries a webhook's signature. */
export const webhookSignatureHeader = "x-gateway-signature";

/**
 * Signs a webhook body: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * Receivers recompute the HMAC over the timestamp, a dot and the raw body, compare in
 * constant time and reject old timestamps (replay).
 */
export function signWebhookPayload(options: { secret: string; body: string; timestamp?: number }): string {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const mac = createHmac("sha256", options.secret).update(`${timestamp}.${options.body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** Verifies a signature made by {@link signWebhookPayload} (for receivers and tests). */
export function verifyWebhookSignature(options: { secret: string; body: string; header: string; toleranceSeconds?: number; now?: number }): boolean {
  const parts = Object.fromEntries(options.header.split(",").map((part) => part.split("=", 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || typeof parts.v1 !== "string") return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = createHmac("sha256", options.secret).update(`${timestamp}.${options.body}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
