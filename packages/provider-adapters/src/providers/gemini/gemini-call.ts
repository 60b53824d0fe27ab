import type { HttpJsonResponse, HttpStreamResponse, HttpTransport } from "../../http-transport.js";
import type { AdapterConnection, ProviderCallContext } from "../../provider-adapter.js";
import { malformedAnswer } from "../../upstream-call.js";
import type { GeminiEndpoint, GeminiMethod } from "./gemini-endpoint.js";
import { mapGeminiError } from "./map-gemini-error.js";

/** One call of a Gemini model's method. */
export interface GeminiCall {
  transport: HttpTransport;
  connection: AdapterConnection;
  endpoint: GeminiEndpoint;
  model: string;
  method: GeminiMethod;
  body: unknown;
  context: ProviderCallContext;
}

/** The secrets of a call: the connection's credential and the auth header values (a fetched token). */
export function callSecrets(connection: AdapterConnection, headers: Record<string, string>): string[] {
  const secrets = [connection.credential ?? "", headers["x-goog-api-key"] ?? "", headers.authorization ?? "", (headers.authorization ?? "").replace(/^Bearer\s+/i, "")];
  return secrets.filter((secret) => secret !== "");
}

async function prepare(call: GeminiCall, accept: string) {
  const auth = await call.endpoint.headers(call.context);
  const headers = { "content-type": "application/json", accept, ...auth };
  return { headers, secrets: callSecrets(call.connection, auth) };
}

/** POSTs a JSON body to a model's method; a non-2xx answer throws the mapped Google error, a non-object answer 502. */
export async function postGeminiJson(call: GeminiCall): Promise<HttpJsonResponse & { body: Record<string, unknown> }> {
  const { headers, secrets } = await prepare(call, "application/json");
  const response = await call.transport.requestJson({
    url: call.endpoint.url(call.model, call.method),
    method: "POST",
    headers,
    body: call.body,
    context: call.context,
    provider: call.connection.name,
    ...(call.connection.timeouts === undefined ? {} : { timeouts: call.connection.timeouts }),
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapGeminiError({ status: response.status, headers: response.headers, body: response.body, provider: call.connection.name, secrets });
  }
  if (typeof response.body !== "object" || response.body === null || Array.isArray(response.body)) {
    throw malformedAnswer(call.connection.name, "is not a JSON object");
  }
  return response as HttpJsonResponse & { body: Record<string, unknown> };
}

/** POSTs to `streamGenerateContent?alt=sse`; a non-2xx answer is read and thrown as the mapped Google error. */
export async function postGeminiStream(call: GeminiCall): Promise<{ response: HttpStreamResponse; secrets: string[] }> {
  const { headers, secrets } = await prepare(call, "text/event-stream");
  const response = await call.transport.requestStream({
    url: call.endpoint.url(call.model, call.method),
    method: "POST",
    headers,
    body: call.body,
    context: call.context,
    provider: call.connection.name,
    ...(call.connection.timeouts === undefined ? {} : { timeouts: call.connection.timeouts }),
  });
  if (response.status < 200 || response.status >= 300) {
    const { body } = await response.readJson();
    throw mapGeminiError({ status: response.status, headers: response.headers, body, provider: call.connection.name, secrets });
  }
  return { response, secrets };
}
