import type { NormalizedUsage } from "@gateway/contracts";
import { renderAnthropicErrorBody } from "@gateway/errors";
import { emptyUsage } from "../../provider-adapter.js";
import { type AnthropicStopReason, mapChatFinishReason } from "../chat-completions/map-chat-finish-reason.js";
import { renderMessagesUsage } from "./messages-usage.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { callerSafeError } from "../../stream/stream-errors.js";
import type { StreamFrame, StreamRenderer } from "../../stream/stream-part.js";

/** Options of {@link createMessagesStreamEncoder}. */
export interface MessagesStreamEncoderOptions {
  /** The model name to report in `message_start`. */
  model: string;
  /** The gateway request id: the message id when the upstream gave none, and on an error body. */
  requestId: string;
}

/** A tool call whose fragments wait for their turn (Anthropic never interleaves blocks). */
interface PendingCall {
  id: string;
  name: string;
  arguments: string;
  ended: boolean;
}

/**
 * Renders stream parts (of another wire format) as Anthropic messages stream events:
 * `message_start`, then content blocks, then `message_delta` (stop reason, cumulative usage with
 * cache tokens) and `message_stop`. Exactly one content block is open at a time, as Anthropic
 * itself streams them, even when the upstream interleaves parallel tool calls: the first tool
 * call streams live (`input_json_delta` as its fragments arrive); the fragments of every later
 * call are buffered and each is emitted as its own `content_block_start` / one
 * `content_block_delta` / `content_block_stop` once the live call has ended, in the order the
 * calls started. Text that arrives while a tool call is live is buffered the same way. Only
 * choice 0 is rendered. An `error` part ends the output with `event: error` (Anthropic's body).
 */
export function createMessagesStreamEncoder(options: MessagesStreamEncoderOptions): StreamRenderer {
  let started = false;
  let nextBlock = 0;
  /** The one open block: a text block, or the live tool call. */
  let open: { kind: "text"; block: number } | { kind: "tool"; block: number; toolIndex: number } | null = null;
  const pending = new Map<number, PendingCall>();
  let bufferedText = "";
  let liveUsed = false;
  let finishReason: AnthropicStopReason = "end_turn";
  let refused = false;
  let usage: NormalizedUsage = emptyUsage();
  let id = `msg_${options.requestId}`;

  const emit = (events: SseEvent[], type: string, payload: Record<string, unknown>) =>
    events.push({ event: type, data: JSON.stringify({ type, ...payload }) });

  function ensureStarted(events: SseEvent[]): void {
    if (started) return;
    started = true;
    emit(events, "message_start", {
      message: {
        id,
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

  function closeOpen(events: SseEvent[]): void {
    if (open === null) return;
    emit(events, "content_block_stop", { index: open.block });
    open = null;
  }

  function openBlock(events: SseEvent[], contentBlock: Record<string, unknown>): number {
    closeOpen(events);
    const block = nextBlock;
    nextBlock += 1;
    emit(events, "content_block_start", { index: block, content_block: contentBlock });
    return block;
  }

  function emitText(events: SseEvent[], text: string): void {
    if (text === "") return;
    if (open?.kind !== "text") open = { kind: "text", block: openBlock(events, { type: "text", text: "" }) };
    emit(events, "content_block_delta", { index: open.block, delta: { type: "text_delta", text } });
  }

  /** Emits, in start order, every buffered call that has ended (all of them when `all`), then buffered text. */
  function releasePending(events: SseEvent[], all: boolean): void {
    for (const [toolIndex, call] of pending) {
      if (!call.ended && !all) break;
      const block = openBlock(events, { type: "tool_use", id: call.id, name: call.name, input: {} });
      open = { kind: "tool", block, toolIndex };
      if (call.arguments !== "") emit(events, "content_block_delta", { index: block, delta: { type: "input_json_delta", partial_json: call.arguments } });
      closeOpen(events);
      pending.delete(toolIndex);
    }
    if (pending.size === 0 && bufferedText !== "") {
      const text = bufferedText;
      bufferedText = "";
      emitText(events, text);
    }
  }

  function complete(events: SseEvent[]): void {
    ensureStarted(events);
    closeOpen(events);
    releasePending(events, true);
    closeOpen(events);
    emit(events, "message_delta", {
      delta: { stop_reason: refused ? "refusal" : finishReason, stop_sequence: null },
      usage: renderMessagesUsage(usage),
    });
    emit(events, "message_stop", {});
  }

  return {
    render(frame: StreamFrame): SseEvent[] {
      const events: SseEvent[] = [];
      for (const part of frame.parts) {
        if ("choice" in part && part.choice !== 0) continue;
        switch (part.type) {
          case "start":
            if (part.id !== null && part.id !== "") id = part.id;
            ensureStarted(events);
            break;
          case "text-delta":
            ensureStarted(events);
            if (part.refusal) refused = true;
            if (open?.kind === "tool" || pending.size > 0) bufferedText += part.text;
            else emitText(events, part.text);
            break;
          case "text-end":
            if (open?.kind === "text") closeOpen(events);
            break;
          case "tool-call-start":
            ensureStarted(events);
            if (open?.kind !== "tool" && pending.size === 0 && !liveUsed) {
              liveUsed = true;
              open = { kind: "tool", block: openBlock(events, { type: "tool_use", id: part.id, name: part.name, input: {} }), toolIndex: part.toolIndex };
            } else {
              pending.set(part.toolIndex, { id: part.id, name: part.name, arguments: "", ended: false });
            }
            break;
          case "tool-call-delta":
            if (open?.kind === "tool" && open.toolIndex === part.toolIndex) {
              emit(events, "content_block_delta", { index: open.block, delta: { type: "input_json_delta", partial_json: part.argumentsDelta } });
            } else {
              const call = pending.get(part.toolIndex);
              if (call !== undefined) call.arguments += part.argumentsDelta;
            }
            break;
          case "tool-call-end":
            if (open?.kind === "tool" && open.toolIndex === part.toolIndex) {
              closeOpen(events);
              releasePending(events, false);
            } else {
              const call = pending.get(part.toolIndex);
              if (call !== undefined) call.ended = true;
              if (open === null) releasePending(events, false);
            }
            break;
          case "usage":
            usage = part.usage;
            break;
          case "finish":
            finishReason = mapChatFinishReason(part.reason);
            break;
          case "end":
            complete(events);
            break;
          case "error":
            events.push({ event: "error", data: JSON.stringify(renderAnthropicErrorBody(callerSafeError(part.error), options.requestId)) });
            break;
          default:
            break; // reasoning is never requested by a translated call
        }
      }
      return events;
    },
  };
}
