import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { fetchJson } from "./fetch-json.js";

/** A registered (or pre-configured) OAuth client. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string | null;
  /** "none" | "client_secret_basic" | "client_secret_post" */
  tokenEndpointAuthMethod: string;
  /** The registration answer without the secret (stored for reference). */
  registration: Record<string, unknown>;
}

/** Dynamic client registration (RFC 7591); 502 `upstream_error` when it fails. */
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
  if (answer === null) throw new GatewayError("upstream_error", { message: "Dynamic client registration did not answer." });
  const parsed = z.looseObject({ client_id: z.string().min(1), client_secret: z.string().optional(), token_endpoint_auth_method: z.string().optional() }).safeParse(answer.body);
  if ((answer.status !== 201 && answer.status !== 200) || !parsed.success) {
    throw new GatewayError("upstream_error", { message: `Dynamic client registration failed (status ${answer.status}).` });
  }
  const { client_secret: clientSecret, ...registration } = parsed.data;
  return {
    clientId: parsed.data.client_id,
    clientSecret: clientSecret ?? null,
    tokenEndpointAuthMethod: parsed.data.token_endpoint_auth_method ?? tokenEndpointAuthMethod,
    registration,
  };
}
