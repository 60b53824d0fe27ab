import { unsupportedCapability } from "@gateway/provider-adapters";
import { GatewayError } from "@gateway/errors";
import { modelRouter } from "../call/call-router.js";
import type { InferenceEndpoint } from "../call/inference-endpoint.js";
import { estimateChatAdmission } from "../stages/estimate-chat-admission.js";
import { checkRequestNumberFields, embeddingsNumberFields, maxRequestInteger } from "./request-number-fields.js";

/** An embeddings request body after the shape check: `model` and `input`, every other field kept. */
export type EmbeddingsBody = Record<string, unknown> & { model: string; input: unknown };

const invalid = (param: string, message: string) => new GatewayError("invalid_request", { param, message });
const isTokenArray = (value: unknown) =>
  Array.isArray(value) && value.length > 0 && value.every((token) => Number.isInteger(token) && (token as number) >= 0 && (token as number) <= maxRequestInteger);

/**
 * The validate stage of `POST /v1/embeddings`: `model` a non-empty string; `input` a non-empty
 * string, a non-empty array of strings, a token array or an array of token arrays (at most 2048
 * entries; token ids from 0 to 2^31 - 1); `encoding_format` `float` or `base64`; `dimensions` an
 * integer from 1 to 2^31 - 1. Other fields pass through to the provider.
 */
export function parseEmbeddingsBody(body: unknown): EmbeddingsBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid("", "The request body must be a JSON object.");
  const request = body as Record<string, unknown>;
  if (typeof request.model !== "string" || request.model === "") throw invalid("model", "'model' must be a non-empty string.");
  const input = request.input;
  const valid =
    (typeof input === "string" && input !== "") ||
    isTokenArray(input) ||
    (Array.isArray(input) && input.length > 0 && input.length <= 2048 && (input.every((entry) => typeof entry === "string" && entry !== "") || input.every(isTokenArray)));
  if (!valid) throw invalid("input", "'input' must be a non-empty string, an array of non-empty strings, or token arrays (at most 2048 inputs).");
  const format = request.encoding_format;
  if (format !== undefined && format !== null && format !== "float" && format !== "base64") throw invalid("encoding_format", "'encoding_format' must be \"float\" or \"base64\".");
  checkRequestNumberFields(request, embeddingsNumberFields);
  return request as EmbeddingsBody;
}

/**
 * `POST /v1/embeddings` (OpenAI format; native to OpenAI-compatible connections, answered offline
 * by the demo connection; Anthropic has no embeddings API). Input guardrails read the input texts;
 * admission reserves the input estimate (no output tokens); usage is the provider's
 * `prompt_tokens`, priced at the model's input price. Errors use the gateway body; a native
 * provider's own error passes through.
 */
export const embeddingsEndpoint: InferenceEndpoint<EmbeddingsBody> = {
  name: "embeddings",
  router: modelRouter("embeddings"),
  errorFormat: "gateway",
  capturesContent: true,
  guardrailFormat: "openai_embeddings",
  parse: parseEmbeddingsBody,
  model: (request) => request.model,
  admission: ({ snapshot, identity, plan, request }) => estimateChatAdmission({ snapshot, identity, plan, body: request, maxOutputTokens: 0 }),
  async invoke({ adapter, request, target, context }) {
    const model = adapter.embeddings ?? unsupportedCapability(target, "embeddings");
    const answer = await model.embed(request, target, context);
    if (answer.kind !== "json") throw new GatewayError("upstream_error", { message: "The provider streamed an embeddings answer." });
    return {
      kind: "json",
      status: answer.status,
      body: answer.body,
      ...(answer.bodyText === undefined ? {} : { bodyText: answer.bodyText }),
      ...(answer.headers === undefined ? {} : { headers: answer.headers }),
      usage: answer.usage,
    };
  },
};
