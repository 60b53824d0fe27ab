/**
 * What an upstream model answers, declared per model on a connection (`modelEndpoints`):
 * - `chat`: chat completions / messages (the gateway translates between those formats, and
 *   serves `/v1/responses` and translated decisions from them);
 * - `responses`: the OpenAI Responses API (`POST /responses`), on connections that serve it;
 * - `embeddings`: `POST /embeddings`.
 */
export type ModelEndpoint = "chat" | "responses" | "embeddings";

/** The names of {@link ModelEndpoint}, for validation and documentation. */
export const modelEndpointNames = ["chat", "responses", "embeddings"] as const satisfies readonly ModelEndpoint[];
