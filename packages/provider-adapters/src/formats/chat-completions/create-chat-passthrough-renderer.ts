import { renderGatewayErrorBody } from "@gateway/errors";
import type { SseEvent } from "../../stream/sse-event.js";
import { callerSafeError } from "../../stream/stream-errors.js";
import type { StreamFrame, StreamPart, StreamRenderer } from "../../stream/stream-part.js";

/** Options of {@link createChatPassthroughRenderer}. */
export interface ChatPassthroughRendererOptions {
  /** The gateway request id, on an error body the gateway renders. */
  requestId: string;
  /**
   * The caller's `stream_options.include_usage`. The gateway always asks the upstream for usage
   * (billing); when the caller did not, the usage-only chunk (`choices: []`) is not forwarded.
   */
  includeUsage: boolean;
}

/**
 * Renders the frames of an OpenAI chat stream for a caller of the same format: the provider's
 * own bytes for every event that parsed and validated and that nobody changed (unknown fields,
 * logprobs and ids intact). A frame an output guardrail changed is re-serialised from its parsed
 * chunk, each touched choice's `delta.content` set to the frame's text (released hold-back text
 * included); text released at `[DONE]` goes out as one more chunk first. The provider's own error
 * chunk passes through as sent; a failure the gateway detected ends with a final
 * `data: {"error":{...}}`. A frame that completes a stream the upstream ended without `[DONE]`
 * renders `[DONE]`.
 */
export function createChatPassthroughRenderer(options: ChatPassthroughRendererOptions): StreamRenderer {
  let envelope: Record<string, unknown> = { object: "chat.completion.chunk" };

  function textByChoice(parts: readonly StreamPart[]): Map<number, string> {
    const texts = new Map<number, string>();
    for (const part of parts) {
      if (part.type === "text-delta" && !part.refusal) texts.set(part.choice, (texts.get(part.choice) ?? "") + part.text);
    }
    return texts;
  }

  function contentChunks(texts: Map<number, string>): SseEvent[] {
    const events: SseEvent[] = [];
    for (const [index, content] of texts) {
      if (content === "") continue;
      events.push({ data: JSON.stringify({ ...envelope, choices: [{ index, delta: { content }, logprobs: null, finish_reason: null }] }) });
    }
    return events;
  }

  return {
    render(frame: StreamFrame): SseEvent[] {
      const error = frame.parts.find((part) => part.type === "error");
      if (error !== undefined && frame.source === null) {
        return [{ data: JSON.stringify(renderGatewayErrorBody(callerSafeError(error.error), options.requestId)) }];
      }
      const payload = frame.payload;
      if (payload !== null && Array.isArray(payload.choices)) {
        envelope = { id: payload.id, object: "chat.completion.chunk", created: payload.created, model: payload.model };
        if (!options.includeUsage && payload.choices.length === 0 && frame.parts.every((part) => part.type === "usage")) return [];
      }
      if (!frame.modified) {
        if (frame.source !== null) return [frame.source];
        return frame.parts.some((part) => part.type === "end") ? [{ data: "[DONE]" }] : [];
      }
      const texts = textByChoice(frame.parts);
      if (payload === null || !Array.isArray(payload.choices)) {
        // `[DONE]` (or a completion the gateway made): text released at the end goes first.
        const events = contentChunks(texts);
        if (frame.parts.some((part) => part.type === "end")) events.push(frame.source ?? { data: "[DONE]" });
        return events;
      }
      const choices = payload.choices as Record<string, unknown>[];
      for (const [index, content] of texts) {
        let choice = choices.find((candidate) => (candidate.index ?? 0) === index);
        if (choice === undefined) {
          choice = { index, delta: {}, logprobs: null, finish_reason: null };
          choices.push(choice);
        }
        const delta = typeof choice.delta === "object" && choice.delta !== null ? (choice.delta as Record<string, unknown>) : {};
        choice.delta = { ...delta, content };
      }
      return [{ ...frame.source, data: JSON.stringify(payload) }];
    },
  };
}
