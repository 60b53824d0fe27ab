import type { HttpJsonResponse, HttpStreamResponse } from "../../http-transport.js";
import { mapUpstreamError } from "../../map-upstream-error.js";
import type { AdapterConnection, ProviderCallContext } from "../../provider-adapter.js";
import { defaultOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import { lowerCaseKeys, malformedAnswer } from "../../upstream-call.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { azureOpenAiUrl } from "./azure-openai-endpoint.js";
import type { AzureOpenAiSettings } from "./azure-openai-settings.js";
import { createEntraTokenSource, entraTokenSource } from "./entra-token-source.js";
import { mapAzureContentFilterError } from "./map-azure-content-filter-error.js";

/**
 * The credential headers of a connection: `api-key`, or an Entra ID bearer token when `entra` is
 * set (from the token source shared across snapshots, or with `shared: false` one of its own,
 * for a `fetch` bound to one request such as the dashboard's connection test).
 */
export function azureCredentialHeaders(
  connection: Pick<AdapterConnection, "name" | "credential">,
  settings: AzureOpenAiSettings,
  fetch: typeof globalThis.fetch,
  shared = true,
): (signal?: () => AbortSignal) => Promise<Record<string, string>> {
  const { credential } = connection;
  if (settings.entra === null || credential === null || credential === "") {
    const headers: Record<string, string> = credential ? { "api-key": credential } : {};
    return async () => headers;
  }
  const options = { entra: settings.entra, clientSecret: credential, fetch, provider: connection.name };
  const tokens = shared ? entraTokenSource(options) : createEntraTokenSource(options);
  return async (signal) => ({ authorization: `Bearer ${await tokens.token(signal)}` });
}

/** The upstream calls every model of an `azure-openai` connection shares. */
export function azureOpenAiCaller(connection: AdapterConnection, settings: AzureOpenAiSettings, dependencies: ProviderAdapterDependencies) {
  const credentialHeaders = azureCredentialHeaders(connection, settings, dependencies.fetch ?? defaultOutboundFetch());
  const extraHeaders = lowerCaseKeys(connection.headers);
  const timeouts = connection.timeouts === undefined ? {} : { timeouts: connection.timeouts };

  async function headers(context: ProviderCallContext, accept = "application/json"): Promise<Record<string, string>> {
    return { accept, ...(await credentialHeaders(() => context.abort.signal)), ...extraHeaders };
  }

  function failure(status: number, responseHeaders: Record<string, string>, body: unknown) {
    return (
      mapAzureContentFilterError(status, body, connection.name) ??
      mapUpstreamError({ status, headers: responseHeaders, body, provider: connection.name, secrets: [connection.credential] })
    );
  }

  return {
    headers,
    url: (path: string, deployment: string | null) => azureOpenAiUrl(connection, settings, path, deployment),
    /** POSTs JSON; a non-2xx answer throws (a filtered prompt as {@link mapAzureContentFilterError}). */
    async postJson(url: string, body: unknown, context: ProviderCallContext): Promise<HttpJsonResponse & { body: Record<string, unknown> }> {
      const response = await dependencies.transport.requestJson({ url, method: "POST", headers: await headers(context), body, context, provider: connection.name, ...timeouts });
      if (response.status < 200 || response.status >= 300) throw failure(response.status, response.headers, response.body);
      if (typeof response.body !== "object" || response.body === null || Array.isArray(response.body)) throw malformedAnswer(connection.name, "is not a JSON object");
      return response as HttpJsonResponse & { body: Record<string, unknown> };
    },
    /** POSTs JSON expecting an SSE stream; a non-2xx answer is read and thrown like {@link postJson}'s. */
    async postStream(url: string, body: unknown, context: ProviderCallContext): Promise<HttpStreamResponse> {
      const response = await dependencies.transport.requestStream({ url, method: "POST", headers: await headers(context, "text/event-stream"), body, context, provider: connection.name, ...timeouts });
      if (response.status < 200 || response.status >= 300) {
        const { body: errorBody } = await response.readJson();
        throw failure(response.status, response.headers, errorBody);
      }
      return response;
    },
  };
}
