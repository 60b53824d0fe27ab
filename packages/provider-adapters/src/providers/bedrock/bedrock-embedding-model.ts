import type { EmbeddingModel, ProviderCallContext } from "../../provider-adapter.js";
import { expectString, invalidRequest, isJsonObject, unsupportedFeature } from "../../formats/request-guards.js";
import { malformedAnswer, translateOrThrow } from "../../upstream-call.js";
import type { BedrockClient } from "./bedrock-client.js";
import { bedrockModelIdOf } from "./bedrock-model-id.js";

/** Titan embeddings v2's allowed output sizes. */
const titanDimensions = new Set([256, 512, 1024]);

interface EmbeddingsRequest {
  texts: string[];
  dimensions: number | undefined;
  base64: boolean;
  inputType: string;
}

/**
 * Embeddings through InvokeModel (`POST /model/{modelId}/invoke`), answered as an OpenAI
 * embeddings list (floats, or base64 float32 when `encoding_format: "base64"`) with usage:
 * Titan Text Embeddings (`amazon.titan-embed-*`: one call per input, `dimensions` for v2) and
 * Cohere Embed (`cohere.embed-*`: all inputs in one call, `input_type` from the request's own
 * `input_type` field, else `search_document`). Token-array inputs and other families are
 * refused with `unsupported_feature`.
 */
export function createBedrockEmbeddingModel(options: { client: BedrockClient; provider: string }): EmbeddingModel {
  const { client, provider } = options;
  return {
    passthrough: ["openai-embeddings"],
    async embed(body, target, context) {
      const modelId = bedrockModelIdOf(target);
      const family = /(?:^|\.)amazon\.titan-embed/.test(modelId) ? "titan" : /(?:^|\.)cohere\.embed/.test(modelId) ? "cohere" : undefined;
      if (family === undefined) throw unsupportedFeature("model", `The Bedrock model '${modelId}' is not a Titan or Cohere embedding model.`);
      const request = translateOrThrow(provider, () => readEmbeddingsRequest(body, family, modelId));
      const { vectors, inputTokens } = family === "titan" ? await embedWithTitan(client, modelId, request, context, provider) : await embedWithCohere(client, modelId, request, context, provider);
      const answer = {
        object: "list",
        data: vectors.map((vector, index) => ({ object: "embedding", index, embedding: request.base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector })),
        model: target.qualifiedModel,
        usage: { prompt_tokens: inputTokens, total_tokens: inputTokens },
      };
      return { kind: "json", status: 200, body: answer, usage: { inputTokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 } };
    },
  };
}

function readEmbeddingsRequest(body: Record<string, unknown>, family: "titan" | "cohere", modelId: string): EmbeddingsRequest {
  for (const key of Object.keys(body)) {
    if (!["model", "input", "encoding_format", "dimensions", "user", "input_type"].includes(key)) throw unsupportedFeature(key, `'${key}' is not supported by Bedrock embeddings.`);
  }
  const input = body.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) && input.every((entry) => typeof entry === "string") ? (input as string[]) : undefined;
  if (texts === undefined) throw unsupportedFeature("input", "Bedrock embeddings take text inputs (a string or an array of strings), not token arrays.");
  if (texts.length === 0) throw invalidRequest("input", "'input' must not be empty.");
  const format = body.encoding_format ?? "float";
  if (format !== "float" && format !== "base64") throw invalidRequest("encoding_format", "'encoding_format' must be \"float\" or \"base64\".");
  let dimensions: number | undefined;
  if (body.dimensions !== undefined && body.dimensions !== null) {
    if (family !== "titan" || !modelId.includes("titan-embed-text-v2") || typeof body.dimensions !== "number" || !titanDimensions.has(body.dimensions)) {
      throw unsupportedFeature("dimensions", "'dimensions' is supported by Titan Text Embeddings v2 only, as 256, 512 or 1024.");
    }
    dimensions = body.dimensions;
  }
  const inputType = body.input_type === undefined || body.input_type === null ? "search_document" : expectString(body.input_type, "input_type");
  if (family === "titan" && body.input_type !== undefined && body.input_type !== null) throw unsupportedFeature("input_type", "'input_type' is a Cohere embeddings field.");
  return { texts, dimensions, base64: format === "base64", inputType };
}

async function embedWithTitan(client: BedrockClient, model: string, request: EmbeddingsRequest, context: ProviderCallContext, provider: string) {
  const answers = await Promise.all(
    request.texts.map((text) => client.postJson("invoke", model, { inputText: text, ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }) }, context)),
  );
  let inputTokens = 0;
  const vectors = answers.map((answer) => {
    inputTokens += tokenCount(answer.headers, answer.body.inputTextTokenCount);
    return floats(answer.body.embedding, provider);
  });
  return { vectors, inputTokens };
}

async function embedWithCohere(client: BedrockClient, model: string, request: EmbeddingsRequest, context: ProviderCallContext, provider: string) {
  const answer = await client.postJson("invoke", model, { texts: request.texts, input_type: request.inputType, truncate: "NONE" }, context);
  // v3 answers `embeddings: number[][]`; with `embedding_types` (and v4) `embeddings: {float: number[][]}`.
  const raw = isJsonObject(answer.body.embeddings) ? answer.body.embeddings.float : answer.body.embeddings;
  if (!Array.isArray(raw) || raw.length !== request.texts.length) throw malformedAnswer(provider, "has no embedding per input");
  return { vectors: raw.map((vector) => floats(vector, provider)), inputTokens: tokenCount(answer.headers, undefined) };
}

/** InvokeModel's `x-amzn-bedrock-input-token-count` header, else the body's count, else 0. */
function tokenCount(headers: Record<string, string>, bodyCount: unknown): number {
  const header = Number(headers["x-amzn-bedrock-input-token-count"]);
  if (Number.isInteger(header) && header >= 0 && headers["x-amzn-bedrock-input-token-count"] !== undefined) return header;
  return typeof bodyCount === "number" && Number.isInteger(bodyCount) && bodyCount >= 0 ? bodyCount : 0;
}

function floats(value: unknown, provider: string): number[] {
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === "number")) throw malformedAnswer(provider, "has an embedding that is not a list of numbers");
  return value as number[];
}
