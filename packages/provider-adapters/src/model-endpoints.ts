import type { ModelEndpoint } from "@gateway/contracts";
import type { AdapterConnection } from "./provider-adapter.js";

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
 * Whether `/v1/responses` calls of this model go to the upstream's Responses API (else translated
 * from chat): for a connection as a provider's models received it, whose provider's rule the
 * registry stamped on it (`servesResponsesApi`; see `connectionServesResponses` for any connection).
 */
export function servesResponsesNatively(connection: EndpointConnection & { servesResponsesApi?: boolean }, model: string): boolean {
  return connection.servesResponsesApi === true && modelEndpointsOf(connection, model).includes("responses");
}
