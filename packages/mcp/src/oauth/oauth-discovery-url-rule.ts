import { classifyAddress } from "@gateway/provider-adapters";

/** The setting that lists further origins OAuth discovery may use (documented in the dashboard README). */
export const oauthDiscoveryOriginsVariable = "DASHBOARD_MCP_OAUTH_ORIGINS";

/** Options of {@link checkOAuthDiscoveryUrl}. */
export interface OAuthDiscoveryUrlRule {
  /** The MCP server's URL: its origin is the one discovery may use. */
  serverUrl: string;
  /** Further origins allowed (`https://auth.example.com`), from {@link oauthDiscoveryOriginsVariable}. */
  allowedOrigins?: readonly string[] | undefined;
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || classifyAddress(host) === "loopback";
}

/**
 * Whether OAuth discovery may fetch (or store, for the endpoints it names) a URL an MCP server
 * or its metadata points to: only https on the MCP server's own origin, or an origin listed in
 * `allowedOrigins`. An MCP server registered on a loopback host (local development, tests) may
 * also use plain http on its own origin. Null when allowed, else the reason, naming the rule and
 * the refused URL's origin only (never its path or query).
 */
export function checkOAuthDiscoveryUrl(url: string, rule: OAuthDiscoveryUrlRule): string | null {
  if (!URL.canParse(url)) return "The MCP server named an OAuth URL that is not a valid URL.";
  const target = new URL(url);
  const server = new URL(rule.serverUrl);
  const allowed = (rule.allowedOrigins ?? []).map((origin) => (URL.canParse(origin) ? new URL(origin).origin : origin));
  if (allowed.includes(target.origin)) return null;
  if (target.origin === server.origin && (target.protocol === "https:" || (target.protocol === "http:" && isLoopbackHost(server.hostname)))) return null;
  if (target.origin === server.origin) {
    return `The MCP server named an OAuth URL over ${target.protocol.slice(0, -1)}: OAuth discovery uses https only (http only for an MCP server on localhost).`;
  }
  return (
    `The MCP server named an OAuth URL on ${target.origin}, outside its own origin ${server.origin}: ` +
    `OAuth discovery only uses the MCP server's own origin unless the other origin is listed in ${oauthDiscoveryOriginsVariable}.`
  );
}
