import { normalizeMessagesUsage, type MessagesUsage } from "../usage/messages-usage.js";
import { renderChatUsage } from "../usage/chat-usage.js";
import { renderGatewayErrorBody } from "@gateway/errors";
import { type ChatFinishReason, mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import type { NormalizedUsage } from "@gateway/contracts";
import { type JsonObject, isJsonObject } from "./request-guards.js";
import type { SseEvent } from "./sse-event.js";
import { type SseEventController, type SseEventTransformer, pipeThroughTransformer } from "./sse-event-transformer.js";
import {
  gatewayErrorFromAnthropicStreamError,
  gatewayErrorFromStreamFailure,
  malformedStreamEventError,
  truncatedStreamError,
} from "./stream-errors.js";

/** Options of {@link createAnthropicToChatStream}. */
export interface AnthropicToChatStreamOptions {
  /** The model name to report in every chunk. */
  model: string;
  /** `stream_options.include_usage` of the caller: emit the final `choices: []` usage chunk. */
  includeUsage: boolean;
  /** The gateway request id, put on a mid-stream error body. */
  requestId: string;
  /** The `response_format` tool name (see `getJsonResponseToolName`): its input streams as `content`. */
  jsonResponseTool?: string;
  /** Unix seconds for `created`; defaults to the time the stream starts. */
  created?: number;
}

type BlockState =
  | { kind: "text" }
  | { kind: "tool"; toolIndex: number; hasArguments: boolean }
  | { kind: "json"; hasArguments: boolean }
  | { kind: "other" };

/**
 * A state machine that turns Anthropic messages stream events into OpenAI chat completion
 * chunk events: a role chunk first, `content` deltas for text, `tool_calls` fragments whose
 * `index` counts tool calls only (the first fragment carries id, type, name and `arguments: ""`;
 * a call whose arguments never arrived gets `"{}"`), the finish reason on the last choice chunk,
 * the usage chunk (`choices: []`) when `includeUsage`, then `data: [DONE]`. `ping` is ignored; an
 * in-stream `error` (or a failing or truncated upstream) ends the output with a final
 * `data: {"error":{...}}` and no `[DONE]`. `usage()` reports the running usage at any time.
 */
export function createAnthropicToChatStream(options: AnthropicToChatStreamOptions): SseEventTransformer {
  let id = `chatcmpl-${options.requestId}`;
  const created = options.created ?? Math.floor(Date.now() / 1000);
  let started = false;
  let finished = false;
  let toolCount = 0;
  let usedJsonTool = false;
  let stopReason: string | null = null;
  let usage: NormalizedUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  const blocks = new Map<number, BlockState>();

  function chunk(delta: JsonObject, finishReason: ChatFinishReason | null = null): SseEvent {
    const payload: JsonObject = {
      id,
      object: "chat.completion.chunk",
      created,
      model: options.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (options.includeUsage) payload.usage = null;
    return { data: JSON.stringify(payload) };
  }

  function ensureStarted(controller: SseEventController): void {
    if (started) return;
    started = true;
    controller.enqueue(chunk({ role: "assistant", content: "", refusal: null }));
  }

  function emitText(text: string, controller: SseEventController): void {
    if (text === "") return;
    controller.enqueue(chunk({ content: text }));
  }

  function emitArguments(toolIndex: number, fragment: string, controller: SseEventController): void {
    controller.enqueue(chunk({ tool_calls: [{ index: toolIndex, function: { arguments: fragment } }] }));
  }

  function mergeUsage(raw: unknown): void {
    if (!isJsonObject(raw)) return;
    const next = normalizeMessagesUsage(raw as MessagesUsage);
    // message_delta usage is cumulative; fields it omits keep their message_start values.
    usage = {
      inputTokens: typeof raw.input_tokens === "number" ? next.inputTokens : usage.inputTokens,
      outputTokens: typeof raw.output_tokens === "number" ? next.outputTokens : usage.outputTokens,
      cacheReadTokens: typeof raw.cache_read_input_tokens === "number" ? next.cacheReadTokens : usage.cacheReadTokens,
      cacheWriteTokens:
        typeof raw.cache_creation_input_tokens === "number" ? next.cacheWriteTokens : usage.cacheWriteTokens,
      reasoningTokens: 0,
    };
  }

  function startBlock(index: number, contentBlock: JsonObject, controller: SseEventController): void {
    if (contentBlock.type === "text") {
      blocks.set(index, { kind: "text" });
      if (typeof contentBlock.text === "string") emitText(contentBlock.text, controller);
      return;
    }
    if (contentBlock.type === "tool_use") {
      const initialInput =
        isJsonObject(contentBlock.input) && Object.keys(contentBlock.input).length > 0
          ? JSON.stringify(contentBlock.input)
          : "";
      if (options.jsonResponseTool !== undefined && contentBlock.name === options.jsonResponseTool) {
        usedJsonTool = true;
        blocks.set(index, { kind: "json", hasArguments: initialInput !== "" });
        emitText(initialInput, controller);
        return;
      }
      const toolIndex = toolCount;
      toolCount += 1;
      blocks.set(index, { kind: "tool", toolIndex, hasArguments: initialInput !== "" });
      controller.enqueue(
        chunk({
          tool_calls: [
            { index: toolIndex, id: contentBlock.id, type: "function", function: { name: contentBlock.name, arguments: "" } },
          ],
        }),
      );
      if (initialInput !== "") emitArguments(toolIndex, initialInput, controller);
      return;
    }
    blocks.set(index, { kind: "other" }); // thinking and server-tool blocks are never requested
  }

  function applyDelta(index: number, delta: JsonObject, controller: SseEventController): void {
    const block = blocks.get(index);
    if (delta.type === "text_delta" && typeof delta.text === "string") {
      if (block === undefined || block.kind === "text") emitText(delta.text, controller);
      return;
    }
    if (delta.type === "input_json_delta" && typeof delta.partial_json === "string" && delta.partial_json !== "") {
      if (block?.kind === "tool") {
        block.hasArguments = true;
        emitArguments(block.toolIndex, delta.partial_json, controller);
      } else if (block?.kind === "json") {
        block.hasArguments = true;
        emitText(delta.partial_json, controller);
      }
    }
  }

  function stopBlock(index: number, controller: SseEventController): void {
    const block = blocks.get(index);
    if (block?.kind === "tool" && !block.hasArguments) emitArguments(block.toolIndex, "{}", controller);
    if (block?.kind === "json" && !block.hasArguments) emitText("{}", controller);
    blocks.delete(index);
  }

  function complete(controller: SseEventController): void {
    let finishReason = mapAnthropicStopReason(stopReason);
    if (usedJsonTool && toolCount === 0 && finishReason === "tool_calls") finishReason = "stop";
    controller.enqueue(chunk({}, finishReason));
    if (options.includeUsage) {
      controller.enqueue({
        data: JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model: options.model,
          choices: [],
          usage: renderChatUsage(usage),
        }),
      });
    }
    controller.enqueue({ data: "[DONE]" });
    finished = true;
  }

  const transformer: SseEventTransformer = {
    get finished() {
      return finished;
    },
    start() {
      // Nothing to emit before the upstream's message_start.
    },
    transform(event, controller) {
      if (finished) return;
      let payload: unknown;
      try {
        payload = JSON.parse(event.data);
      } catch {
        transformer.fail(malformedStreamEventError(), controller);
        return;
      }
      if (!isJsonObject(payload)) {
        transformer.fail(malformedStreamEventError(), controller);
        return;
      }
      const type = typeof payload.type === "string" ? payload.type : event.event;
      switch (type) {
        case "message_start": {
          const message = isJsonObject(payload.message) ? payload.message : {};
          if (typeof message.id === "string") id = message.id;
          mergeUsage(message.usage);
          ensureStarted(controller);
          return;
        }
        case "content_block_start":
          ensureStarted(controller);
          if (typeof payload.index === "number" && isJsonObject(payload.content_block)) {
            startBlock(payload.index, payload.content_block, controller);
          }
          return;
        case "content_block_delta":
          ensureStarted(controller);
          if (typeof payload.index === "number" && isJsonObject(payload.delta)) {
            applyDelta(payload.index, payload.delta, controller);
          }
          return;
        case "content_block_stop":
          if (typeof payload.index === "number") stopBlock(payload.index, controller);
          return;
        case "message_delta":
          if (isJsonObject(payload.delta) && typeof payload.delta.stop_reason === "string") {
            stopReason = payload.delta.stop_reason;
          }
          mergeUsage(payload.usage);
          return;
        case "message_stop":
          ensureStarted(controller);
          complete(controller);
          return;
        case "error":
          transformer.fail(gatewayErrorFromAnthropicStreamError(payload), controller);
          return;
        default:
          return; // `ping` and event types added later carry nothing to translate
      }
    },
    flush(controller) {
      if (!finished) transformer.fail(truncatedStreamError(), controller);
    },
    fail(error, controller) {
      if (finished) return;
      finished = true;
      controller.enqueue({ data: JSON.stringify(renderGatewayErrorBody(gatewayErrorFromStreamFailure(error), options.requestId)) });
    },
    usage() {
      return { ...usage };
    },
    pipe(events) {
      return pipeThroughTransformer(transformer, events);
    },
  };
  return transformer;
}
