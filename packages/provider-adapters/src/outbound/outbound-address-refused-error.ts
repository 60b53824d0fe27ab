import type { OutboundAddressRefusal } from "./outbound-address-policy.js";

/**
 * A connection refused by the outbound address policy before any socket connected. Carries the
 * refusal (address, kind, rule); its message names the host as written and the rule, never a URL
 * (which can hold credentials).
 */
export class OutboundAddressRefusedError extends Error {
  /** Stable code, as Node's network errors carry one (`cause.code` of a failed `fetch`). */
  readonly code = "ERR_OUTBOUND_ADDRESS_REFUSED";
  readonly refusal: OutboundAddressRefusal;
  /** The host name that resolved to the refused address (equal to it for IP literals). */
  readonly hostname: string;
  /** Why, naming the host, its address when resolved, its kind and the rule. */
  readonly reason: string;

  constructor(refusal: OutboundAddressRefusal, hostname: string = refusal.address) {
    const reason = hostname === refusal.address ? refusal.message : `${hostname} resolves to ${refusal.message}`;
    super(`Outbound address refused: ${reason}`);
    this.reason = reason;
    this.name = "OutboundAddressRefusedError";
    this.refusal = refusal;
    this.hostname = hostname;
  }

  /**
   * The outbound address refusal that `error` is or was caused by (`fetch` wraps it in a
   * `TypeError`), else null. Recognised by its code too, should two copies of this module meet.
   */
  static find(error: unknown): OutboundAddressRefusedError | null {
    let current: unknown = error;
    for (let depth = 0; depth < 5 && current !== null && typeof current === "object"; depth += 1) {
      if (current instanceof OutboundAddressRefusedError) return current;
      if ((current as { code?: unknown }).code === "ERR_OUTBOUND_ADDRESS_REFUSED" && "refusal" in current && "reason" in current) {
        return current as OutboundAddressRefusedError;
      }
      current = (current as { cause?: unknown }).cause;
    }
    return null;
  }
}
