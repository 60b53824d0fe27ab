import type { NormalizedUsage } from "@gateway/contracts";
import { renderGatewayErrorBody } from "@gateway/errors";
import { emptyUsage } from "../../provider-adapter.js";
import { renderChatUsage } from "./chat-usage.js";
import type { ChatFinishReason } from "../messages/map-anthropic-stop-reason.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { callerSafeError } from "../../stream/stream-errors.js";
import type { StreamFrame, StreamRenderer } from "../../stream/stream-part.js";

/** Options of {@link createChatStreamEncoder}. */
export interface ChatStreamEncoderOptions {
  /** The model name to report in every chunk. */
  model: string;
  /** The gateway request id: the chunk id when the upstream gave none, and on an error body. */
  requestId: string;
  /** The caller's `stream_options.include_usage`: send the final `choices: []` usage chunk. */
  includeUsage: boolean;
  /** Unix seconds for `created`; defaults to when the encoder was made. */
  created?: number;
}

/**
 * Renders stream parts (of another wire format) as OpenAI chat completion chunks: a role chunk
 * first, `content` deltas for text, `tool_calls` fragments (the first of a call carries id,
 * type, name and `arguments: ""`; a call whose arguments never arrived gets `"{}"`), the finish
 * reason on its own chunk, the usage chunk (`choices: []`) when asked for, then `data: [DONE]`.
 * Reasoning is not rendered (chat completions have no field for it). An `error` part ends the
 * output with a final `data: {"error":{...}}` and no `[DONE]`.
 */
export function createChatStreamEncoder(options: ChatStreamEncoderOptions): StreamRenderer {
  let id = `chatcmpl-${options.requestId}`;
  const created = options.created ?? Math.floor(Date.now() / 1000);
  let started = false;
  let usage: NormalizedUsage | null = null;
  const toolArguments = new Map<number, boolean>();

  function chunk(delta: Record<string, unknown>, finishReason: ChatFinishReason | null = null): SseEvent {
    const payload: Record<string, unknown> = {
      id,
      object: "chat.completion.chunk",
      created,
      model: options.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (options.includeUsage) payload.usage = null;
    return { data: JSON.stringify(payload) };
  }

  function ensureStarted(events: SseEvent[]): void {
    if (started) return;
    started = true;
    events.push(chunk({ role: "assistant", content: "", refusal: null }));
  }

  return {
    render(frame: StreamFrame): SseEvent[] {
      const events: SseEvent[] = [];
      for (const part of frame.parts) {
        switch (part.type) {
          case "start":
            if (part.id !== null && part.id !== "") id = part.id;
            ensureStarted(events);
            break;
          case "text-delta":
            ensureStarted(events);
            if (part.text !== "") events.push(chunk(part.refusal ? { refusal: part.text } : { content: part.text }));
            break;
          case "tool-call-start":
            ensureStarted(events);
            toolArguments.set(part.toolIndex, false);
            events.push(
              chunk({ tool_calls: [{ index: part.toolIndex, id: part.id, type: "function", function: { name: part.name, arguments: "" } }] }),
            );
            break;
          case "tool-call-delta":
            toolArguments.set(part.toolIndex, true);
            events.push(chunk({ tool_calls: [{ index: part.toolIndex, function: { arguments: part.argumentsDelta } }] }));
            break;
          case "tool-call-end":
            if (toolArguments.get(part.toolIndex) === false) {
              events.push(chunk({ tool_calls: [{ index: part.toolIndex, function: { arguments: "{}" } }] }));
            }
            break;
          case "usage":
            usage = part.usage;
            break;
          case "finish":
            ensureStarted(events);
            events.push(chunk({}, part.reason ?? "stop"));
            break;
          case "end":
            ensureStarted(events);
            if (options.includeUsage) {
              const reported = renderChatUsage(usage ?? emptyUsage());
              events.push({ data: JSON.stringify({ id, object: "chat.completion.chunk", created, model: options.model, choices: [], usage: reported }) });
            }
            events.push({ data: "[DONE]" });
            break;
          case "error":
            events.push({ data: JSON.stringify(renderGatewayErrorBody(callerSafeError(part.error), options.requestId)) });
            break;
          default:
            break; // text-end and reasoning have no chat chunk of their own
        }
      }
      return events;
    },
  };
}
