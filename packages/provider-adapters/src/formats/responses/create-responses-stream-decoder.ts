import type { JsonObject } from "@gateway/contracts";
import { normalizeResponsesUsage } from "./responses-usage.js";
import { mapResponsesFinishReason } from "./map-responses-finish-reason.js";
import { isIndex, isJsonObject, parseEventData } from "../../stream/parse-event-data.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { gatewayErrorFromResponsesStreamError, malformedStreamEventError, truncatedStreamError } from "../../stream/stream-errors.js";
import { type StreamDecoder, type StreamFrame, type StreamPart, errorFrame } from "../../stream/stream-part.js";

/** What the decoder knows of one output item. */
type ItemState =
  | { kind: "message"; textOpen: Set<number> }
  | { kind: "function_call"; toolIndex: number; sawArguments: boolean; ended: boolean }
  | { kind: "other" };

const lifecycleEvents = new Set(["response.created", "response.in_progress", "response.queued", "response.completed", "response.incomplete", "response.failed"]);
const itemEvents = new Set(["response.output_item.added", "response.output_item.done"]);
const deltaEvents = new Set([
  "response.output_text.delta",
  "response.refusal.delta",
  "response.function_call_arguments.delta",
  "response.reasoning_text.delta",
  "response.reasoning_summary_text.delta",
]);

/**
 * The decoder of OpenAI Responses streams (named events whose `data` has a matching `type`, each
 * with a `sequence_number`). Every event is parsed once and checked: a JSON object whose `type` is
 * a string equal to the SSE event name when one is given; `sequence_number` an integer when
 * present; lifecycle events (`response.created` ... `response.failed`) need a `response` object;
 * `response.output_item.added` / `.done` an integer `output_index` and an `item` object with a
 * string `type`; delta events an integer `output_index` and a string `delta`. An event that fails
 * ends the stream with an `error` part and no `source`; an `error` event or `response.failed` is
 * the provider's own (kept as `source`).
 *
 * Parts (`choice` 0, `block` = the item's `output_index`): `start` on `response.created`;
 * `text-delta` for `response.output_text.delta` (and `response.refusal.delta`, marked), `text-end`
 * on their `.done`; `tool-call-start` when a `function_call` item is added (`toolIndex` counts
 * function calls; `id` is its `call_id`), `tool-call-delta` for argument deltas (the whole
 * arguments of the item's `.done` when no delta came), `tool-call-end` when the item is done;
 * `reasoning-delta` for reasoning text and summary deltas; on `response.completed` /
 * `response.incomplete`: `usage`, `finish` (`tool_calls` when the answer has function calls,
 * `length` for `max_output_tokens`, `content_filter`), `end`. Other event types (built-in tools,
 * annotations, events added later) carry no parts and pass through natively. `finish()` fails a
 * stream that ended without a terminal event (Responses streams have no `[DONE]`).
 */
export function createResponsesStreamDecoder(): StreamDecoder {
  let toolCount = 0;
  const items = new Map<number, ItemState>();

  function fail(problem: string): StreamFrame {
    decoder.done = true;
    return errorFrame(malformedStreamEventError(problem));
  }

  function closeItem(outputIndex: number, state: ItemState, item: JsonObject | null, parts: StreamPart[]): void {
    if (state.kind === "message") {
      for (const contentIndex of state.textOpen) parts.push({ type: "text-end", choice: 0, block: outputIndex });
      state.textOpen.clear();
    } else if (state.kind === "function_call" && !state.ended) {
      if (!state.sawArguments && item !== null && typeof item.arguments === "string" && item.arguments !== "") {
        parts.push({ type: "tool-call-delta", choice: 0, toolIndex: state.toolIndex, argumentsDelta: item.arguments });
      }
      state.ended = true;
      parts.push({ type: "tool-call-end", choice: 0, toolIndex: state.toolIndex });
    }
  }

  function ending(source: SseEvent, payload: JsonObject, response: JsonObject): StreamFrame {
    const parts: StreamPart[] = [];
    for (const [outputIndex, state] of items) closeItem(outputIndex, state, null, parts);
    if (isJsonObject(response.usage)) parts.push({ type: "usage", usage: normalizeResponsesUsage(response.usage) });
    parts.push({ type: "finish", choice: 0, reason: mapResponsesFinishReason(response, toolCount), raw: typeof response.status === "string" ? response.status : null });
    parts.push({ type: "end" });
    decoder.done = true;
    return { source, payload, parts };
  }

  // `done` is a data field, not a getter over a local: an object literal with a getter is
  // turned into a dictionary by V8 on every call (one per stream).
  const decoder: StreamDecoder & { done: boolean } = {
    format: "openai-responses",
    done: false,
    decode(event) {
      const parsed = parseEventData(event.data);
      if ("problem" in parsed) return fail(parsed.problem);
      const { payload } = parsed;
      const type = payload.type;
      if (typeof type !== "string") return fail("an event without a type");
      if (event.event !== undefined && event.event !== type) return fail(`an '${event.event}' event whose data has type '${type}'`);
      if (payload.sequence_number !== undefined && !isIndex(payload.sequence_number)) return fail(`a ${type} event whose sequence_number is not an integer`);
      if (type === "error") {
        decoder.done = true;
        return { source: event, payload, parts: [{ type: "error", error: gatewayErrorFromResponsesStreamError(payload) }] };
      }
      if (lifecycleEvents.has(type) && !isJsonObject(payload.response)) return fail(`a ${type} event without a response object`);
      if ((itemEvents.has(type) || deltaEvents.has(type)) && !isIndex(payload.output_index)) return fail(`a ${type} event without an integer output_index`);
      if (itemEvents.has(type) && (!isJsonObject(payload.item) || typeof payload.item.type !== "string")) return fail(`a ${type} event without a typed item`);
      if (deltaEvents.has(type) && typeof payload.delta !== "string") return fail(`a ${type} event whose delta is not a string`);
      const outputIndex = payload.output_index as number;
      const contentIndex = isIndex(payload.content_index) ? payload.content_index : 0;
      const parts: StreamPart[] = [];
      switch (type) {
        case "response.created": {
          const response = payload.response as JsonObject;
          parts.push({ type: "start", id: typeof response.id === "string" ? response.id : null, model: typeof response.model === "string" ? response.model : null });
          break;
        }
        case "response.completed":
        case "response.incomplete":
          return ending(event, payload, payload.response as JsonObject);
        case "response.failed": {
          const response = payload.response as JsonObject;
          if (isJsonObject(response.usage)) parts.push({ type: "usage", usage: normalizeResponsesUsage(response.usage) });
          parts.push({ type: "error", error: gatewayErrorFromResponsesStreamError(payload) });
          decoder.done = true;
          return { source: event, payload, parts };
        }
        case "response.output_item.added": {
          const item = payload.item as JsonObject;
          if (item.type === "message") items.set(outputIndex, { kind: "message", textOpen: new Set() });
          else if (item.type === "function_call") {
            if (typeof item.name !== "string") return fail("a function_call item without a name");
            const toolIndex = toolCount;
            toolCount += 1;
            items.set(outputIndex, { kind: "function_call", toolIndex, sawArguments: false, ended: false });
            const id = typeof item.call_id === "string" ? item.call_id : typeof item.id === "string" ? item.id : "";
            parts.push({ type: "tool-call-start", choice: 0, block: outputIndex, toolIndex, id, name: item.name });
            if (typeof item.arguments === "string" && item.arguments !== "") {
              (items.get(outputIndex) as { sawArguments: boolean }).sawArguments = true;
              parts.push({ type: "tool-call-delta", choice: 0, toolIndex, argumentsDelta: item.arguments });
            }
          } else items.set(outputIndex, { kind: "other" });
          break;
        }
        case "response.output_item.done": {
          const state = items.get(outputIndex);
          if (state !== undefined) closeItem(outputIndex, state, payload.item as JsonObject, parts);
          break;
        }
        case "response.output_text.delta":
        case "response.refusal.delta": {
          const state = items.get(outputIndex);
          if (state !== undefined && state.kind !== "message") return fail(`a ${type} event for an item that is not a message`);
          if (state === undefined) items.set(outputIndex, { kind: "message", textOpen: new Set([contentIndex]) });
          else state.textOpen.add(contentIndex);
          const delta = payload.delta as string;
          if (delta !== "") parts.push({ type: "text-delta", choice: 0, block: outputIndex, text: delta, ...(type === "response.refusal.delta" ? { refusal: true } : {}) });
          break;
        }
        case "response.output_text.done":
        case "response.refusal.done": {
          const state = items.get(outputIndex);
          if (state?.kind === "message" && state.textOpen.delete(contentIndex)) parts.push({ type: "text-end", choice: 0, block: outputIndex });
          break;
        }
        case "response.function_call_arguments.delta": {
          const state = items.get(outputIndex);
          if (state?.kind !== "function_call") return fail("function call arguments for an item that is not a function_call");
          state.sawArguments = true;
          const delta = payload.delta as string;
          if (delta !== "") parts.push({ type: "tool-call-delta", choice: 0, toolIndex: state.toolIndex, argumentsDelta: delta });
          break;
        }
        case "response.reasoning_text.delta":
        case "response.reasoning_summary_text.delta": {
          const delta = payload.delta as string;
          if (delta !== "") parts.push({ type: "reasoning-delta", choice: 0, block: outputIndex, text: delta });
          break;
        }
        default:
          break; // in_progress, content parts, annotations, built-in tools, event types added later
      }
      return { source: event, payload, parts };
    },
    finish() {
      if (decoder.done) return null;
      decoder.done = true;
      return errorFrame(truncatedStreamError());
    },
  };
  return decoder;
}
