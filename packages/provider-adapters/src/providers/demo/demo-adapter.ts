import { renderDecisionUsage } from "../../formats/decisions/decision-usage.js";
import { renderMessagesUsage } from "../../formats/messages/messages-usage.js";
import { renderChatUsage } from "../../formats/chat-completions/chat-usage.js";
import { createHash } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import { callerAborted } from "../../call-abort.js";
import type { DecisionResponse } from "../../decision/decision-contract.js";
import { buildDecisionAnswer } from "../../decision/build-decision-answer.js";
import { decisionOptions } from "../../decision/decision-options.js";
import { emptyUsage } from "../../provider-adapter.js";
import type { NormalizedUsage } from "@gateway/contracts";
import type {
  ChatModel,
  DecisionModel,
  EmbeddingModel,
  ProviderAdapter,
  ProviderCallContext,
  ProviderResult,
  RequestBody,
  ProviderTarget,
  TokenCounter,
} from "../../provider-adapter.js";
import { createChatStreamDecoder } from "../../formats/chat-completions/create-chat-stream-decoder.js";
import { createMessagesStreamDecoder } from "../../formats/messages/create-messages-stream-decoder.js";
import { createResponsesStreamDecoder } from "../../formats/responses/create-responses-stream-decoder.js";
import { createResponsesStreamEncoder } from "../../formats/responses/create-responses-stream-encoder.js";
import { buildResponseObject } from "../../formats/responses/build-response-object.js";
import { decodeSseStream } from "../../stream/decode-sse-stream.js";
import type { SseEvent } from "../../stream/sse-event.js";
import type { StreamDecoder } from "../../stream/stream-part.js";

/** Header (and response flag) set on every demo answer. */
export const demoHeaderName = "x-gateway-demo";

const demoHeaders = (): Record<string, string> => ({ [demoHeaderName]: "true" });

/** The text every demo answer starts with, so nobody mistakes it for model output. */
export const demoNotice = "[demo] This answer comes from the gateway's built-in demo provider; no model was called.";

/**
 * The offline demo provider: deterministic answers derived from a SHA-256 of the input, no
 * network. Every answer is labelled (`x-gateway-demo: true`, a `[demo]` notice in the
 * content, `demo: true` on decision responses, `probability_source: "demo"` on answers).
 * Every chat format is its own (passed through: answered in the caller's format), so nothing
 * is translated.
 */
export function createDemoAdapter(): ProviderAdapter {
  return { kind: "demo", chat: demoChatModel, embeddings: demoEmbeddingModel, tokenCounter: demoTokenCounter, decisions: demoDecisionModel };
}

/** The demo's chat model: answers chat completions, messages and Responses requests in their own format. */
export const demoChatModel: ChatModel = {
  passthrough: ["openai-chat", "anthropic-messages", "openai-responses"],
  async send(format, body, target, context) {
    if (format === "openai-chat") return chatCompletions(body, target, context);
    if (format === "anthropic-messages") return messages(body, target, context);
    return responses(body, target, context);
  },
};

/** The demo's decision model (the decision contract answered offline). */
export const demoDecisionModel: DecisionModel = {
  passthrough: ["systemone-decisions"],
  logprobs: false,
  async decide(request, target, context) {
    ensureActive(context);
    // fromEntries defines own keys: a question or choice named `__proto__` keeps its key.
    const answers: DecisionResponse["answers"] = Object.fromEntries(
      Object.entries(request.questions).map(([key, question]) => {
        const digest = hashOf({ key, question, state: request.state });
        if (question.type === "score" && !Array.isArray(question.criteria)) {
          // A numeric-key rubric: pick levels by their numeric value order.
          const entries = Object.keys(question.criteria);
          const chosen = entries[digest[0]! % entries.length]!;
          return [key, { type: "score", score: Number(chosen), probability_source: "demo" }];
        }
        const weights = Object.fromEntries(
          decisionOptions(question).map((option, index) => [option.key, ((digest[index % digest.length]! ^ (index >> 5)) + 1) ** 2]),
        );
        return [key, buildDecisionAnswer(question, weights, { probability_source: "demo" })];
      }),
    );
    const usage: NormalizedUsage = {
      inputTokens: estimateTokens(request),
      outputTokens: Object.keys(request.questions).length,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    const response: DecisionResponse = {
      answers,
      model: target.qualifiedModel,
      usage: renderDecisionUsage(usage),
      demo: true,
      notice: demoNotice,
    };
    return { response, usage, headers: demoHeaders() };
  },
};

async function chatCompletions(body: RequestBody, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  ensureActive(context);
  const fingerprint = fingerprintOf(body.messages ?? body);
  const pieces = replyPieces(fingerprint);
  const usage: NormalizedUsage = {
    ...emptyUsage(),
    inputTokens: estimateTokens(body.messages ?? body),
    outputTokens: pieces.length * 8,
  };
  const id = `chatcmpl-demo-${fingerprint}`;
  const created = 1_700_000_000;
  const model = target.qualifiedModel;
  const chatUsage = renderChatUsage(usage);
  if (body.stream !== true) {
    return {
      kind: "json",
      status: 200,
      headers: demoHeaders(),
      usage,
      body: {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: pieces.join(""), refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: "stop",
          },
        ],
        usage: chatUsage,
        demo: true,
      },
    };
  }
  // Shaped like OpenAI's chunks with include_usage (always on upstream, as the OpenAI adapter
  // asks): `usage: null` on every chunk, then one `choices: []` chunk with the usage; the
  // caller's renderer leaves that one out when the caller did not ask for it.
  const chunk = (choices: unknown[], extra: Record<string, unknown> = { usage: null }): SseEvent => ({
    data: JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra }),
  });
  const events: SseEvent[] = [
    chunk([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }]),
    ...pieces.map((piece) => chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]),
    chunk([], { usage: chatUsage }),
    { data: "[DONE]" },
  ];
  return streamResult(events, createChatStreamDecoder(), context);
}

async function messages(body: RequestBody, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  ensureActive(context);
  const fingerprint = fingerprintOf({ system: body.system, messages: body.messages });
  const pieces = replyPieces(fingerprint);
  const usage: NormalizedUsage = {
    ...emptyUsage(),
    inputTokens: estimateTokens({ system: body.system, messages: body.messages }),
    outputTokens: pieces.length * 8,
  };
  const id = `msg_demo_${fingerprint}`;
  const model = target.qualifiedModel;
  const anthropicUsage = renderMessagesUsage(usage);
  if (body.stream !== true) {
    return {
      kind: "json",
      status: 200,
      headers: demoHeaders(),
      usage,
      body: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [{ type: "text", text: pieces.join("") }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: anthropicUsage,
      },
    };
  }
  const named = (event: string, data: Record<string, unknown>): SseEvent => ({
    event,
    data: JSON.stringify({ type: event, ...data }),
  });
  const events: SseEvent[] = [
    named("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...anthropicUsage, output_tokens: 1 },
      },
    }),
    named("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    ...pieces.map((piece) => named("content_block_delta", { index: 0, delta: { type: "text_delta", text: piece } })),
    named("content_block_stop", { index: 0 }),
    named("message_delta", {
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: anthropicUsage,
    }),
    named("message_stop", {}),
  ];
  return streamResult(events, createMessagesStreamDecoder(), context);
}

async function responses(body: RequestBody, target: ProviderTarget, context: ProviderCallContext): Promise<ProviderResult> {
  ensureActive(context);
  const fingerprint = fingerprintOf({ instructions: body.instructions, input: body.input });
  const pieces = replyPieces(fingerprint);
  const usage: NormalizedUsage = {
    ...emptyUsage(),
    inputTokens: estimateTokens({ instructions: body.instructions, input: body.input }),
    outputTokens: pieces.length * 8,
  };
  const requestId = `req_demo_${fingerprint}`;
  const createdAt = 1_700_000_000;
  if (body.stream !== true) {
    const suffix = requestId.replace(/^req_/, "");
    const response = buildResponseObject({
      id: `resp_${suffix}`,
      createdAt,
      model: target.qualifiedModel,
      status: "completed",
      request: body,
      usage,
      output: [
        {
          id: `msg_${suffix}_0`,
          type: "message",
          status: "completed",
          content: [{ type: "output_text", annotations: [], logprobs: [], text: pieces.join("") }],
          role: "assistant",
        },
      ],
    });
    return { kind: "json", status: 200, headers: demoHeaders(), usage, body: { ...response, demo: true } };
  }
  // The demo's Responses events are written by the gateway's own encoder, then decoded by the
  // decoder a real upstream's events go through.
  const encoder = createResponsesStreamEncoder({ model: target.qualifiedModel, requestId, request: body, createdAt });
  const events = encoder.render({
    source: null,
    payload: null,
    parts: [
      { type: "start", id: null, model: target.qualifiedModel },
      ...pieces.map((text) => ({ type: "text-delta" as const, choice: 0, text })),
      { type: "text-end", choice: 0 },
      { type: "finish", choice: 0, reason: "stop", raw: "completed" },
      { type: "usage", usage },
      { type: "end" },
    ],
  });
  return streamResult(events, createResponsesStreamDecoder(), context);
}

/** The demo's embedding model: deterministic unit vectors. */
export const demoEmbeddingModel: EmbeddingModel = {
  passthrough: ["openai-embeddings"],
  async embed(body, target, context) {
    ensureActive(context);
    const inputs = embeddingInputs(body.input);
    const dimensions = typeof body.dimensions === "number" && Number.isInteger(body.dimensions) && body.dimensions > 0 ? Math.min(body.dimensions, 3072) : 16;
    const base64 = body.encoding_format === "base64";
    const usage: NormalizedUsage = { ...emptyUsage(), inputTokens: inputs.reduce<number>((sum, input) => sum + estimateTokens(input), 0) };
    const data = inputs.map((input, index) => {
      const vector = demoVector(input, dimensions);
      return {
        object: "embedding",
        index,
        embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector,
      };
    });
    return {
      kind: "json",
      status: 200,
      headers: demoHeaders(),
      usage,
      body: { object: "list", data, model: target.qualifiedModel, usage: { prompt_tokens: usage.inputTokens, total_tokens: usage.inputTokens }, demo: true },
    };
  },
};

/** The demo's token counter: a rough local estimate. */
export const demoTokenCounter: TokenCounter = {
  passthrough: [],
  async countTokens(body, _target, context) {
    ensureActive(context);
    return { inputTokens: estimateTokens({ system: body.system, messages: body.messages }), local: true };
  },
};

function ensureActive(context: ProviderCallContext): void {
  if (callerAborted(context)) throw new GatewayError("client_cancelled", { retryable: false });
}

/** The demo's stream: its events decoded by the same decoder a real upstream's go through. */
function streamResult(events: SseEvent[], decoder: StreamDecoder, context: ProviderCallContext): ProviderResult {
  async function* generate(): AsyncGenerator<SseEvent> {
    for (const event of events) {
      ensureActive(context);
      yield event;
    }
  }
  return { kind: "stream", status: 200, headers: demoHeaders(), format: decoder.format, frames: decodeSseStream(generate(), decoder) };
}

/** The inputs of an embeddings request: a string, an array of strings, or token arrays. */
function embeddingInputs(input: unknown): unknown[] {
  if (typeof input === "string") return [input];
  if (Array.isArray(input) && input.length > 0 && input.every((entry) => typeof entry === "number")) return [input];
  return Array.isArray(input) ? input : [input];
}

/** A deterministic unit vector derived from the input's hash. */
function demoVector(input: unknown, dimensions: number): number[] {
  const values: number[] = [];
  let block = 0;
  while (values.length < dimensions) {
    const digest = hashOf({ input, block });
    for (let offset = 0; offset + 1 < digest.length && values.length < dimensions; offset += 2) values.push(digest.readUInt16BE(offset) / 32768 - 1);
    block += 1;
  }
  const length = Math.hypot(...values) || 1;
  return values.map((value) => Math.fround(value / length));
}

function replyPieces(fingerprint: string): string[] {
  return [`${demoNotice} `, `Input fingerprint: ${fingerprint}.`];
}

function hashOf(value: unknown): Buffer {
  return createHash("sha256").update(stableJson(value)).digest();
}

function fingerprintOf(value: unknown): string {
  return hashOf(value).toString("hex").slice(0, 12);
}

/** A rough, deterministic token estimate (4 characters a token) for the demo. */
function estimateTokens(value: unknown): number {
  return Math.max(1, Math.ceil(stableJson(value ?? "").length / 4));
}

/** JSON with object keys sorted, so equal inputs hash equally whatever their key order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return entry;
    return Object.fromEntries(Object.entries(entry as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }) ?? "null";
}

