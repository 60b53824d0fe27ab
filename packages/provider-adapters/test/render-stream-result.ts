import type { NormalizedUsage } from "@gateway/contracts";
import { normalizeError } from "@gateway/errors";
import {
  type ProviderResult,
  type SseEvent,
  type StreamDecoder,
  type StreamFormat,
  type StreamFrame,
  type StreamRenderer,
  createStreamRenderer,
  decodeSseStream,
  emptyUsage,
} from "../src/index.js";
import { gatewayErrorFromStreamFailure } from "../src/stream/stream-errors.js";

/** A stream result rendered for a caller, as the pipeline would (without guardrails), with the usage its parts reported. */
export interface RenderedStream {
  events: AsyncIterable<SseEvent>;
  frames: StreamFrame[];
  usage(): NormalizedUsage;
}

const rendered = new WeakMap<object, RenderedStream>();

/**
 * Renders a provider stream result in the caller's format `to` (default: the upstream's own,
 * i.e. native passthrough; chat completions for a neutral model's parts-only frames). The same result always gives the same rendering object.
 */
export function renderStreamResult(
  result: ProviderResult,
  options: { to?: StreamFormat; includeUsage?: boolean; model?: string; requestId?: string } = {},
): RenderedStream {
  if (result.kind !== "stream") throw new Error("not a stream result");
  const known = rendered.get(result);
  if (known !== undefined) return known;
  const renderer = createStreamRenderer({
    from: result.format,
    to: options.to ?? result.format ?? "openai-chat",
    requestId: options.requestId ?? "req_test",
    model: options.model ?? "test/model",
    includeUsage: options.includeUsage ?? false,
  });
  let usage = emptyUsage();
  const frames: StreamFrame[] = [];
  async function* events(): AsyncGenerator<SseEvent> {
    try {
      for await (const frame of result.kind === "stream" ? result.frames : []) {
        frames.push(frame);
        for (const part of frame.parts) if (part.type === "usage") usage = part.usage;
        yield* renderer.render(frame);
      }
    } catch (thrown) {
      // A read failure ends the caller's stream with the protocol's error event (nobody is left
      // to read one when the caller itself went away).
      const error = normalizeError(thrown);
      if (error.code === "client_cancelled") throw error;
      yield* renderer.render({ source: null, payload: null, parts: [{ type: "error", error }] });
    }
  }
  const stream = { events: events(), frames, usage: () => usage };
  rendered.set(result, stream);
  return stream;
}

/** Upstream events decoded and rendered for another format, as the pipeline would (without guardrails). */
export interface TranslatedEvents {
  events: AsyncIterable<SseEvent>;
  usage(): NormalizedUsage;
  /** True once the decoder ended the answer (completed or failed). */
  finished(): boolean;
}

/** Decodes `source` with `decoder` and renders the frames with `renderer`; a read failure becomes the protocol error event. */
export function translateEvents(source: AsyncIterable<SseEvent>, decoder: StreamDecoder, renderer: StreamRenderer): TranslatedEvents {
  const result: ProviderResult = { kind: "stream", status: 200, format: decoder.format, frames: decodeSseStream(source, decoder) };
  let usage = emptyUsage();
  async function* events(): AsyncGenerator<SseEvent> {
    try {
      for await (const frame of result.kind === "stream" ? result.frames : []) {
        for (const part of frame.parts) if (part.type === "usage") usage = part.usage;
        yield* renderer.render(frame);
      }
    } catch (thrown) {
      yield* renderer.render({ source: null, payload: null, parts: [{ type: "error", error: gatewayErrorFromStreamFailure(thrown) }] });
    }
  }
  return { events: events(), usage: () => usage, finished: () => decoder.done };
}
