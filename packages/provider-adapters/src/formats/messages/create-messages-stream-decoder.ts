import type { JsonObject } from "@gateway/contracts";
import { type MessagesUsage, mergeMessagesUsage, normalizeMessagesUsage } from "./messages-usage.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { isIndex, isJsonObject, parseEventData } from "../../stream/parse-event-data.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { gatewayErrorFromAnthropicStreamError, malformedStreamEventError, truncatedStreamError } from "../../stream/stream-errors.js";
import { type StreamDecoder, type StreamFrame, type StreamPart, errorFrame } from "../../stream/stream-part.js";

/** Options of {@link createMessagesStreamDecoder}. */
export interface MessagesStreamDecoderOptions {
  /**
   * The name of the tool a translated `response_format` was turned into: its input streams as
   * text (`text-delta`), and a stop for that tool alone is a plain `stop`.
   */
  jsonResponseTool?: string;
}

type BlockKind = { kind: "text" } | { kind: "tool"; toolIndex: number } | { kind: "json"; hasText: boolean } | { kind: "reasoning" } | { kind: "other" };

const blockEvents = new Set(["content_block_start", "content_block_delta", "content_block_stop"]);

/**
 * The decoder of Anthropic messages streams (named events whose `data` has a matching `type`).
 * Every event is parsed once and checked: a JSON object whose `type` is a string equal to the
 * SSE event name when one is given; block events need an integer `index`, `content_block_start`
 * a `content_block` object, `content_block_delta` a `delta` object with a string `type`. An
 * event that fails ends the stream with an `error` part and no `source`; an `error` event is
 * the provider's own (kept as `source`).
 *
 * Parts: `start` and `usage` on `message_start`; per text block `text-delta` ... `text-end`; per
 * `tool_use` block `tool-call-start` (its `toolIndex` counts tool calls), `tool-call-delta`
 * (`input_json_delta`), `tool-call-end`; `reasoning-delta` for thinking; `finish` (stop reason
 * mapped to OpenAI's vocabulary, `raw` kept) and the cumulative `usage` on `message_delta`
 * (fields it omits keep their `message_start` values); `end` on `message_stop`. `ping`,
 * signature deltas and event types added later carry no parts. `finish()` completes a stream
 * that had a stop reason but no `message_stop`, and fails one that had neither.
 */
export function createMessagesStreamDecoder(options: MessagesStreamDecoderOptions = {}): StreamDecoder {
  let started = false;
  let sawFinish = false;
  let toolCount = 0;
  let usedJsonTool = false;
  let usageFields: MessagesUsage = {};
  const blocks = new Map<number, BlockKind>();

  function fail(problem: string): StreamFrame {
    decoder.done = true;
    return errorFrame(malformedStreamEventError(problem));
  }

  function ending(source: SseEvent | null, payload: JsonObject | null): StreamFrame {
    const parts: StreamPart[] = [];
    for (const [block, state] of blocks) stopBlock(block, state, parts);
    blocks.clear();
    parts.push({ type: "end" });
    decoder.done = true;
    return { source, payload, parts };
  }

  function stopBlock(block: number, state: BlockKind, parts: StreamPart[]): void {
    if (state.kind === "text") parts.push({ type: "text-end", choice: 0, block });
    else if (state.kind === "json") {
      // A forced JSON answer whose input never arrived is the empty object, as its tool input was.
      if (!state.hasText) parts.push({ type: "text-delta", choice: 0, block, text: "{}" });
      parts.push({ type: "text-end", choice: 0, block });
    } else if (state.kind === "tool") parts.push({ type: "tool-call-end", choice: 0, toolIndex: state.toolIndex });
  }

  function startBlock(block: number, content: JsonObject, parts: StreamPart[]): string | null {
    if (content.type === "text") {
      blocks.set(block, { kind: "text" });
      if (typeof content.text === "string" && content.text !== "") parts.push({ type: "text-delta", choice: 0, block, text: content.text });
      return null;
    }
    if (content.type === "tool_use") {
      if (typeof content.name !== "string") return "a tool_use block without a name";
      const input = isJsonObject(content.input) && Object.keys(content.input).length > 0 ? JSON.stringify(content.input) : "";
      if (options.jsonResponseTool !== undefined && content.name === options.jsonResponseTool) {
        usedJsonTool = true;
        blocks.set(block, { kind: "json", hasText: input !== "" });
        if (input !== "") parts.push({ type: "text-delta", choice: 0, block, text: input });
        return null;
      }
      const toolIndex = toolCount;
      toolCount += 1;
      blocks.set(block, { kind: "tool", toolIndex });
      parts.push({ type: "tool-call-start", choice: 0, block, toolIndex, id: typeof content.id === "string" ? content.id : "", name: content.name });
      if (input !== "") parts.push({ type: "tool-call-delta", choice: 0, toolIndex, argumentsDelta: input });
      return null;
    }
    if (content.type === "thinking") {
      blocks.set(block, { kind: "reasoning" });
      if (typeof content.thinking === "string" && content.thinking !== "") parts.push({ type: "reasoning-delta", choice: 0, block, text: content.thinking });
      return null;
    }
    blocks.set(block, { kind: "other" }); // redacted thinking, server tools: passed through natively, never translated
    return null;
  }

  function applyDelta(block: number, delta: JsonObject, parts: StreamPart[]): void {
    const state = blocks.get(block);
    if (delta.type === "text_delta" && typeof delta.text === "string" && delta.text !== "") {
      if (state === undefined || state.kind === "text") parts.push({ type: "text-delta", choice: 0, block, text: delta.text });
    } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string" && delta.partial_json !== "") {
      if (state?.kind === "tool") parts.push({ type: "tool-call-delta", choice: 0, toolIndex: state.toolIndex, argumentsDelta: delta.partial_json });
      else if (state?.kind === "json") {
        state.hasText = true;
        parts.push({ type: "text-delta", choice: 0, block, text: delta.partial_json });
      }
    } else if (delta.type === "thinking_delta" && typeof delta.thinking === "string" && delta.thinking !== "") {
      parts.push({ type: "reasoning-delta", choice: 0, block, text: delta.thinking });
    }
  }

  // `done` is a data field, not a getter over a local: an object literal with a getter is
  // turned into a dictionary by V8 on every call (one per stream).
  const decoder: StreamDecoder & { done: boolean } = {
    format: "anthropic-messages",
    done: false,
    decode(event) {
      const parsed = parseEventData(event.data);
      if ("problem" in parsed) return fail(parsed.problem);
      const { payload } = parsed;
      const type = payload.type;
      if (typeof type !== "string") return fail("an event without a type");
      if (event.event !== undefined && event.event !== type) return fail(`an '${event.event}' event whose data has type '${type}'`);
      const parts: StreamPart[] = [];
      if (blockEvents.has(type) && !isIndex(payload.index)) return fail(`a ${type} event without an integer index`);
      const block = payload.index as number;
      switch (type) {
        case "message_start": {
          if (!isJsonObject(payload.message)) return fail("a message_start event without a message");
          const message = payload.message;
          if (!started) {
            started = true;
            parts.push({
              type: "start",
              id: typeof message.id === "string" ? message.id : null,
              model: typeof message.model === "string" ? message.model : null,
            });
          }
          if (isJsonObject(message.usage)) {
            usageFields = mergeMessagesUsage(usageFields, message.usage);
            parts.push({ type: "usage", usage: normalizeMessagesUsage(usageFields) });
          }
          break;
        }
        case "content_block_start": {
          if (!isJsonObject(payload.content_block) || typeof payload.content_block.type !== "string") {
            return fail("a content_block_start event without a typed content_block");
          }
          const problem = startBlock(block, payload.content_block, parts);
          if (problem !== null) return fail(problem);
          break;
        }
        case "content_block_delta":
          if (!isJsonObject(payload.delta) || typeof payload.delta.type !== "string") return fail("a content_block_delta event without a typed delta");
          applyDelta(block, payload.delta, parts);
          break;
        case "content_block_stop": {
          const state = blocks.get(block);
          if (state !== undefined) {
            stopBlock(block, state, parts);
            blocks.delete(block);
          }
          break;
        }
        case "message_delta": {
          if (payload.delta !== undefined && !isJsonObject(payload.delta)) return fail("a message_delta event whose delta is not an object");
          const stopReason = isJsonObject(payload.delta) ? payload.delta.stop_reason : undefined;
          if (stopReason !== undefined && stopReason !== null && typeof stopReason !== "string") return fail("stop_reason is not a string");
          if (isJsonObject(payload.usage)) {
            usageFields = mergeMessagesUsage(usageFields, payload.usage);
            parts.push({ type: "usage", usage: normalizeMessagesUsage(usageFields) });
          }
          if (typeof stopReason === "string") {
            sawFinish = true;
            let reason = mapAnthropicStopReason(stopReason);
            // Only the forced JSON tool was used: to the caller that is a plain answer.
            if (reason === "tool_calls" && usedJsonTool && toolCount === 0) reason = "stop";
            parts.push({ type: "finish", choice: 0, reason, raw: stopReason });
          }
          break;
        }
        case "message_stop":
          return ending(event, payload);
        case "error":
          decoder.done = true;
          return { source: event, payload, parts: [{ type: "error", error: gatewayErrorFromAnthropicStreamError(payload) }] };
        default:
          break; // `ping` and event types added later carry nothing to decode
      }
      return { source: event, payload, parts };
    },
    finish() {
      if (decoder.done) return null;
      if (sawFinish) return ending(null, null);
      decoder.done = true;
      return errorFrame(truncatedStreamError());
    },
  };
  return decoder;
}
