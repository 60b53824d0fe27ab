import { renderAnthropicErrorBody } from "@gateway/errors";
import type { SseEvent } from "../../stream/sse-event.js";
import { callerSafeError } from "../../stream/stream-errors.js";
import type { StreamFrame, StreamRenderer } from "../../stream/stream-part.js";

/** Options of {@link createMessagesPassthroughRenderer}. */
export interface MessagesPassthroughRendererOptions {
  /** The gateway request id, on an error body the gateway renders. */
  requestId: string;
}

/**
 * Renders the frames of an Anthropic messages stream for a caller of the same format: the
 * provider's own bytes for every event that parsed and validated and that nobody changed. A
 * `content_block_delta` whose text an output guardrail changed is re-serialised with the new
 * text; text the gateway adds (hold-back released when a text block stops) goes out as its own
 * `content_block_delta` before the event that carried it. The provider's own `error` event
 * passes through as sent; a failure the gateway detected ends with `event: error`. A frame that
 * completes a stream the upstream ended without `message_stop` renders `message_stop`.
 */
export function createMessagesPassthroughRenderer(options: MessagesPassthroughRendererOptions): StreamRenderer {
  return {
    render(frame: StreamFrame): SseEvent[] {
      const error = frame.parts.find((part) => part.type === "error");
      if (error !== undefined && frame.source === null) {
        return [{ event: "error", data: JSON.stringify(renderAnthropicErrorBody(callerSafeError(error.error), options.requestId)) }];
      }
      const ends = frame.parts.some((part) => part.type === "end");
      if (!frame.modified) {
        if (frame.source !== null) return [frame.source];
        return ends ? [{ event: "message_stop", data: JSON.stringify({ type: "message_stop" }) }] : [];
      }
      const events: SseEvent[] = [];
      let ownText: string | null = null;
      for (const part of frame.parts) {
        if (part.type !== "text-delta") continue;
        if (part.synthetic) {
          events.push({
            event: "content_block_delta",
            data: JSON.stringify({ type: "content_block_delta", index: part.block ?? 0, delta: { type: "text_delta", text: part.text } }),
          });
        } else ownText = (ownText ?? "") + part.text;
      }
      const payload = frame.payload;
      if (frame.source === null) {
        if (ends) events.push({ event: "message_stop", data: JSON.stringify({ type: "message_stop" }) });
      } else if (ownText !== null && payload !== null && typeof payload.delta === "object" && payload.delta !== null) {
        events.push({ ...frame.source, data: JSON.stringify({ ...payload, delta: { ...(payload.delta as Record<string, unknown>), text: ownText } }) });
      } else if (ownText !== null && payload !== null && typeof payload.content_block === "object" && payload.content_block !== null) {
        const contentBlock = { ...(payload.content_block as Record<string, unknown>), text: ownText };
        events.push({ ...frame.source, data: JSON.stringify({ ...payload, content_block: contentBlock }) });
      } else {
        events.push(frame.source);
      }
      return events;
    },
  };
}
