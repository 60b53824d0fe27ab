import type { ModelEndpoint } from "@gateway/contracts";
import type { AdapterConnection } from "./provider-adapter.js";
import { providerOf } from "./providers/provider-registry.js";

/** A gateway endpoint a model may serve (the names of usage events). */
export type ServedEndpoint = "chat_completions" | "messages" | "responses" | "embeddings" | "decisions";

/** What {@link modelEndpointsOf} and {@link servedEndpoints} read of a connection. */
export type EndpointConnection = Pick<AdapterConnection, "kind" | "baseUrl"> &
  Partial<Pick<AdapterConnection, "responsesApi" | "modelEndpoints">>;

/**
 * What an upstream model answers: the connection's `modelEndpoints` entry for it, else
 * `embeddings` for a name containing `embed` (`text-embedding-3-small`, `nomic-embed-text`) and
 * `chat` + `responses` for any other.
 */
export function modelEndpointsOf(connection: EndpointConnection, model: string): readonly ModelEndpoint[] {
  const declared = connection.modelEndpoints?.[model];
  if (declared !== undefined && Object.hasOwn(connection.modelEndpoints!, model)) return declared;
  return /embed/i.test(model) ? ["embeddings"] : ["chat", "responses"];
}

/**
 * Whether a connection's upstream serves the Responses API, as its provider says
 * (`servesResponsesApi`; an `openai` connection: its `responsesApi` setting, or (unset) whether
 * its base URL is OpenAI's own API).
 */
export function connectionServesResponses(connection: EndpointConnection): boolean {
  const servesResponsesApi = providerOf(connection.kind)?.servesResponsesApi;
  return servesResponsesApi === undefined ? false : servesResponsesApi(connection);
}

/** Whether `/v1/responses` calls of this model go to the upstream's Responses API (else translated from chat). */
export function servesResponsesNatively(connection: EndpointConnection, model: string): boolean {
  return connectionServesResponses(connection) && modelEndpointsOf(connection, model).includes("responses");
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
