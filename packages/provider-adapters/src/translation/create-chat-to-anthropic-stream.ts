import { normalizeChatUsage, type ChatUsage } from "../usage/chat-usage.js";
import { renderMessagesUsage } from "../usage/messages-usage.js";
import { renderAnthropicErrorBody } from "@gateway/errors";
import { mapChatFinishReason } from "./map-chat-finish-reason.js";
import type { NormalizedUsage } from "@gateway/contracts";
import { type JsonObject, isJsonObject } from "./request-guards.js";
import { type SseEventController, type SseEventTransformer, pipeThroughTransformer } from "./sse-event-transformer.js";
import {
  gatewayErrorFromChatStreamError,
  gatewayErrorFromStreamFailure,
  malformedStreamEventError,
  malformedToolArgumentsError,
  truncatedStreamError,
} from "./stream-errors.js";

/** Options of {@link createChatToAnthropicStream}. */
export interface ChatToAnthropicStreamOptions {
  /** The model name to report in `message_start`. */
  model: string;
  /** The gateway request id, put on a mid-stream error body and used for ids the upstream did not send. */
  requestId: string;
}

/**
 * A state machine that turns OpenAI chat completion chunk events into Anthropic messages stream
 * events: `message_start`, then per block `content_block_start` / `content_block_delta`
 * (`text_delta`; `input_json_delta {partial_json}` for tool calls) / `content_block_stop`, then
 * `message_delta` with the stop reason and cumulative usage (cache tokens kept) and
 * `message_stop`. Block indexes follow arrival order; a text block ends when a tool call starts; a
 * tool-call block ends when the next call starts if its arguments are complete JSON (as OpenAI
 * streams them), otherwise at the end, so interleaved fragments of parallel calls still reach
 * their own block. An
 * upstream error chunk (or a failing or truncated upstream) ends the output with `event: error`.
 */
export function createChatToAnthropicStream(options: ChatToAnthropicStreamOptions): SseEventTransformer {
  let started = false;
  let finished = false;
  let nextBlockIndex = 0;
  let openTextBlock: number | undefined;
  // OpenAI tool-call index -> its Anthropic block and the arguments received so far.
  const toolBlocks = new Map<number, { blockIndex: number; argumentsText: string }>();
  const openBlocks: number[] = [];
  let finishReason: string | null = null;
  let refused = false;
  let usage: NormalizedUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

  function emit(controller: SseEventController, type: string, payload: JsonObject): void {
    controller.enqueue({ event: type, data: JSON.stringify({ type, ...payload }) });
  }

  function ensureStarted(controller: SseEventController, id: unknown): void {
    if (started) return;
    started = true;
    emit(controller, "message_start", {
      message: {
        id: typeof id === "string" && id !== "" ? id : `msg_${options.requestId}`,
        type: "message",
        role: "assistant",
        model: options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: renderMessagesUsage(usage),
      },
    });
  }

  function openBlock(controller: SseEventController, contentBlock: JsonObject): number {
    const index = nextBlockIndex;
    nextBlockIndex += 1;
    openBlocks.push(index);
    emit(controller, "content_block_start", { index, content_block: contentBlock });
    return index;
  }

  function closeBlock(controller: SseEventController, index: number): void {
    const position = openBlocks.indexOf(index);
    if (position === -1) return;
    openBlocks.splice(position, 1);
    emit(controller, "content_block_stop", { index });
  }

  function emitText(controller: SseEventController, text: string): void {
    if (text === "") return;
    if (openTextBlock === undefined) openTextBlock = openBlock(controller, { type: "text", text: "" });
    emit(controller, "content_block_delta", { index: openTextBlock, delta: { type: "text_delta", text } });
  }

  function isCompleteJson(text: string): boolean {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }

  function applyToolCall(controller: SseEventController, fragment: JsonObject, position: number): void {
    const toolIndex = typeof fragment.index === "number" ? fragment.index : position;
    const fragmentFunction = isJsonObject(fragment.function) ? fragment.function : {};
    let tool = toolBlocks.get(toolIndex);
    if (tool === undefined) {
      if (openTextBlock !== undefined) {
        closeBlock(controller, openTextBlock);
        openTextBlock = undefined;
      }
      // A call whose arguments already form complete JSON cannot receive more: end its block
      // first, so sequential upstreams give strictly sequential blocks; unfinished calls stay
      // open, so interleaved fragments still reach their own block.
      for (const other of toolBlocks.values()) {
        if (openBlocks.includes(other.blockIndex) && isCompleteJson(other.argumentsText)) closeBlock(controller, other.blockIndex);
      }
      tool = {
        blockIndex: openBlock(controller, {
          type: "tool_use",
          id: typeof fragment.id === "string" ? fragment.id : `toolu_${options.requestId}_${toolIndex}`,
          name: typeof fragmentFunction.name === "string" ? fragmentFunction.name : "",
          input: {},
        }),
        argumentsText: "",
      };
      toolBlocks.set(toolIndex, tool);
    }
    const argumentsFragment = fragmentFunction.arguments;
    if (typeof argumentsFragment !== "string" || argumentsFragment === "") return;
    if (!openBlocks.includes(tool.blockIndex)) {
      if (argumentsFragment.trim() === "") return;
      transformer.fail(malformedToolArgumentsError(), controller);
      return;
    }
    tool.argumentsText += argumentsFragment;
    emit(controller, "content_block_delta", {
      index: tool.blockIndex,
      delta: { type: "input_json_delta", partial_json: argumentsFragment },
    });
  }

  function complete(controller: SseEventController): void {
    ensureStarted(controller, undefined);
    for (const index of [...openBlocks].sort((left, right) => left - right)) closeBlock(controller, index);
    openTextBlock = undefined;
    emit(controller, "message_delta", {
      delta: { stop_reason: refused ? "refusal" : mapChatFinishReason(finishReason), stop_sequence: null },
      usage: renderMessagesUsage(usage),
    });
    emit(controller, "message_stop", {});
    finished = true;
  }

  const transformer: SseEventTransformer = {
    get finished() {
      return finished;
    },
    start() {
      // message_start waits for the first chunk, which carries the id.
    },
    transform(event, controller) {
      if (finished) return;
      if (event.data.trim() === "[DONE]") {
        complete(controller);
        return;
      }
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
      if (payload.error !== undefined && payload.error !== null) {
        transformer.fail(gatewayErrorFromChatStreamError(payload), controller);
        return;
      }
      if (isJsonObject(payload.usage)) usage = normalizeChatUsage(payload.usage as ChatUsage);
      ensureStarted(controller, payload.id);
      const choices = Array.isArray(payload.choices) ? payload.choices : [];
      for (const choice of choices) {
        if (!isJsonObject(choice) || (choice.index !== undefined && choice.index !== 0)) continue;
        const delta = isJsonObject(choice.delta) ? choice.delta : {};
        if (typeof delta.content === "string") emitText(controller, delta.content);
        if (typeof delta.refusal === "string" && delta.refusal !== "") {
          refused = true;
          emitText(controller, delta.refusal);
        }
        if (Array.isArray(delta.tool_calls)) {
          delta.tool_calls.forEach((fragment, position) => {
            if (isJsonObject(fragment) && !finished) applyToolCall(controller, fragment, position);
          });
        }
        if (finished) return;
        if (typeof choice.finish_reason === "string") finishReason = choice.finish_reason;
      }
    },
    flush(controller) {
      if (finished) return;
      // Some OpenAI-compatible servers omit `[DONE]`; a finish reason is enough to complete.
      if (finishReason !== null) complete(controller);
      else transformer.fail(truncatedStreamError(), controller);
    },
    fail(error, controller) {
      if (finished) return;
      finished = true;
      const body = renderAnthropicErrorBody(gatewayErrorFromStreamFailure(error), options.requestId);
      controller.enqueue({ event: "error", data: JSON.stringify(body) });
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
