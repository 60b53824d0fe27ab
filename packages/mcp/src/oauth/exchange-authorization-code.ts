import { GatewayError } from "@gateway/errors";
import type { OAuthTokenResponse } from "./oauth-schemas.js";
import { type OAuthTokenClient, requestOAuthToken } from "./request-oauth-token.js";

/**
 * Exchanges an authorization code at the token endpoint (with the PKCE verifier and the RFC 8707
 * resource). 502 `upstream_error` when the endpoint does not answer; 400 `invalid_request` with
 * `details.status` and `details.oauth_error` when it refuses.
 */
export async function exchangeAuthorizationCode(options: {
  tokenEndpoint: string;
  client: OAuthTokenClient;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  resource: string;
  timeoutMs: number;
}): Promise<OAuthTokenResponse> {
  const outcome = await requestOAuthToken({
    tokenEndpoint: options.tokenEndpoint,
    client: options.client,
    form: new URLSearchParams({
      grant_type: "authorization_code",
      code: options.code,
      redirect_uri: options.redirectUri,
      code_verifier: options.codeVerifier,
      resource: options.resource,
    }),
    timeoutMs: options.timeoutMs,
  });
  if (outcome.ok) return outcome.tokens;
  if (outcome.status === null) throw new GatewayError("upstream_error", { message: "The token endpoint did not answer." });
  throw new GatewayError("invalid_request", {
    message: "The authorization server refused the code exchange.",
    details: { status: outcome.status, ...(outcome.oauthError === null ? {} : { oauth_error: outcome.oauthError }) },
  });
}
