import { type AddressCategory, classifyAddress } from "./classify-address.js";

/** The environment variable of {@link OutboundAddressPolicy.privateAddresses}. */
export const outboundPrivateAddressesVariable = "GATEWAY_OUTBOUND_PRIVATE_ADDRESSES";

/**
 * Which addresses the services may connect to when they call a URL an organization stored (a
 * connection's base URL, an MCP server and its OAuth endpoints, telemetry and notification URLs).
 * Link-local and cloud metadata addresses (and unspecified, multicast and reserved ones) are
 * always refused; loopback and private ranges follow `privateAddresses`.
 */
export interface OutboundAddressPolicy {
  /**
   * Loopback (127.0.0.0/8, ::1) and private ranges (10/8, 172.16/12, 192.168/16, 100.64/10,
   * fc00::/7): `allow` (the default: model servers on an internal network and local mocks are
   * common) or `deny` (a shared deployment whose users must not reach the internal network).
   */
  privateAddresses: "allow" | "deny";
}

/** The default policy: loopback and private ranges allowed; link-local and metadata refused. */
export const defaultOutboundAddressPolicy: OutboundAddressPolicy = Object.freeze({ privateAddresses: "allow" });

/** Which rule refused an address. */
export type OutboundAddressRule = "never_allowed" | "private_addresses_denied";

/** Why an outbound address is refused; `message` names the address, its kind and the rule. */
export interface OutboundAddressRefusal {
  /** The refused address (or host name, for names refused by their name). */
  address: string;
  category: AddressCategory;
  rule: OutboundAddressRule;
  message: string;
}

/**
 * Reads the policy from `GATEWAY_OUTBOUND_PRIVATE_ADDRESSES` (`allow` or `deny`; unset or empty:
 * `allow`). Throws on any other value, so a typo fails at start rather than opening the network.
 */
export function outboundAddressPolicyFromEnvironment(environment: NodeJS.ProcessEnv = process.env): OutboundAddressPolicy {
  const value = environment[outboundPrivateAddressesVariable]?.trim() ?? "";
  if (value === "" || value === "allow") return defaultOutboundAddressPolicy;
  if (value === "deny") return Object.freeze({ privateAddresses: "deny" });
  throw new Error(`${outboundPrivateAddressesVariable} must be 'allow' or 'deny' (got '${value}').`);
}

const categoryNames: Record<AddressCategory, string> = {
  public: "a public address",
  loopback: "a loopback address",
  private: "a private address",
  link_local: "a link-local address",
  metadata: "a cloud metadata address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  reserved: "a reserved address",
  not_an_address: "not an IP address",
};

const neverAllowed: ReadonlySet<AddressCategory> = new Set(["link_local", "metadata", "unspecified", "multicast", "reserved"]);

function refusal(address: string, category: AddressCategory, policy: OutboundAddressPolicy): OutboundAddressRefusal | null {
  if (neverAllowed.has(category)) {
    const rule =
      category === "link_local" || category === "metadata"
        ? "link-local and cloud metadata addresses are never allowed"
        : "unspecified, multicast and reserved addresses are never allowed";
    return { address, category, rule: "never_allowed", message: `${address} is ${categoryNames[category]}; ${rule}.` };
  }
  if ((category === "loopback" || category === "private") && policy.privateAddresses === "deny") {
    return {
      address,
      category,
      rule: "private_addresses_denied",
      message: `${address} is ${categoryNames[category]}; loopback and private addresses are refused (${outboundPrivateAddressesVariable}=deny).`,
    };
  }
  return null;
}

/**
 * Checks one IP address (the one a socket is about to connect to) against the policy: null when
 * allowed, else why not. Text that is not an IP address is refused (a resolver answers addresses).
 */
export function checkOutboundAddress(address: string, policy: OutboundAddressPolicy): OutboundAddressRefusal | null {
  const category = classifyAddress(address);
  if (category === "not_an_address") {
    return { address, category, rule: "never_allowed", message: `${address} is not an IP address.` };
  }
  return refusal(address, category, policy);
}

// Names that always lead to the metadata service (GCP), or to the local host (RFC 6761).
const metadataHostNames = new Set(["metadata.google.internal", "metadata.goog"]);

/**
 * Checks a URL's host as written, before any resolution: an IP literal is checked as an address;
 * the metadata service names and `localhost` (with `*.localhost`) by what they always name; any
 * other name passes here and is checked on its resolved addresses when a connection opens.
 * Brackets around IPv6 literals and a final dot are accepted.
 */
export function checkOutboundHost(hostname: string, policy: OutboundAddressPolicy): OutboundAddressRefusal | null {
  let host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.endsWith(".")) host = host.slice(0, -1);
  const category = classifyAddress(host);
  if (category !== "not_an_address") return refusal(host, category, policy);
  if (metadataHostNames.has(host)) return refusal(host, "metadata", policy);
  if (host === "localhost" || host.endsWith(".localhost")) return refusal(host, "loopback", policy);
  return null;
}

/**
 * Checks a URL's host (see {@link checkOutboundHost}). WHATWG URL parsing first normalises the
 * numeric IPv4 spellings (`http://2852039166/`, `http://0xA9FEA9FE/`, `http://0251.0376.0251.0376/`)
 * and IPv6 forms, so they are classified as the address they name. An unparsable URL: null
 * (the caller's URL validation answers for it).
 */
export function checkOutboundUrl(url: string, policy: OutboundAddressPolicy): OutboundAddressRefusal | null {
  if (!URL.canParse(url)) return null;
  return checkOutboundHost(new URL(url).hostname, policy);
}
