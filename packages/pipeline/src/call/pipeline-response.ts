import type { SseEvent } from "@gateway/provider-adapters";

/** A finished JSON answer of the pipeline; the app writes it as is. */
export interface PipelineJsonResponse {
  status: number;
  /** Lower-case header names; always includes `x-request-id`. */
  headers: Record<string, string>;
  body: unknown;
  /**
   * `body` already serialised (the provider's bytes of a native answer that passed through
   * unchanged): send it as is instead of `JSON.stringify(body)`.
   */
  bodyText?: string;
}

/**
 * A streamed answer of the pipeline: the app writes the headers at once, then each event as it
 * is yielded (with backpressure), and must either iterate `events` to the end or call its
 * iterator's `return()` (a `break` out of `for await` does) so that the call is settled and its
 * usage event written.
 */
export interface PipelineStreamResponse {
  kind: "stream";
  status: number;
  /** Lower-case header names; always includes `x-request-id` (content type is the app's). */
  headers: Record<string, string>;
  /** Events in the caller's wire format, including a final protocol error event on failure. */
  events: AsyncIterable<SseEvent>;
}

/** The answer of an inference call: JSON, or a stream. */
export type PipelineCallResponse = (PipelineJsonResponse & { kind: "json" }) | PipelineStreamResponse;
