import type { GeminiEndpoint, GeminiMethod } from "../gemini/gemini-endpoint.js";
import type { VertexAccessTokens } from "./vertex-access-tokens.js";
import { vertexModelUrl, type VertexModelUrlOptions } from "./vertex-model-url.js";
import type { VertexSettings } from "./vertex-settings.js";

/** Options of {@link vertexGeminiEndpoint}. */
export interface VertexGeminiEndpointOptions {
  connection: VertexModelUrlOptions["connection"] & { headers: Record<string, string> };
  settings: Pick<VertexSettings, "project" | "location">;
  tokens: Pick<VertexAccessTokens, "token">;
}

/**
 * Gemini on Vertex AI: `.../publishers/google/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse`, `:countTokens` (the request bodies and answers are the
 * Gemini API's), with a bearer token from the connection's credential.
 *
 * Embeddings differ: Vertex has no `embedContent` / `batchEmbedContents` for its embedding
 * models; both map to `:predict`, whose body is `{instances: [{content, task_type?, title?}],
 * parameters?: {outputDimensionality?, autoTruncate?}}` and whose answer is
 * `{predictions: [{embeddings: {values, statistics: {token_count, truncated}}}]}`. A Gemini
 * embedding model must write and read that shape when its endpoint URL ends in `:predict`
 * (the merge wires the Gemini models to this endpoint).
 */
export function vertexGeminiEndpoint(options: VertexGeminiEndpointOptions): GeminiEndpoint {
  return {
    url(model, method) {
      return vertexModelUrl({ ...options, publisher: "google", model, method: vertexMethods[method] });
    },
    async headers() {
      const token = await options.tokens.token();
      const connectionHeaders = Object.fromEntries(Object.entries(options.connection.headers).map(([name, value]) => [name.toLowerCase(), value]));
      return { authorization: `Bearer ${token}`, ...connectionHeaders };
    },
  };
}

const vertexMethods: Record<GeminiMethod, string> = {
  generateContent: "generateContent",
  streamGenerateContent: "streamGenerateContent?alt=sse",
  countTokens: "countTokens",
  embedContent: "predict",
  batchEmbedContents: "predict",
};
