import { createPrivateKey, generateKeyPairSync, randomUUID, webcrypto } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import * as openid from "openid-client";
import { isLoopbackHost } from "./check-sso-issuer-url.js";

/** How to reach and authenticate to an organization's OpenID provider. */
export interface SsoProviderSettings {
  issuerUrl: string;
  clientId: string;
  clientAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  /** The client secret, or the private JWK (JSON) for `private_key_jwt`. */
  clientCredential: string | null;
  /** The outbound `fetch` (address policy, no redirects). */
  fetch: typeof fetch;
  /** Longest wait of each request to the provider, in ms. */
  timeoutMs: number;
}

/**
 * Reads the provider's discovery document (and nothing else yet) with `openid-client`. Done at
 * every start and callback rather than cached: the signing keys are then fetched fresh for each
 * callback, so a key the provider rotated in is accepted at once and a removed one refused.
 * An unreachable provider or an unusable document answers 502 `sso_provider_unavailable`.
 */
export async function discoverSsoProvider(settings: SsoProviderSettings): Promise<openid.Configuration> {
  const issuer = new URL(settings.issuerUrl);
  const clientAuthentication = await clientAuthenticationOf(settings);
  try {
    return await openid.discovery(issuer, settings.clientId, undefined, clientAuthentication, {
      [openid.customFetch]: settings.fetch as openid.CustomFetch,
      timeout: Math.max(1, Math.ceil(settings.timeoutMs / 1000)),
      // ID tokens from the token endpoint are verified against the provider's published keys too
      // (openid-client trusts TLS alone by default). Plain http only for a provider on the local
      // machine (checked again here, not only when stored).
      execute: [openid.enableNonRepudiationChecks, ...(issuer.protocol === "http:" && isLoopbackHost(issuer.hostname) ? [openid.allowInsecureRequests] : [])],
    });
  } catch (error) {
    throw new GatewayError("sso_provider_unavailable", {
      message: `The identity provider at ${issuer.origin} could not be reached or its discovery document is unusable: ${reasonOf(error)}`,
      cause: error,
    });
  }
}

/** The parameters a sign-in sends to the provider (PKCE S256, state, nonce). */
export async function buildSsoAuthorizationUrl(
  configuration: openid.Configuration,
  input: { redirectUri: string; scopes: string[]; state: string; nonce: string; codeVerifier: string; loginHint?: string | undefined },
): Promise<URL> {
  const parameters: Record<string, string> = {
    redirect_uri: input.redirectUri,
    scope: [...new Set(["openid", ...input.scopes])].join(" "),
    response_type: "code",
    state: input.state,
    nonce: input.nonce,
    code_challenge: await openid.calculatePKCECodeChallenge(input.codeVerifier),
    code_challenge_method: "S256",
  };
  if (input.loginHint !== undefined) parameters.login_hint = input.loginHint;
  return openid.buildAuthorizationUrl(configuration, parameters);
}

/**
 * Exchanges the authorization code and validates the ID token (`openid-client`): signature
 * against the provider's keys, issuer, audience, nonce, expiry, and the state of the callback.
 * Claims of the userinfo endpoint are added when the provider has one (the ID token wins).
 * Any refusal answers 401 `sso_failed` saying what was wrong; an unreachable token endpoint 502.
 */
export async function exchangeSsoCode(
  configuration: openid.Configuration,
  input: { callbackUrl: URL; state: string; nonce: string; codeVerifier: string },
): Promise<Record<string, unknown>> {
  try {
    const tokens = await openid.authorizationCodeGrant(configuration, input.callbackUrl, {
      pkceCodeVerifier: input.codeVerifier,
      expectedState: input.state,
      expectedNonce: input.nonce,
      idTokenExpected: true,
    });
    const claims = { ...(tokens.claims() as Record<string, unknown>) };
    if (configuration.serverMetadata().userinfo_endpoint !== undefined) {
      try {
        const userinfo = await openid.fetchUserInfo(configuration, tokens.access_token, String(claims.sub));
        return { ...userinfo, ...claims };
      } catch {
        // The ID token alone is enough to sign in; userinfo only adds claims.
      }
    }
    return claims;
  } catch (error) {
    throw describeSsoFailure(error);
  }
}

/** Translates an `openid-client` failure into the dashboard's error. */
export function describeSsoFailure(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  if (error instanceof openid.AuthorizationResponseError) {
    const description = error.error_description ? `: ${error.error_description}` : "";
    return new GatewayError("sso_failed", { message: `The identity provider refused the sign-in (${error.error}${description}).`, cause: error });
  }
  if (error instanceof openid.ResponseBodyError) {
    return new GatewayError("sso_failed", { message: `The identity provider's token endpoint refused the code (${error.error}).`, cause: error });
  }
  const claim = claimOf(error);
  const code = codeOf(error);
  const refused = (reason: string) => new GatewayError("sso_failed", { message: `The identity provider's answer was refused: ${reason}.`, cause: error });
  if (claim === "iss") return refused("the ID token was issued by another issuer than the configured one");
  if (claim === "aud" || claim === "azp") return refused("the ID token is meant for another client (audience)");
  if (claim === "nonce") return refused("the ID token's nonce does not match this sign-in");
  if (claim === "exp") return refused("the ID token has expired");
  if (claim === "iat" || claim === "nbf") return refused(`the ID token's ${claim} time is not acceptable`);
  if (code === "OAUTH_KEY_SELECTION_FAILED") return refused("the ID token is signed with a key the provider does not publish");
  if (/signature verification failed/i.test(messageChain(error))) return refused("the ID token's signature does not verify");
  if (/"state"|state/i.test(messageChain(error)) && code === "OAUTH_INVALID_RESPONSE") return refused("the state does not match this sign-in");
  if (error instanceof TypeError || code === "OAUTH_TIMEOUT" || code === "OAUTH_ABORT" || code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || code === "OAUTH_RESPONSE_IS_NOT_JSON") {
    return new GatewayError("sso_provider_unavailable", { message: `The identity provider could not be reached or answered unusably: ${reasonOf(error)}`, cause: error });
  }
  return refused(reasonOf(error));
}

/** A new key pair for `private_key_jwt`: the private JWK (stored encrypted) and its public half (for the provider). */
export function generateSsoClientKey(): { privateJwk: string; publicJwk: Record<string, unknown> } {
  const kid = randomUUID();
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const privateJwk = { ...privateKey.export({ format: "jwk" }), kid, alg: "ES256", use: "sig" };
  const publicJwk = { ...publicKey.export({ format: "jwk" }), kid, alg: "ES256", use: "sig" };
  return { privateJwk: JSON.stringify(privateJwk), publicJwk };
}

/** The public half of a stored private JWK (shown so it can be registered at the provider). */
export function publicJwkOf(privateJwk: string): Record<string, unknown> {
  const parsed = JSON.parse(privateJwk) as Record<string, unknown>;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicPart } = parsed;
  return publicPart;
}

/** Checks that a private JWK given for `private_key_jwt` is an EC P-256 or RSA private key; null when usable. */
export function checkSsoPrivateJwk(value: string): string | null {
  try {
    const jwk = JSON.parse(value) as Record<string, unknown>;
    if (typeof jwk.d !== "string") return "private_key must be a private JWK (with its 'd' member).";
    if (!((jwk.kty === "EC" && jwk.crv === "P-256") || jwk.kty === "RSA")) return "private_key must be an EC P-256 or RSA JWK.";
    createPrivateKey({ key: jwk as never, format: "jwk" });
    return null;
  } catch {
    return "private_key must be a private JWK in JSON.";
  }
}

async function clientAuthenticationOf(settings: SsoProviderSettings): Promise<openid.ClientAuth> {
  if (settings.clientAuthMethod === "private_key_jwt") {
    if (settings.clientCredential === null) throw new GatewayError("invalid_request", { message: "No private key is stored for private_key_jwt." });
    const jwk = JSON.parse(settings.clientCredential) as webcrypto.JsonWebKey & { kid?: string };
    const algorithm = jwk.kty === "RSA" ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } : { name: "ECDSA", namedCurve: "P-256" };
    const key = await webcrypto.subtle.importKey("jwk", jwk, algorithm, false, ["sign"]);
    return openid.PrivateKeyJwt(jwk.kid === undefined ? (key as openid.CryptoKey) : { key: key as openid.CryptoKey, kid: jwk.kid });
  }
  if (settings.clientCredential === null) return openid.None();
  return settings.clientAuthMethod === "client_secret_post" ? openid.ClientSecretPost(settings.clientCredential) : openid.ClientSecretBasic(settings.clientCredential);
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 6) {
    chain.push(current);
    current = typeof current === "object" ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

function claimOf(error: unknown): string | undefined {
  for (const item of causes(error)) {
    if (typeof item === "object" && item !== null && typeof (item as { claim?: unknown }).claim === "string") return (item as { claim: string }).claim;
  }
  return undefined;
}

function codeOf(error: unknown): string | undefined {
  for (const item of causes(error)) {
    const code = typeof item === "object" && item !== null ? (item as { code?: unknown }).code : undefined;
    if (typeof code === "string" && code.startsWith("OAUTH_")) return code;
  }
  return undefined;
}

function messageChain(error: unknown): string {
  return causes(error)
    .map((item) => (item instanceof Error ? item.message : ""))
    .join(" | ");
}

/** The most specific message of a failure (no URLs' queries, no secrets: these are library and network messages). */
function reasonOf(error: unknown): string {
  const messages = causes(error)
    .filter((item): item is Error => item instanceof Error)
    .map((item) => item.message)
    .filter((message) => message !== "" && message !== "something went wrong" && message !== "fetch failed");
  return messages[messages.length - 1] ?? "unknown failure";
}
