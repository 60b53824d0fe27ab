import { createHash, randomBytes } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";

/** RFC 9728 protected-resource metadata (the fields we use; others pass through). */
export const protectedResourceMetadataSchema = z.looseObject({
  resource: z.string().optional(),
  authorization_servers: z.array(z.string()).optional(),
  scopes_supported: z.array(z.string()).optional(),
});

/** RFC 8414 authorization-server metadata (the fields we use; others pass through). */
export const authorizationServerMetadataSchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string().optional(),
  revocation_endpoint: z.string().optional(),
  scopes_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  grant_types_supported: z.array(z.string()).optional(),
});

/** The OAuth token endpoint's answer. */
export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});

/** What discovery found. */
export interface DiscoveredOAuthMetadata {
  resource: string;
  protectedResource: z.infer<typeof protectedResourceMetadataSchema>;
  protectedResourceUrl: string;
  authorizationServer: z.infer<typeof authorizationServerMetadataSchema>;
  authorizationServerUrl: string;
}

/** A registered (or pre-configured) OAuth client. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string | null;
  /** "none" | "client_secret_basic" | "client_secret_post" */
  tokenEndpointAuthMethod: string;
  /** The registration answer without the secret (stored for reference). */
  registration: Record<string, unknown>;
}

async function fetchJson(url: string, init: RequestInit & { timeoutMs: number }): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(init.timeoutMs) });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body, headers: response.headers };
}

function discoveryError(message: string, details: Record<string, unknown> = {}): GatewayError {
  return new GatewayError("upstream_error", { message, details });
}

/** The canonical resource URI of an MCP server URL (RFC 8707: no fragment, lower-case host). */
export function canonicalResourceUri(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.hash = "";
  let text = url.toString();
  if (url.pathname === "/" && url.search === "") text = text.replace(/\/$/, "");
  return text;
}

/** RFC 8414 / RFC 9728 well-known URL: the well-known segment goes between host and path. */
export function wellKnownUrl(base: string, suffix: string): string {
  const url = new URL(base);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}/.well-known/${suffix}${path}`;
}

function readResourceMetadataHint(header: string | null): string | null {
  if (!header) return null;
  const match = /resource_metadata="([^"]+)"/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Discovers an MCP server's authorization: the protected-resource metadata (RFC 9728; from the
 * `WWW-Authenticate` hint of an unauthenticated request, else the path-inserted and root
 * well-known URLs), then the authorization server's metadata (RFC 8414, with the OpenID
 * configuration as fallback). Refuses servers that do not offer PKCE with S256.
 */
export async function discoverOAuthMetadata(options: { serverUrl: string; timeoutMs: number }): Promise<DiscoveredOAuthMetadata> {
  const resource = canonicalResourceUri(options.serverUrl);
  const candidates: string[] = [];
  try {
    const probe = await fetch(options.serverUrl, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs), headers: { accept: "application/json, text/event-stream" } });
    await probe.arrayBuffer().catch(() => undefined);
    const hint = readResourceMetadataHint(probe.headers.get("www-authenticate"));
    if (hint) candidates.push(new URL(hint, options.serverUrl).toString());
  } catch {
    // The probe is only a hint; the well-known URLs follow.
  }
  candidates.push(wellKnownUrl(resource, "oauth-protected-resource"));
  const rootCandidate = `${new URL(resource).origin}/.well-known/oauth-protected-resource`;
  if (!candidates.includes(rootCandidate)) candidates.push(rootCandidate);

  let protectedResource: z.infer<typeof protectedResourceMetadataSchema> | null = null;
  let protectedResourceUrl = "";
  for (const candidate of candidates) {
    const answer = await fetchJson(candidate, { method: "GET", headers: { accept: "application/json" }, timeoutMs: options.timeoutMs }).catch(() => null);
    if (answer === null || answer.status !== 200) continue;
    const parsed = protectedResourceMetadataSchema.safeParse(answer.body);
    if (parsed.success && (parsed.data.authorization_servers?.length ?? 0) > 0) {
      protectedResource = parsed.data;
      protectedResourceUrl = candidate;
      break;
    }
  }
  if (protectedResource === null) {
    throw discoveryError("The MCP server publishes no OAuth protected-resource metadata (RFC 9728).", { tried: candidates });
  }
  const issuer = protectedResource.authorization_servers![0]!;
  const serverCandidates = [wellKnownUrl(issuer, "oauth-authorization-server"), wellKnownUrl(issuer, "openid-configuration")];
  for (const candidate of serverCandidates) {
    const answer = await fetchJson(candidate, { method: "GET", headers: { accept: "application/json" }, timeoutMs: options.timeoutMs }).catch(() => null);
    if (answer === null || answer.status !== 200) continue;
    const parsed = authorizationServerMetadataSchema.safeParse(answer.body);
    if (!parsed.success) continue;
    if (parsed.data.issuer.replace(/\/$/, "") !== issuer.replace(/\/$/, "")) {
      throw discoveryError("The authorization server's metadata names another issuer.", { issuer, metadata_issuer: parsed.data.issuer });
    }
    if (!parsed.data.code_challenge_methods_supported?.includes("S256")) {
      throw discoveryError("The authorization server does not offer PKCE with S256.", { issuer });
    }
    return { resource, protectedResource, protectedResourceUrl, authorizationServer: parsed.data, authorizationServerUrl: candidate };
  }
  throw discoveryError("The authorization server publishes no metadata (RFC 8414).", { issuer, tried: serverCandidates });
}

/** Dynamic client registration (RFC 7591). */
export async function registerOAuthClient(options: {
  registrationEndpoint: string;
  redirectUri: string;
  clientName: string;
  authMethodsSupported: string[] | undefined;
  scope: string | null;
  timeoutMs: number;
}): Promise<OAuthClient> {
  const methods = options.authMethodsSupported ?? ["client_secret_basic"];
  const tokenEndpointAuthMethod = methods.includes("none") ? "none" : methods.includes("client_secret_basic") ? "client_secret_basic" : "client_secret_post";
  const answer = await fetchJson(options.registrationEndpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      client_name: options.clientName,
      redirect_uris: [options.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: tokenEndpointAuthMethod,
      ...(options.scope ? { scope: options.scope } : {}),
    }),
    timeoutMs: options.timeoutMs,
  }).catch(() => null);
  if (answer === null) throw discoveryError("Dynamic client registration did not answer.");
  const parsed = z.looseObject({ client_id: z.string().min(1), client_secret: z.string().optional(), token_endpoint_auth_method: z.string().optional() }).safeParse(answer.body);
  if ((answer.status !== 201 && answer.status !== 200) || !parsed.success) {
    throw discoveryError(`Dynamic client registration failed (status ${answer.status}).`);
  }
  const { client_secret: clientSecret, ...registration } = parsed.data;
  return {
    clientId: parsed.data.client_id,
    clientSecret: clientSecret ?? null,
    tokenEndpointAuthMethod: parsed.data.token_endpoint_auth_method ?? tokenEndpointAuthMethod,
    registration,
  };
}

/** A PKCE pair: a 43-character verifier and its S256 challenge. */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

/** Builds the authorization request URL (OAuth 2.1 code flow with PKCE and RFC 8707 resource). */
export function buildAuthorizationUrl(options: {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scope: string | null;
  resource: string;
}): string {
  const url = new URL(options.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", options.clientId);
  url.searchParams.set("redirect_uri", options.redirectUri);
  url.searchParams.set("state", options.state);
  url.searchParams.set("code_challenge", options.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("resource", options.resource);
  if (options.scope) url.searchParams.set("scope", options.scope);
  return url.toString();
}

/** Exchanges an authorization code at the token endpoint. */
export async function exchangeAuthorizationCode(options: {
  tokenEndpoint: string;
  client: Pick<OAuthClient, "clientId" | "clientSecret" | "tokenEndpointAuthMethod">;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  resource: string;
  timeoutMs: number;
}): Promise<z.infer<typeof tokenResponseSchema>> {
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: options.code,
    redirect_uri: options.redirectUri,
    code_verifier: options.codeVerifier,
    resource: options.resource,
  });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (options.client.tokenEndpointAuthMethod === "client_secret_basic" && options.client.clientSecret) {
    const encode = (value: string) => encodeURIComponent(value);
    headers.authorization = `Basic ${Buffer.from(`${encode(options.client.clientId)}:${encode(options.client.clientSecret)}`).toString("base64")}`;
  } else {
    form.set("client_id", options.client.clientId);
    if (options.client.tokenEndpointAuthMethod === "client_secret_post" && options.client.clientSecret) {
      form.set("client_secret", options.client.clientSecret);
    }
  }
  const answer = await fetchJson(options.tokenEndpoint, { method: "POST", headers, body: form.toString(), timeoutMs: options.timeoutMs }).catch(() => null);
  if (answer === null) throw discoveryError("The token endpoint did not answer.");
  const parsed = tokenResponseSchema.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success) {
    const oauthError = (answer.body as { error?: unknown } | null)?.error;
    throw new GatewayError("invalid_request", {
      message: "The authorization server refused the code exchange.",
      details: { status: answer.status, ...(typeof oauthError === "string" ? { oauth_error: oauthError } : {}) },
    });
  }
  return parsed.data;
}

/** RFC 7009 token revocation (best effort: the local revocation stands whatever the answer). */
export async function revokeOAuthToken(options: {
  revocationEndpoint: string;
  client: Pick<OAuthClient, "clientId" | "clientSecret" | "tokenEndpointAuthMethod">;
  token: string;
  tokenTypeHint: "access_token" | "refresh_token";
  timeoutMs: number;
}): Promise<boolean> {
  const form = new URLSearchParams({ token: options.token, token_type_hint: options.tokenTypeHint, client_id: options.client.clientId });
  if (options.client.clientSecret && options.client.tokenEndpointAuthMethod !== "none") form.set("client_secret", options.client.clientSecret);
  const answer = await fetchJson(options.revocationEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    timeoutMs: options.timeoutMs,
  }).catch(() => null);
  return answer !== null && answer.status === 200;
}
