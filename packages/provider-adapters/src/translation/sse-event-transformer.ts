import type { NormalizedUsage } from "@gateway/contracts";
import type { SseEvent } from "./sse-event.js";

/** The part of a `TransformStreamDefaultController` a stream translator uses. */
export interface SseEventController {
  enqueue(event: SseEvent): void;
}

/**
 * A stream translator: a `TransformStream`-style state machine (usable as the transformer of a
 * `new TransformStream(...)`) plus helpers for async iterables and the running usage.
 */
export interface SseEventTransformer {
  start(controller: SseEventController): void;
  transform(event: SseEvent, controller: SseEventController): void;
  flush(controller: SseEventController): void;
  /** Ends the output with the protocol's error event (use when the upstream read fails mid-stream). */
  fail(error: unknown, controller: SseEventController): void;
  /** Usage seen so far (partial until the stream completes), for billing on disconnect. */
  usage(): NormalizedUsage;
  /** True once the output has ended (completion or error); later input is ignored. */
  readonly finished: boolean;
  /** Runs the state machine over an async iterable; a throwing source becomes the protocol error event. */
  pipe(events: AsyncIterable<SseEvent>): AsyncIterable<SseEvent>;
}

/** Builds `pipe` over a transformer's start/transform/flush/fail. */
export function pipeThroughTransformer(
  transformer: Pick<SseEventTransformer, "start" | "transform" | "flush" | "fail" | "finished">,
  events: AsyncIterable<SseEvent>,
): AsyncIterable<SseEvent> {
  return {
    async *[Symbol.asyncIterator]() {
      const queue: SseEvent[] = [];
      const controller: SseEventController = { enqueue: (event) => queue.push(event) };
      transformer.start(controller);
      yield* queue.splice(0);
      try {
        for await (const event of events) {
          transformer.transform(event, controller);
          yield* queue.splice(0);
          if (transformer.finished) return;
        }
      } catch (error) {
        transformer.fail(error, controller);
        yield* queue.splice(0);
        return;
      }
      transformer.flush(controller);
      yield* queue.splice(0);
    },
  };
}
