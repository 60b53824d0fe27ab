import type { JsonObject } from "@gateway/contracts";
import { responsesErrorCode } from "./responses-error-code.js";
import { isJsonObject } from "../../stream/parse-event-data.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { callerSafeError } from "../../stream/stream-errors.js";
import type { StreamFrame, StreamRenderer } from "../../stream/stream-part.js";

/** Options of {@link createResponsesPassthroughRenderer}. */
export interface ResponsesPassthroughRendererOptions {
  /** The gateway request id (unused by the provider's own events; kept for symmetry with the other renderers). */
  requestId: string;
  /**
   * Fields set on the `response` object of every lifecycle event (`response.created` ...
   * `response.completed`): the gateway's own `store` and `previous_response_id`, which the
   * upstream (always called with `store: false` and the conversation expanded) cannot know.
   */
  overrides?: JsonObject;
}

/**
 * Renders the frames of an OpenAI Responses stream for a caller of the same format: the
 * provider's own bytes for every event that parsed and validated and that nobody changed. Changed
 * by the gateway:
 * - lifecycle events whose `response` differs from `overrides` are re-serialised with them;
 * - text an output guardrail changed: the delta event is re-serialised with the new text, text
 *   released from the hold-back goes out as one more `response.output_text.delta` before the
 *   event that carried it, and every later event that repeats the text (`.done`, the content
 *   part, the item, the final response) carries the text the caller actually received; once the
 *   gateway added an event, later events' `sequence_number`s are shifted to stay consecutive;
 * - a failure the gateway detected ends the stream with an `error` event and `response.failed`
 *   (the last response the upstream described, with the items it completed so far);
 * - the provider's own `error` event goes out as it came (its credential redacted), followed by
 *   the same `response.failed` (`error.code` in OpenAI's vocabulary).
 * `result()` is the final response object (`response.completed` / `.incomplete`) as sent.
 */
export function createResponsesPassthroughRenderer(options: ResponsesPassthroughRendererOptions): StreamRenderer {
  const overrides = options.overrides ?? {};
  let shift = 0;
  let lastSequence = -1;
  let snapshot: JsonObject | null = null;
  const completedItems = new Map<number, JsonObject>();
  /** Text sent per `output_index:content_index`, for the parts whose text the gateway changed. */
  const sentText = new Map<string, string>();
  const changedParts = new Set<string>();
  const partOf = new Map<number, { itemId: unknown; contentIndex: number }>();
  let result: JsonObject | null = null;

  const key = (outputIndex: unknown, contentIndex: unknown) => `${String(outputIndex)}:${typeof contentIndex === "number" ? contentIndex : 0}`;

  function applyOverrides(response: JsonObject): boolean {
    let changed = false;
    for (const [name, value] of Object.entries(overrides)) {
      if (response[name] !== value) {
        response[name] = value;
        changed = true;
      }
    }
    return changed;
  }

  /** Writes the text the caller received into the content parts of an item (message items only). */
  function patchItem(item: unknown, outputIndex: number): boolean {
    if (!isJsonObject(item) || !Array.isArray(item.content)) return false;
    let changed = false;
    (item.content as unknown[]).forEach((part, contentIndex) => {
      const partKey = key(outputIndex, contentIndex);
      if (!changedParts.has(partKey) || !isJsonObject(part) || typeof part.text !== "string") return;
      part.text = sentText.get(partKey) ?? "";
      changed = true;
    });
    return changed;
  }

  function patchResponse(response: JsonObject): boolean {
    let changed = applyOverrides(response);
    if (changedParts.size > 0 && Array.isArray(response.output)) {
      (response.output as unknown[]).forEach((item, outputIndex) => {
        if (patchItem(item, outputIndex)) changed = true;
      });
    }
    return changed;
  }

  function sequenced(payload: JsonObject): JsonObject {
    if (typeof payload.sequence_number === "number") {
      lastSequence = payload.sequence_number;
      if (shift !== 0) payload.sequence_number = payload.sequence_number + shift;
    }
    return payload;
  }

  /** `response.failed`: the last response the upstream described, with the items it completed so far. */
  function failedEvent(error: ReturnType<typeof callerSafeError>, sequenceNumber: number): SseEvent {
    const failed: JsonObject = {
      ...(snapshot ?? { object: "response" }),
      status: "failed",
      error: { code: responsesErrorCode(error), message: error.message },
      output: [...completedItems.entries()].sort(([a], [b]) => a - b).map(([, item]) => item),
    };
    applyOverrides(failed);
    return { event: "response.failed", data: JSON.stringify({ type: "response.failed", sequence_number: sequenceNumber, response: failed }) };
  }

  function failureEvents(error: ReturnType<typeof callerSafeError>): SseEvent[] {
    const first = lastSequence + shift + 1;
    const errorEvent = { type: "error", sequence_number: first, code: error.code, message: error.message, param: error.param ?? null };
    return [{ event: "error", data: JSON.stringify(errorEvent) }, failedEvent(error, first + 1)];
  }

  return {
    render(frame: StreamFrame): SseEvent[] {
      const failure = frame.parts.find((part) => part.type === "error");
      if (failure !== undefined && frame.source === null) return failureEvents(callerSafeError(failure.error));
      const payload = frame.payload;
      if (frame.source === null || payload === null) return [];
      const type = payload.type;
      const events: SseEvent[] = [];
      let changed = frame.modified === true || shift !== 0;

      // Remember where text lives (for text the gateway adds) and what the stream described so far.
      if ((type === "response.output_text.delta" || type === "response.output_text.done") && typeof payload.output_index === "number") {
        partOf.set(payload.output_index, { itemId: payload.item_id, contentIndex: typeof payload.content_index === "number" ? payload.content_index : 0 });
      }
      if (frame.modified) {
        let own: string | null = null;
        for (const part of frame.parts) {
          if (part.type !== "text-delta" || part.refusal) continue;
          const outputIndex = part.block ?? 0;
          const where = partOf.get(outputIndex) ?? { itemId: null, contentIndex: 0 };
          const partKey = key(outputIndex, where.contentIndex);
          changedParts.add(partKey);
          sentText.set(partKey, (sentText.get(partKey) ?? "") + part.text);
          if (part.synthetic) {
            shift += 1;
            const sequenceNumber = (typeof payload.sequence_number === "number" ? payload.sequence_number : lastSequence + 1) + shift - 1;
            events.push({
              event: "response.output_text.delta",
              data: JSON.stringify({ type: "response.output_text.delta", sequence_number: sequenceNumber, item_id: where.itemId, output_index: outputIndex, content_index: where.contentIndex, delta: part.text, logprobs: [] }),
            });
          } else own = (own ?? "") + part.text;
        }
        if (own !== null && type === "response.output_text.delta") payload.delta = own;
      } else if (type === "response.output_text.delta" && typeof payload.delta === "string") {
        // The text sent so far, in case a guardrail changes a later piece of the same part.
        const partKey = key(payload.output_index, payload.content_index);
        sentText.set(partKey, (sentText.get(partKey) ?? "") + payload.delta);
      }

      if (changedParts.size > 0) {
        const partKey = key(payload.output_index, payload.content_index);
        if (type === "response.output_text.done" && changedParts.has(partKey)) {
          payload.text = sentText.get(partKey) ?? "";
          changed = true;
        } else if (type === "response.content_part.done" && changedParts.has(partKey) && isJsonObject(payload.part)) {
          payload.part.text = sentText.get(partKey) ?? "";
          changed = true;
        } else if (type === "response.output_item.done" && typeof payload.output_index === "number") {
          if (patchItem(payload.item, payload.output_index)) changed = true;
        }
      }
      if (type === "response.output_item.done" && typeof payload.output_index === "number" && isJsonObject(payload.item)) {
        completedItems.set(payload.output_index, payload.item);
      }
      if (isJsonObject(payload.response) && typeof type === "string" && type.startsWith("response.")) {
        if (patchResponse(payload.response)) changed = true;
        snapshot = { ...payload.response };
        if (type === "response.completed" || type === "response.incomplete") result = payload.response;
      }
      sequenced(payload);
      events.push(changed ? { ...frame.source, data: JSON.stringify(payload) } : frame.source);
      // The provider's own `error` event ends its stream: it goes out as it came, then `response.failed`.
      if (type === "error" && failure !== undefined) events.push(failedEvent(callerSafeError(failure.error), lastSequence + shift + 1));
      return events;
    },
    result: () => result,
  };
}
