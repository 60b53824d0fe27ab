import { fetchJson } from "./fetch-json.js";
import { type OAuthTokenResponse, tokenResponseSchema } from "./oauth-schemas.js";
import type { OAuthClient } from "./register-oauth-client.js";

/** The client fields a token request authenticates with. */
export type OAuthTokenClient = Pick<OAuthClient, "clientId" | "clientSecret" | "tokenEndpointAuthMethod">;

/** The outcome of one token request: the tokens, or what the endpoint answered instead. */
export type OAuthTokenOutcome =
  | { ok: true; tokens: OAuthTokenResponse }
  /** `status` null: no answer (unreachable, timed out); `oauthError` the RFC 6749 `error` code when the body carried one. */
  | { ok: false; status: number | null; oauthError: string | null };

/**
 * One request to an OAuth token endpoint (the code exchange and the refresh share it): the form
 * plus the client's authentication, `client_secret_basic` (RFC 6749 section 2.3.1, form-encoded
 * id and secret), `client_secret_post`, or `none` (the `client_id` in the form). Never throws.
 */
export async function requestOAuthToken(options: { tokenEndpoint: string; client: OAuthTokenClient; form: URLSearchParams; timeoutMs: number }): Promise<OAuthTokenOutcome> {
  const form = new URLSearchParams(options.form);
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
  if (answer === null) return { ok: false, status: null, oauthError: null };
  const parsed = tokenResponseSchema.safeParse(answer.body);
  if (answer.status === 200 && parsed.success) return { ok: true, tokens: parsed.data };
  const oauthError = (answer.body as { error?: unknown } | null)?.error;
  return { ok: false, status: answer.status, oauthError: typeof oauthError === "string" ? oauthError : null };
}
