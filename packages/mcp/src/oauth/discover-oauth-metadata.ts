import { GatewayError } from "@gateway/errors";
import { defaultOutboundFetch } from "@gateway/provider-adapters";
import type { z } from "zod";
import { canonicalResourceUri } from "./canonical-resource-uri.js";
import { fetchJson } from "./fetch-json.js";
import { checkOAuthDiscoveryUrl } from "./oauth-discovery-url-rule.js";
import { authorizationServerMetadataSchema, protectedResourceMetadataSchema } from "./oauth-schemas.js";
import { wellKnownUrl } from "./well-known-url.js";

/** What discovery found. */
export interface DiscoveredOAuthMetadata {
  resource: string;
  protectedResource: z.infer<typeof protectedResourceMetadataSchema>;
  protectedResourceUrl: string;
  authorizationServer: z.infer<typeof authorizationServerMetadataSchema>;
  authorizationServerUrl: string;
}

function discoveryError(message: string, details: Record<string, unknown> = {}): GatewayError {
  return new GatewayError("upstream_error", { message, details });
}

function readResourceMetadataHint(header: string | null): string | null {
  if (!header) return null;
  const match = /resource_metadata="([^"]+)"/i.exec(header);
  return match?.[1] ?? null;
}

/** Options of {@link discoverOAuthMetadata}. */
export interface DiscoverOAuthMetadataOptions {
  serverUrl: string;
  timeoutMs: number;
  /** Origins besides the MCP server's own that discovery may use (see `checkOAuthDiscoveryUrl`). */
  allowedOrigins?: readonly string[] | undefined;
  /** Default: the outbound address policy's `fetch` (`defaultOutboundFetch`). */
  fetch?: typeof fetch | undefined;
}

/**
 * Discovers an MCP server's authorization: the protected-resource metadata (RFC 9728; from the
 * `WWW-Authenticate` hint of an unauthenticated request, else the path-inserted and root
 * well-known URLs), then the authorization server's metadata (RFC 8414, with the OpenID
 * configuration as fallback). Refuses servers that do not offer PKCE with S256 (502 `upstream_error`).
 * Every URL the server or its metadata names (the hint, the authorization server, its endpoints)
 * must pass `checkOAuthDiscoveryUrl` (https on the server's own origin, or a configured origin):
 * a hint that does not is not fetched; an authorization server or endpoint that does not fails
 * discovery with 502 `upstream_error` naming the rule. Connections also pass the outbound
 * address policy; redirects are never followed.
 */
export async function discoverOAuthMetadata(options: DiscoverOAuthMetadataOptions): Promise<DiscoveredOAuthMetadata> {
  const resource = canonicalResourceUri(options.serverUrl);
  const fetchFunction = options.fetch ?? defaultOutboundFetch();
  const rule = { serverUrl: options.serverUrl, allowedOrigins: options.allowedOrigins };
  const candidates: string[] = [];
  let refusedHint: string | null = null;
  try {
    const probe = await fetchFunction(options.serverUrl, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs), headers: { accept: "application/json, text/event-stream" } });
    await probe.arrayBuffer().catch(() => undefined);
    const hint = readResourceMetadataHint(probe.headers.get("www-authenticate"));
    if (hint && URL.canParse(hint, options.serverUrl)) {
      const hintUrl = new URL(hint, options.serverUrl).toString();
      refusedHint = checkOAuthDiscoveryUrl(hintUrl, rule);
      if (refusedHint === null) candidates.push(hintUrl);
    }
  } catch {
    // The probe is only a hint; the well-known URLs follow.
  }
  candidates.push(wellKnownUrl(resource, "oauth-protected-resource"));
  const rootCandidate = `${new URL(resource).origin}/.well-known/oauth-protected-resource`;
  if (!candidates.includes(rootCandidate)) candidates.push(rootCandidate);

  let protectedResource: z.infer<typeof protectedResourceMetadataSchema> | null = null;
  let protectedResourceUrl = "";
  for (const candidate of candidates) {
    const answer = await fetchJson(candidate, { method: "GET", headers: { accept: "application/json" }, timeoutMs: options.timeoutMs, fetch: fetchFunction }).catch(() => null);
    if (answer === null || answer.status !== 200) continue;
    const parsed = protectedResourceMetadataSchema.safeParse(answer.body);
    if (parsed.success && (parsed.data.authorization_servers?.length ?? 0) > 0) {
      protectedResource = parsed.data;
      protectedResourceUrl = candidate;
      break;
    }
  }
  if (protectedResource === null) {
    const message = "The MCP server publishes no OAuth protected-resource metadata (RFC 9728).";
    throw discoveryError(refusedHint === null ? message : `${message} ${refusedHint}`, { tried: candidates });
  }
  const issuer = protectedResource.authorization_servers![0]!;
  const refusedIssuer = checkOAuthDiscoveryUrl(issuer, rule);
  if (refusedIssuer !== null) throw discoveryError(`The authorization server was not contacted. ${refusedIssuer}`);
  const serverCandidates = [wellKnownUrl(issuer, "oauth-authorization-server"), wellKnownUrl(issuer, "openid-configuration")];
  for (const candidate of serverCandidates) {
    const answer = await fetchJson(candidate, { method: "GET", headers: { accept: "application/json" }, timeoutMs: options.timeoutMs, fetch: fetchFunction }).catch(() => null);
    if (answer === null || answer.status !== 200) continue;
    const parsed = authorizationServerMetadataSchema.safeParse(answer.body);
    if (!parsed.success) continue;
    if (parsed.data.issuer.replace(/\/$/, "") !== issuer.replace(/\/$/, "")) {
      throw discoveryError("The authorization server's metadata names another issuer.", { issuer, metadata_issuer: parsed.data.issuer });
    }
    if (!parsed.data.code_challenge_methods_supported?.includes("S256")) {
      throw discoveryError("The authorization server does not offer PKCE with S256.", { issuer });
    }
    const { authorization_endpoint, token_endpoint, registration_endpoint, revocation_endpoint } = parsed.data;
    for (const endpoint of [authorization_endpoint, token_endpoint, registration_endpoint, revocation_endpoint]) {
      const refusedEndpoint = endpoint === undefined ? null : checkOAuthDiscoveryUrl(endpoint, rule);
      if (refusedEndpoint !== null) throw discoveryError(`The authorization server's metadata was refused. ${refusedEndpoint}`);
    }
    return { resource, protectedResource, protectedResourceUrl, authorizationServer: parsed.data, authorizationServerUrl: candidate };
  }
  throw discoveryError("The authorization server publishes no metadata (RFC 8414).", { issuer, tried: serverCandidates });
}
