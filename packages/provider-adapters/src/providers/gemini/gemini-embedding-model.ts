import { expectPositiveInteger, invalidRequest, unsupportedFeature } from "../../formats/request-guards.js";
import type { AdapterConnection, EmbeddingModel, RequestBody } from "../../provider-adapter.js";
import { countTextTokensOffThread } from "../../token-counting/token-counting-thread.js";
import { malformedAnswer, translateOrThrow } from "../../upstream-call.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { postGeminiJson } from "./gemini-call.js";
import { type GeminiEndpoint, geminiModelId } from "./gemini-endpoint.js";

/** What an OpenAI embeddings body asks of Gemini. */
interface GeminiEmbeddingsRequest {
  texts: string[];
  single: boolean;
  dimensions: number | undefined;
  base64: boolean;
}

function readEmbeddingsRequest(body: RequestBody): GeminiEmbeddingsRequest {
  for (const key of Object.keys(body)) {
    if (!["model", "input", "dimensions", "encoding_format", "user"].includes(key)) {
      throw unsupportedFeature(key, `Unknown field '${key}' is not supported when translating to Gemini embeddings.`);
    }
  }
  const input = body.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((entry) => typeof entry === "string") ? (input as string[]) : undefined;
  if (texts === undefined) {
    if (Array.isArray(input) && input.length > 0) throw unsupportedFeature("input", "Gemini embeds text only: 'input' must be a string or an array of strings (not tokens).");
    throw invalidRequest("input", "'input' must be a string or an array of strings.");
  }
  if (texts.length === 0) throw invalidRequest("input", "'input' must not be empty.");
  const format = body.encoding_format;
  if (format !== undefined && format !== null && format !== "float" && format !== "base64") throw invalidRequest("encoding_format", "'encoding_format' must be \"float\" or \"base64\".");
  const dimensions = body.dimensions === undefined || body.dimensions === null ? undefined : expectPositiveInteger(body.dimensions, "dimensions");
  return { texts, single: typeof input === "string", dimensions, base64: format === "base64" };
}

/** A vector as OpenAI's `base64` encoding: little-endian float32s. */
function base64Vector(values: number[]): string {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => buffer.writeFloatLE(value, index * 4));
  return buffer.toString("base64");
}

function vectorOf(embedding: unknown, provider: string): number[] {
  const values = (embedding as { values?: unknown } | null | undefined)?.values;
  if (!Array.isArray(values) || !values.every((value) => typeof value === "number")) throw malformedAnswer(provider, "has no embedding values");
  return values as number[];
}

/**
 * The embedding model of Gemini (the Gemini API or Vertex AI, by `endpoint`): an OpenAI
 * embeddings body is sent as `embedContent` (a string `input`) or `batchEmbedContents` (an
 * array), `dimensions` as `outputDimensionality`; the answer is an OpenAI embeddings list
 * (`encoding_format: base64` encoded by the gateway). Gemini reports no token counts for
 * embeddings: `usage.prompt_tokens` is the gateway's estimate of the input (o200k_base), which
 * is what budgets are charged.
 */
export function createGeminiEmbeddingModel(connection: AdapterConnection, _settings: unknown, dependencies: ProviderAdapterDependencies, endpoint: GeminiEndpoint): EmbeddingModel {
  return {
    passthrough: ["openai-embeddings"],
    async embed(body, target, context) {
      const request = translateOrThrow(connection.name, () => readEmbeddingsRequest(body));
      const model = target.upstreamModel;
      const dimension = request.dimensions === undefined ? {} : { outputDimensionality: request.dimensions };
      const content = (text: string) => ({ parts: [{ text }] });
      const call = { transport: dependencies.transport, connection, endpoint, model, context };
      let vectors: number[][];
      let status: number;
      if (request.single) {
        const response = await postGeminiJson({ ...call, method: "embedContent", body: { content: content(request.texts[0]!), ...dimension } });
        vectors = [vectorOf(response.body.embedding, connection.name)];
        status = response.status;
      } else {
        const requests = request.texts.map((text) => ({ model: `models/${decodeURIComponent(geminiModelId(model))}`, content: content(text), ...dimension }));
        const response = await postGeminiJson({ ...call, method: "batchEmbedContents", body: { requests } });
        const embeddings = Array.isArray(response.body.embeddings) ? response.body.embeddings : [];
        if (embeddings.length !== request.texts.length) throw malformedAnswer(connection.name, "has not one embedding per input");
        vectors = embeddings.map((embedding) => vectorOf(embedding, connection.name));
        status = response.status;
      }
      const counted = await countTextTokensOffThread("o200k_base", request.texts);
      const promptTokens = counted.counts.reduce((sum, count) => sum + count, 0);
      const answer = {
        object: "list",
        data: vectors.map((values, index) => ({ object: "embedding", index, embedding: request.base64 ? base64Vector(values) : values })),
        model: target.qualifiedModel,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      };
      return { kind: "json", status, body: answer, usage: { inputTokens: promptTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } };
    },
  };
}
