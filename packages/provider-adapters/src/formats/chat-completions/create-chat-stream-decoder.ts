import { normalizeChatUsage } from "./chat-usage.js";
import { readChatFinishReason } from "./read-chat-finish-reason.js";
import { isIndex, isJsonObject, parseEventData } from "../../stream/parse-event-data.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { gatewayErrorFromChatStreamError, malformedStreamEventError, truncatedStreamError } from "../../stream/stream-errors.js";
import { type StreamDecoder, type StreamFrame, type StreamPart, errorFrame } from "../../stream/stream-part.js";

const isOptionalString = (value: unknown) => value === undefined || value === null || typeof value === "string";

/** What the decoder knows of one choice. */
interface ChoiceState {
  textOpen: boolean;
  /** Tool calls started, by their `index`, in order of arrival. */
  toolCalls: number[];
  finished: boolean;
}

/**
 * The decoder of OpenAI chat completion streams (`data: {chat.completion.chunk}` ... `data: [DONE]`).
 * Every event is parsed once and checked against the chunk format: an object with a `choices`
 * array whose entries have an integer `index` (default 0), an object or null `delta`, a string or
 * null `finish_reason`; `delta.content`, `delta.refusal` strings or null; `delta.tool_calls` an
 * array of fragments with an integer `index` and, when present, string `id`, `function.name` and
 * `function.arguments`; `usage` an object or null. An event that fails (not JSON, wrong shape)
 * ends the stream with an `error` part and no `source` (its bytes are never forwarded); an
 * `{"error": ...}` chunk is the provider's own error (kept as `source`).
 *
 * Parts: `start` on the first chunk; `text-delta` for `content` (and `refusal`, marked);
 * `reasoning-delta` for the `reasoning_content` / `reasoning` extension of compatible servers;
 * `tool-call-start` on a fragment with a new `index` (a `text-end` first when text was open),
 * `tool-call-delta` for argument pieces; on a `finish_reason`: `text-end`, `tool-call-end` for
 * each call in order, then `finish`; `usage` whenever a chunk carries usage; `end` on `[DONE]`
 * (closing whatever a choice left open). `finish()` completes a stream that had a finish reason
 * but no `[DONE]` (some compatible servers omit it) and fails one that had neither.
 */
export function createChatStreamDecoder(): StreamDecoder {
  let started = false;
  let sawFinish = false;
  const choices = new Map<number, ChoiceState>();

  function choiceState(index: number): ChoiceState {
    let state = choices.get(index);
    if (state === undefined) {
      state = { textOpen: false, toolCalls: [], finished: false };
      choices.set(index, state);
    }
    return state;
  }

  /** Closes what a choice left open (its text, then its tool calls in order). */
  function close(choice: number, state: ChoiceState, parts: StreamPart[]): void {
    if (state.textOpen) {
      parts.push({ type: "text-end", choice });
      state.textOpen = false;
    }
    for (const toolIndex of state.toolCalls) parts.push({ type: "tool-call-end", choice, toolIndex });
    state.toolCalls = [];
  }

  function fail(problem: string): StreamFrame {
    decoder.done = true;
    return errorFrame(malformedStreamEventError(problem));
  }

  function ending(source: SseEvent | null): StreamFrame {
    const parts: StreamPart[] = [];
    for (const [choice, state] of choices) if (!state.finished) close(choice, state, parts);
    parts.push({ type: "end" });
    decoder.done = true;
    return { source, payload: null, parts };
  }

  // `done` is a data field, not a getter over a local: an object literal with a getter is
  // turned into a dictionary by V8 on every call (one per stream).
  const decoder: StreamDecoder & { done: boolean } = {
    format: "openai-chat",
    done: false,
    decode(event) {
      if (event.data === "[DONE]") return ending(event);
      const parsed = parseEventData(event.data);
      if ("problem" in parsed) return fail(parsed.problem);
      const { payload } = parsed;
      if (payload.error !== undefined && payload.error !== null) {
        decoder.done = true;
        return { source: event, payload, parts: [{ type: "error", error: gatewayErrorFromChatStreamError(payload) }] };
      }
      const rawChoices = payload.choices;
      if (!Array.isArray(rawChoices)) return fail("a chat.completion.chunk without a choices array");
      if (payload.usage !== undefined && payload.usage !== null && !isJsonObject(payload.usage)) return fail("usage is not an object");
      const parts: StreamPart[] = [];
      if (!started) {
        started = true;
        parts.push({
          type: "start",
          id: typeof payload.id === "string" ? payload.id : null,
          model: typeof payload.model === "string" ? payload.model : null,
        });
      }
      for (const rawChoice of rawChoices) {
        if (!isJsonObject(rawChoice)) return fail("a choice is not an object");
        const choice = rawChoice.index === undefined ? 0 : rawChoice.index;
        if (!isIndex(choice)) return fail("a choice index is not a non-negative integer");
        const delta = rawChoice.delta;
        if (delta !== undefined && delta !== null && !isJsonObject(delta)) return fail("a delta is not an object");
        const finishReason = rawChoice.finish_reason;
        if (!isOptionalString(finishReason)) return fail("finish_reason is not a string");
        const state = choiceState(choice);
        if (isJsonObject(delta)) {
          if (!isOptionalString(delta.content) || !isOptionalString(delta.refusal)) return fail("delta content is not a string");
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (typeof reasoning === "string" && reasoning !== "") parts.push({ type: "reasoning-delta", choice, text: reasoning });
          if (typeof delta.content === "string" && delta.content !== "") {
            state.textOpen = true;
            parts.push({ type: "text-delta", choice, text: delta.content });
          }
          if (typeof delta.refusal === "string" && delta.refusal !== "") {
            state.textOpen = true;
            parts.push({ type: "text-delta", choice, text: delta.refusal, refusal: true });
          }
          if (delta.tool_calls !== undefined && delta.tool_calls !== null) {
            if (!Array.isArray(delta.tool_calls)) return fail("tool_calls is not an array");
            for (const fragment of delta.tool_calls) {
              if (!isJsonObject(fragment) || !isIndex(fragment.index)) return fail("a tool call fragment has no integer index");
              const fn = fragment.function;
              if (fn !== undefined && fn !== null && !isJsonObject(fn)) return fail("a tool call's function is not an object");
              const name = isJsonObject(fn) ? fn.name : undefined;
              const argumentsDelta = isJsonObject(fn) ? fn.arguments : undefined;
              if (!isOptionalString(fragment.id) || !isOptionalString(name) || !isOptionalString(argumentsDelta)) {
                return fail("a tool call fragment has a non-string id, name or arguments");
              }
              const toolIndex = fragment.index;
              if (!state.toolCalls.includes(toolIndex)) {
                if (state.textOpen) {
                  parts.push({ type: "text-end", choice });
                  state.textOpen = false;
                }
                state.toolCalls.push(toolIndex);
                parts.push({
                  type: "tool-call-start",
                  choice,
                  toolIndex,
                  id: typeof fragment.id === "string" ? fragment.id : "",
                  name: typeof name === "string" ? name : "",
                });
              }
              if (typeof argumentsDelta === "string" && argumentsDelta !== "") {
                parts.push({ type: "tool-call-delta", choice, toolIndex, argumentsDelta });
              }
            }
          }
        }
        if (typeof finishReason === "string") {
          close(choice, state, parts);
          state.finished = true;
          sawFinish = true;
          parts.push({ type: "finish", choice, reason: readChatFinishReason(finishReason), raw: finishReason });
        }
      }
      if (isJsonObject(payload.usage)) parts.push({ type: "usage", usage: normalizeChatUsage(payload.usage) });
      return { source: event, payload, parts };
    },
    finish() {
      if (decoder.done) return null;
      if (sawFinish) return ending(null);
      decoder.done = true;
      return errorFrame(truncatedStreamError());
    },
  };
  return decoder;
}
