import type { LookupFunction } from "node:net";
import { buildConnector } from "undici";
import { checkOutboundHost, type OutboundAddressPolicy } from "./outbound-address-policy.js";
import { createOutboundLookup } from "./create-outbound-lookup.js";
import { OutboundAddressRefusedError } from "./outbound-address-refused-error.js";

/** Options of {@link createOutboundConnector}. */
export interface OutboundConnectorOptions {
  policy: OutboundAddressPolicy;
  /** The resolver (tests inject one); default `dns.lookup`. */
  lookup?: LookupFunction;
  /** TCP/TLS connect timeout (default undici's 10 000 ms). */
  timeoutMs?: number;
}

/**
 * An undici `connect` function (for `Pool`, `Agent`) that enforces the outbound address policy
 * on every new socket: an IP-literal host is checked as written (Node connects to it without a
 * lookup), a host name on each address its resolution answers, right before connecting to it.
 * A refused host fails the connection with an {@link OutboundAddressRefusedError}; no socket
 * connects.
 */
export function createOutboundConnector(options: OutboundConnectorOptions): buildConnector.connector {
  const { policy } = options;
  const lookup = createOutboundLookup({ policy, ...(options.lookup ? { lookup: options.lookup } : {}) });
  const connect = buildConnector({ ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }), lookup });
  return (connectOptions, callback) => {
    const refusal = checkOutboundHost(connectOptions.hostname, policy);
    if (refusal !== null) {
      callback(new OutboundAddressRefusedError(refusal), null);
      return;
    }
    connect(connectOptions, callback);
  };
}
