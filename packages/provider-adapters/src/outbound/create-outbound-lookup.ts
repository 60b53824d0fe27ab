import { type LookupAddress, lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { checkOutboundAddress, type OutboundAddressPolicy } from "./outbound-address-policy.js";
import { OutboundAddressRefusedError } from "./outbound-address-refused-error.js";

/** Options of {@link createOutboundLookup}. */
export interface OutboundLookupOptions {
  policy: OutboundAddressPolicy;
  /** The resolver asked first (tests inject one); default `dns.lookup`. */
  lookup?: LookupFunction;
}

/**
 * A `lookup` for `net.connect` / `tls.connect` (and so for undici's connector) that resolves
 * the host and refuses it when any of its addresses is refused by the policy. The check runs on
 * the very addresses the socket then connects to, for every new connection, so a name that
 * answers a public address once and an internal one later (DNS rebinding) is still refused. A
 * refusal is an {@link OutboundAddressRefusedError}; the socket never connects.
 */
export function createOutboundLookup(options: OutboundLookupOptions): LookupFunction {
  const { policy } = options;
  const resolve = options.lookup ?? (dnsLookup as LookupFunction);
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, lookupOptions, (error, address, family) => {
      if (error) {
        callback(error, address, family);
        return;
      }
      const entries: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 0 }];
      for (const entry of entries) {
        const refusal = checkOutboundAddress(entry.address, policy);
        if (refusal !== null) {
          callback(new OutboundAddressRefusedError(refusal, hostname), Array.isArray(address) ? [] : "", family);
          return;
        }
      }
      callback(null, address, family);
    });
  };
}
