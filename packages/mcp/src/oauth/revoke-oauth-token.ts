import { fetchJson } from "./fetch-json.js";
import type { OAuthTokenClient } from "./request-oauth-token.js";

/** RFC 7009 token revocation (best effort: the local revocation stands whatever the answer). */
export async function revokeOAuthToken(options: {
  revocationEndpoint: string;
  client: OAuthTokenClient;
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
