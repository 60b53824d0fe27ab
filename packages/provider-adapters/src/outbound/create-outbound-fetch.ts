import type { LookupFunction } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { createOutboundConnector } from "./create-outbound-connector.js";
import { type OutboundAddressPolicy, outboundAddressPolicyFromEnvironment } from "./outbound-address-policy.js";
import { OutboundAddressRefusedError } from "./outbound-address-refused-error.js";

/** Options of {@link createOutboundFetch}. */
export interface OutboundFetchOptions {
  /** Default: {@link outboundAddressPolicyFromEnvironment}. */
  policy?: OutboundAddressPolicy;
  /** The resolver (tests inject one); default `dns.lookup`. */
  lookup?: LookupFunction;
}

/**
 * A `fetch` for URLs that organizations store (MCP servers and their OAuth endpoints, telemetry
 * and notification URLs, connection tests): every connection it opens is checked against the
 * outbound address policy on the address it connects to (see `createOutboundConnector`), and
 * redirects are never followed (`redirect: "manual"` whatever the caller asks: a 3xx is
 * answered as is, so a redirect cannot lead past the check or carry a credential elsewhere).
 * A refused address rejects like a network failure (`TypeError`), with the refusal in its
 * message (callers that only show `error.message`, the MCP SDK's, name the rule) and an
 * `OutboundAddressRefusedError` as its `cause`.
 */
export function createOutboundFetch(options: OutboundFetchOptions = {}): typeof fetch {
  const policy = options.policy ?? outboundAddressPolicyFromEnvironment();
  const dispatcher = new Agent({ connect: createOutboundConnector({ policy, ...(options.lookup ? { lookup: options.lookup } : {}) }) });
  const outboundFetch = (input: string | URL | Request, init?: RequestInit) => {
    if (typeof input === "object" && !(input instanceof URL)) {
      // A Request of the global fetch: undici's fetch takes its URL and parts, not the object.
      const request = input;
      return undiciFetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
        duplex: "half",
        ...(init as object),
        redirect: "manual",
        dispatcher,
      } as unknown as Parameters<typeof undiciFetch>[1]).catch(nameRefusal);
    }
    return undiciFetch(input, { ...(init as object), redirect: "manual", dispatcher } as unknown as Parameters<typeof undiciFetch>[1]).catch(nameRefusal);
  };
  return outboundFetch as unknown as typeof fetch;
}

/** Rethrows a failed fetch; one refused by the policy as `fetch failed: Outbound address refused: ...`. */
function nameRefusal(error: unknown): never {
  const refused = OutboundAddressRefusedError.find(error);
  if (refused === null) throw error;
  throw new TypeError(`fetch failed: ${refused.message}`, { cause: refused });
}

let defaultFetch: typeof fetch | null = null;

/**
 * The process's outbound `fetch`, under the policy of the environment
 * (`GATEWAY_OUTBOUND_PRIVATE_ADDRESSES`), created on first use and shared (one connection pool).
 */
export function defaultOutboundFetch(): typeof fetch {
  defaultFetch ??= createOutboundFetch();
  return defaultFetch;
}
