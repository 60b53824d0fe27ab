import { GatewayError } from "@gateway/errors";
import type { OAuthTokenResponse } from "./oauth-schemas.js";
import { type OAuthTokenClient, requestOAuthToken } from "./request-oauth-token.js";

/** OAuth errors that mean the grant itself is gone (RFC 6749 section 5.2): asking again will not help. */
const permanentOAuthErrors = new Set(["invalid_grant", "invalid_client", "unauthorized_client", "unsupported_grant_type", "invalid_scope"]);

/**
 * Refreshes an access token with a refresh token (RFC 6749 section 6; the RFC 8707 resource is
 * sent again so the new token is for the same MCP server). The answer may rotate the refresh
 * token: keep `refresh_token` when it is present, else the one sent.
 *
 * Throws 424 `mcp_authorization_failed` when the authorization server refuses the grant
 * (`invalid_grant` and the other RFC 6749 grant and client errors, or a 400/401 without a known
 * code): only a new authorization helps. Throws 502 `upstream_error` (retryable) when it does not
 * answer, answers 5xx or an unreadable body: a later attempt may succeed.
 */
export async function refreshOAuthToken(options: {
  tokenEndpoint: string;
  client: OAuthTokenClient;
  refreshToken: string;
  resource: string | null;
  timeoutMs: number;
}): Promise<OAuthTokenResponse> {
  const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: options.refreshToken });
  if (options.resource !== null) form.set("resource", options.resource);
  const outcome = await requestOAuthToken({ tokenEndpoint: options.tokenEndpoint, client: options.client, form, timeoutMs: options.timeoutMs });
  if (outcome.ok) return outcome.tokens;
  const refused =
    (outcome.oauthError !== null && permanentOAuthErrors.has(outcome.oauthError)) || (outcome.oauthError === null && (outcome.status === 400 || outcome.status === 401));
  const details = { status: outcome.status, ...(outcome.oauthError === null ? {} : { oauth_error: outcome.oauthError }) };
  if (refused) {
    throw new GatewayError("mcp_authorization_failed", {
      message: `The authorization server refused the refresh token${outcome.oauthError === null ? "" : ` (${outcome.oauthError})`}.`,
      details,
    });
  }
  throw new GatewayError("upstream_error", {
    message: outcome.status === null ? "The token endpoint did not answer." : `The token endpoint failed (status ${outcome.status}).`,
    details,
    retryable: true,
  });
}
