import type { ProviderCallContext } from "../../provider-adapter.js";
import type { VertexAccessTokens } from "./vertex-access-tokens.js";
import { vertexModelUrl, type VertexModelUrlOptions } from "./vertex-model-url.js";
import type { VertexSettings } from "./vertex-settings.js";

/** The Gemini API methods a Gemini model calls. */
export type GeminiMethod = "generateContent" | "streamGenerateContent" | "countTokens" | "embedContent" | "batchEmbedContents";

/**
 * Where and how a Gemini model calls its API (the shape the `gemini` provider's models take, so
 * they serve Gemini on Vertex AI unchanged): the URL of a model's method and the headers of a call.
 */
export interface GeminiEndpoint {
  url(model: string, method: GeminiMethod): string;
  headers(context: ProviderCallContext): Promise<Record<string, string>>;
}

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
