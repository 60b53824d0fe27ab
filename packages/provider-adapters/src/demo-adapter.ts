import { renderDecisionUsage } from "./usage/decision-usage.js";
import { renderMessagesUsage } from "./usage/messages-usage.js";
import { renderChatUsage } from "./usage/chat-usage.js";
import { createHash } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import type { DecisionResponse } from "./decision/decision-contract.js";
import { buildDecisionAnswer } from "./decision/build-decision-answer.js";
import { decisionOptions } from "./decision/decision-options.js";
import { emptyUsage } from "./provider-adapter.js";
import type { NormalizedUsage } from "@gateway/contracts";
import type { ProviderAdapter, ProviderCallContext, ProviderResult, ProviderTarget } from "./provider-adapter.js";
import { createChatStreamDecoder } from "./stream/create-chat-stream-decoder.js";
import { createMessagesStreamDecoder } from "./stream/create-messages-stream-decoder.js";
import { decodeSseStream } from "./stream/decode-sse-stream.js";
import type { SseEvent } from "./stream/sse-event.js";
import type { StreamDecoder } from "./stream/stream-part.js";

/** Header (and response flag) set on every demo answer. */
export const demoHeaderName = "x-gateway-demo";

const demoHeaders = (): Record<string, string> => ({ [demoHeaderName]: "true" });

/** The text every demo answer starts with, so nobody mistakes it for model output. */
export const demoNotice = "[demo] This answer comes from the gateway's built-in demo provider; no model was called.";

/**
 * The offline demo provider: deterministic answers derived from a SHA-256 of the input, no
 * network. Every answer is labelled (`x-gateway-demo: true`, a `[demo]` notice in the
 * content, `demo: true` on decision responses, `probability_source: "demo"` on answers).
 */
export function createDemoAdapter(): ProviderAdapter {
  return {
    kind: "demo",
    capabilities: {
      decisions: "native",
      logprobs: false,
      chatFormat: "openai",
      countTokens: "local",
      chatCompletions: "native",
      messages: "native",
    },

    async decide(request, target, context) {
      ensureActive(context);
      const answers: DecisionResponse["answers"] = {};
      for (const [key, question] of Object.entries(request.questions)) {
        if (question.type === "score" && !Array.isArray(question.criteria)) {
          // A numeric-key rubric: pick levels by their numeric value order.
          const entries = Object.keys(question.criteria);
          const digest = hashOf({ key, question, state: request.state });
          const chosen = entries[digest[0]! % entries.length]!;
          answers[key] = { type: "score", score: Number(chosen), probability_source: "demo" };
          continue;
        }
        const options = decisionOptions(question);
        const digest = hashOf({ key, question, state: request.state });
        const weights: Record<string, number> = {};
        options.forEach((option, index) => {
          const byte = digest[index % digest.length]! ^ (index >> 5);
          weights[option.key] = (byte + 1) ** 2;
        });
        answers[key] = buildDecisionAnswer(question, weights, { probability_source: "demo" });
      }
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

    async chatCompletions(body, target, context) {
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
    },

    async messages(body, target, context) {
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
    },

    async countTokens(body, _target, context) {
      ensureActive(context);
      return { inputTokens: estimateTokens({ system: body.system, messages: body.messages }), local: true };
    },
  };
}

function ensureActive(context: ProviderCallContext): void {
  if (context.signal.aborted) throw new GatewayError("client_cancelled", { retryable: false });
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

