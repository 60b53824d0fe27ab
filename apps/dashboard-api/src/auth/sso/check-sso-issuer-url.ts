import { checkOutboundUrl, classifyAddress, type OutboundAddressPolicy } from "@gateway/provider-adapters";

/** Whether a host name is the local machine (`localhost`, `*.localhost`, 127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || classifyAddress(host) === "loopback";
}

/**
 * Checks an OpenID provider's issuer URL before it is stored or used: an absolute https URL
 * without credentials, query or fragment (plain http only on a loopback host, for local
 * development and tests, as MCP OAuth discovery allows it), whose host the outbound address
 * policy (`GATEWAY_OUTBOUND_PRIVATE_ADDRESSES`) allows. Null when allowed, else why not.
 * Every request to the provider also goes through the outbound `fetch`, which checks the
 * address each connection resolves to.
 */
export function checkSsoIssuerUrl(value: string, policy: OutboundAddressPolicy): string | null {
  if (!URL.canParse(value)) return "issuer_url must be an absolute URL such as https://login.example.com.";
  const url = new URL(value);
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    return "issuer_url must not carry credentials, a query or a fragment.";
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    return "issuer_url must use https (plain http only for a provider on localhost).";
  }
  const refusal = checkOutboundUrl(value, policy);
  return refusal === null ? null : `issuer_url is refused by the outbound address policy: ${refusal.message}`;
}
