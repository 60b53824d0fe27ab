import { type EndpointConnection, type ServedEndpoint, modelEndpointsOf } from "../model-endpoints.js";
import { providerOf } from "./provider-registry.js";

/**
 * Whether a connection's upstream serves the Responses API, as its provider says
 * (`servesResponsesApi`; an `openai` connection: its `responsesApi` setting, or (unset) whether
 * its base URL is OpenAI's own API).
 */
export function connectionServesResponses(connection: EndpointConnection): boolean {
  const servesResponsesApi = providerOf(connection.kind)?.servesResponsesApi;
  return servesResponsesApi === undefined ? false : servesResponsesApi(connection);
}

/**
 * The gateway endpoints a model of a connection serves, in one place for routing and the model
 * list, from the capabilities its provider has: with a chat model, chat models serve chat
 * completions and messages (passed through or translated) and responses (passed through where
 * the upstream has the Responses API, else translated); responses-only models serve responses
 * where the upstream has it; with an embedding model, embedding models serve embeddings; with a
 * decision model, chat models serve decisions, and a provider with decisions alone (`systemone`)
 * serves decisions for every model.
 */
export function servedEndpoints(connection: EndpointConnection, model: string): readonly ServedEndpoint[] {
  // Routing asks on every call: answers are kept per connection object (snapshot objects are replaced, never changed).
  let byModel = servedCache.get(connection);
  if (byModel === undefined) {
    byModel = new Map();
    servedCache.set(connection, byModel);
  }
  let served = byModel.get(model);
  if (served === undefined) {
    served = Object.freeze(computeServedEndpoints(connection, model));
    if (byModel.size < 10_000) byModel.set(model, served);
  }
  return served;
}

const servedCache = new WeakMap<object, Map<string, readonly ServedEndpoint[]>>();

function computeServedEndpoints(connection: EndpointConnection, model: string): ServedEndpoint[] {
  const provider = providerOf(connection.kind);
  if (provider === undefined) return [];
  if (provider.chat === undefined) return provider.decisions === undefined ? [] : ["decisions"];
  const declared = modelEndpointsOf(connection, model);
  const served: ServedEndpoint[] = [];
  const chat = declared.includes("chat");
  if (chat) served.push("chat_completions", "messages");
  if (chat || (declared.includes("responses") && connectionServesResponses(connection))) served.push("responses");
  if (declared.includes("embeddings") && provider.embeddings !== undefined) served.push("embeddings");
  if (chat && provider.decisions !== undefined) served.push("decisions");
  return served;
}
