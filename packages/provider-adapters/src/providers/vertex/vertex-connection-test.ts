import type { AdapterConnection } from "../../provider-adapter.js";
import type { ConnectionTestRequest } from "../provider-definition.js";
import { createVertexAccessTokens } from "./vertex-access-tokens.js";
import { vertexAnthropicVersion } from "./vertex-anthropic-models.js";
import { vertexModelUrl } from "./vertex-model-url.js";
import type { VertexSettings } from "./vertex-settings.js";

/** The Gemini model a connection without models of its own is tested with. */
const fallbackTestModel = "gemini-2.5-flash";

/**
 * The dashboard's test of a `vertex` connection: a fresh access token (fetched through the
 * outbound `fetch`), then a token count of one word with the connection's first model, which
 * costs nothing and proves the address, project, location, credential and model access:
 * `count-tokens:rawPredict` for a Claude model, `:countTokens` for a Gemini one.
 */
export async function vertexConnectionTest(connection: AdapterConnection, settings: VertexSettings, dependencies: { fetch: typeof fetch }): Promise<ConnectionTestRequest> {
  const tokens = createVertexAccessTokens({ credential: connection.credential, connectionName: connection.name, fetch: dependencies.fetch });
  const first = connection.models?.[0] ?? `google/${fallbackTestModel}`;
  const [vendor, ...rest] = first.split("/");
  const model = rest.join("/");
  const token = await tokens.token();
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  if (vendor === "anthropic") {
    return {
      method: "POST",
      url: vertexModelUrl({ connection, settings, publisher: "anthropic", model: "count-tokens", method: "rawPredict" }),
      headers,
      body: JSON.stringify({ anthropic_version: vertexAnthropicVersion, model, messages: [{ role: "user", content: "ping" }] }),
    };
  }
  return {
    method: "POST",
    url: vertexModelUrl({ connection, settings, publisher: "google", model: vendor === "google" ? model : fallbackTestModel, method: "countTokens" }),
    headers,
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "ping" }] }] }),
  };
}
