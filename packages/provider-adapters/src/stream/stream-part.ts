import type { NormalizedUsage } from "@gateway/contracts";
import type { GatewayError } from "@gateway/errors";
import type { ChatFinishReason } from "../formats/messages/map-anthropic-stop-reason.js";
import type { SseEvent } from "./sse-event.js";

/** The wire format of a stream: what an upstream speaks, what a caller wants. */
export type StreamFormat = "openai-chat" | "anthropic-messages" | "openai-responses";

/**
 * One typed piece of a streamed answer, whatever wire format carried it. Content parts carry
 * where they belong in the upstream's own stream: `choice` (OpenAI choice index; 0 for
 * Anthropic) and `block` (Anthropic content block index; absent for OpenAI).
 */
export type StreamPart =
  /** The answer started: its id and model as the upstream named them. */
  | { type: "start"; id: string | null; model: string | null }
  /** Visible text; `refusal` marks OpenAI `delta.refusal` text. `synthetic`: added by the gateway (released hold-back). */
  | { type: "text-delta"; choice: number; block?: number; text: string; refusal?: boolean; synthetic?: boolean }
  /** A run of text ended (Anthropic text block stop; OpenAI: before tool calls or the finish of its choice). */
  | { type: "text-end"; choice: number; block?: number }
  /** Reasoning the upstream streamed (Anthropic thinking, OpenAI-compatible `reasoning_content`); never translated. */
  | { type: "reasoning-delta"; choice: number; block?: number; text: string }
  /** A tool call started; `toolIndex` counts tool calls of the answer (not content blocks). */
  | { type: "tool-call-start"; choice: number; block?: number; toolIndex: number; id: string; name: string }
  | { type: "tool-call-delta"; choice: number; toolIndex: number; argumentsDelta: string }
  | { type: "tool-call-end"; choice: number; toolIndex: number }
  /** The usage so far, cumulative (each replaces the previous). */
  | { type: "usage"; usage: NormalizedUsage }
  /** A choice finished, in OpenAI's vocabulary (`raw` is the upstream's own reason). */
  | { type: "finish"; choice: number; reason: ChatFinishReason | null; raw: string | null }
  /** The answer completed (`[DONE]`, `message_stop`). Nothing follows. */
  | { type: "end" }
  /** The stream failed: the provider's own error event, or a failure the gateway detected. Nothing follows. */
  | { type: "error"; error: GatewayError };

/**
 * The parts decoded from one upstream event, with the event itself so that a caller of the same
 * format can receive the provider's own bytes. A frame the gateway made has no `source`.
 */
export interface StreamFrame {
  /** The upstream event, when these parts came from one that parsed and validated. */
  source: SseEvent | null;
  /** `source`'s parsed JSON (kept so a native renderer can patch it instead of parsing again). */
  payload: Record<string, unknown> | null;
  parts: StreamPart[];
  /** Set by whoever changes or adds parts: a native renderer then rewrites instead of forwarding `source`. */
  modified?: boolean;
}

/** Turns upstream events into frames, one event at a time (a state machine). */
export interface StreamDecoder {
  readonly format: StreamFormat;
  /** Decodes one event. After a frame with an `end` or `error` part, the decoder is done. */
  decode(event: SseEvent): StreamFrame;
  /**
   * The upstream ended: a frame that completes the answer (a finish was seen but the terminal
   * event never came), fails it (truncated), or null when it already ended.
   */
  finish(): StreamFrame | null;
  /** True once a frame with an `end` or `error` part was produced. */
  readonly done: boolean;
}

/** Turns frames into the caller's wire format. */
export interface StreamRenderer {
  render(frame: StreamFrame): SseEvent[];
  /**
   * The answer as a whole, once a frame with an `end` part was rendered (Responses renderers:
   * the final response object, as the caller receives it); absent or null otherwise.
   */
  result?(): unknown;
}

/** A frame the gateway made: the stream failed with `error` (rendered in the caller's format). */
export function errorFrame(error: GatewayError): StreamFrame {
  return { source: null, payload: null, parts: [{ type: "error", error }] };
}
