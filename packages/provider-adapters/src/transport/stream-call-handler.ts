import { strict as assert } from "node:assert";
import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { GatewayError } from "@gateway/errors";
import { onCallerAbort } from "../call-abort.js";
import type { HttpStreamResponse } from "../http-transport.js";
import type { ProviderCallContext } from "../provider-adapter.js";
import { type AbortReason, cancelledError, mapTransportError, timeoutError } from "./map-transport-error.js";
import { parseJsonText } from "./parse-json-text.js";
import { type StreamLimits, StreamTimeouts } from "./stream-timeouts.js";
import { toResponseHeaders } from "./to-response-headers.js";
import { UpstreamCallHandler } from "./upstream-call-handler.js";

/** Unread stream bytes above which the upstream socket is paused (as a Readable's default buffer). */
const streamHighWaterBytes = 64 * 1024;
/** Unread stream bytes at or below which a paused upstream socket is resumed. */
const streamLowWaterBytes = 16 * 1024;

/** Options of {@link StreamCallHandler}. */
export interface StreamCallHandlerOptions {
  /** The caller's context: its abort ends the call with 499. */
  context: Pick<ProviderCallContext, "abort">;
  /** Connection name for error messages. */
  provider: string;
  limits: StreamLimits;
  /** Time left until the request deadline, when the call starts. */
  remainingMs: number;
  /** Settles the call's promise at the answer's headers. */
  resolve(response: HttpStreamResponse): void;
  reject(error: GatewayError): void;
}

type Waiting<Value> = { resolve(value: Value): void; reject(error: unknown): void };

/**
 * One streamed call on undici's controller API. Resolves at the answer's headers with a body that
 * the consumer pulls chunk by chunk (see {@link read}); chunks that arrive before they are read
 * wait here, and above {@link streamHighWaterBytes} unread the upstream socket is paused through
 * the controller, resumed once they are read down to {@link streamLowWaterBytes}. The limits
 * follow what is read ({@link StreamTimeouts}). Its phase only moves forward:
 * `waiting` (for headers) -> `streaming` -> `complete` | `failed`, and -> `stopped` when the
 * consumer stops reading (which aborts an unfinished upstream request).
 */
export class StreamCallHandler extends UpstreamCallHandler {
  readonly #provider: string;
  readonly #timeouts: StreamTimeouts;
  readonly #unsubscribe: () => void;
  #answered: Waiting<HttpStreamResponse> | null;
  #phase: "waiting" | "streaming" | "complete" | "failed" | "stopped" = "waiting";
  #failure: GatewayError | null = null;
  readonly #unread: Buffer[] = [];
  #unreadBytes = 0;
  #reader: Waiting<IteratorResult<Uint8Array>> | null = null;
  #released = false;

  constructor(options: StreamCallHandlerOptions) {
    super();
    this.#provider = options.provider;
    this.#answered = { resolve: options.resolve, reject: options.reject };
    this.#unsubscribe = onCallerAbort(options.context, () => this.#abortFor("client", 0));
    this.#timeouts = new StreamTimeouts({ limits: options.limits, remainingMs: options.remainingMs, onExpired: (reason, limitMs) => this.#abortFor(reason, limitMs) });
  }

  /** Fails the call with what `dispatch` threw (it never started). */
  dispatchFailed(error: unknown): void {
    this.#fail(error);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // 1xx: informational, the answer follows
    assert(this.#phase === "waiting" && this.#answered !== null, "a stream's answer starts once, before anything else ended it");
    this.#phase = "streaming";
    this.#timeouts.headersArrived();
    const answered = this.#answered;
    this.#answered = null;
    answered.resolve(new UpstreamStreamResponse(statusCode, toResponseHeaders(headers), this));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#phase !== "streaming") return;
    this.#unread.push(chunk);
    this.#unreadBytes += chunk.length;
    if (this.#reader !== null) {
      const reader = this.#reader;
      this.#reader = null;
      reader.resolve({ done: false, value: this.#take() });
    } else if (this.#unreadBytes > streamHighWaterBytes) controller.pause();
  }

  onResponseEnd(): void {
    if (this.#phase === "failed") return;
    assert(this.#phase === "streaming", "a stream ends after its answer started");
    // The whole answer is here: no limit can apply any more, and the caller's abort has nothing to close.
    this.#phase = "complete";
    this.#release();
    if (this.#reader !== null) {
      const reader = this.#reader;
      this.#reader = null;
      reader.resolve({ done: true, value: undefined });
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#fail(error);
  }

  /** The next body chunk: an unread one at once, else the next to arrive; done at the end or once stopped. */
  read(): Promise<IteratorResult<Uint8Array>> {
    if (this.#phase === "stopped") return Promise.resolve({ done: true, value: undefined });
    if (this.#unread.length > 0) return Promise.resolve({ done: false, value: this.#take() });
    if (this.#phase === "failed") return Promise.reject(this.#failure);
    if (this.#phase === "complete") return Promise.resolve({ done: true, value: undefined });
    assert(this.#reader === null, "a stream's body is read one chunk at a time");
    return new Promise((resolve, reject) => {
      this.#reader = { resolve, reject };
    });
  }

  /** The consumer stops reading (early return or `cancel`): an unfinished request is aborted, so its socket is closed, not left half-read. */
  stop(): void {
    if (this.#phase === "stopped") return;
    const unfinished = this.#phase === "streaming";
    this.#phase = "stopped";
    if (unfinished) {
      this.abortState.reason ??= "client";
      this.abortRequest(cancelledError(this.#provider));
    }
    this.#unread.length = 0;
    this.#unreadBytes = 0;
    this.#release();
  }

  /** The next unread chunk (the timers and backpressure follow what is read). */
  #take(): Buffer {
    const chunk = this.#unread.shift()!;
    this.#unreadBytes -= chunk.length;
    const { controller } = this;
    if (controller !== null && controller.paused && this.#unreadBytes <= streamLowWaterBytes) controller.resume();
    this.#timeouts.chunkRead();
    return chunk;
  }

  #abortFor(reason: AbortReason, limitMs: number): void {
    if (this.abortState.reason !== null || (this.#phase !== "waiting" && this.#phase !== "streaming")) return;
    this.abortState.reason = reason;
    this.abortState.limitMs = limitMs;
    const error = reason === "client" ? cancelledError(this.#provider) : timeoutError(reason, this.#provider, limitMs);
    // Before a connection was given, undici calls no handler method: fail the call here.
    if (!this.abortRequest(error)) this.#fail(error);
  }

  #fail(error: unknown): void {
    if (this.#phase !== "waiting" && this.#phase !== "streaming") return;
    const failure = mapTransportError(error, this.abortState, this.#provider);
    this.#phase = "failed";
    this.#failure = failure;
    this.#release();
    if (this.#answered !== null) {
      const answered = this.#answered;
      this.#answered = null;
      answered.reject(failure);
    }
    if (this.#reader !== null) {
      const reader = this.#reader;
      this.#reader = null;
      reader.reject(failure);
    }
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#timeouts.clear();
    this.#unsubscribe();
  }
}

/** The body of a streamed answer, pulled from its handler; stopping iteration early stops the call. */
class UpstreamStreamBody implements AsyncIterableIterator<Uint8Array> {
  readonly #handler: StreamCallHandler;

  constructor(handler: StreamCallHandler) {
    this.#handler = handler;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    return this.#handler.read();
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    this.#handler.stop();
    return Promise.resolve({ done: true, value: undefined });
  }
}

/** A streamed answer (see {@link HttpStreamResponse}). */
class UpstreamStreamResponse implements HttpStreamResponse {
  readonly body: UpstreamStreamBody;
  readonly #handler: StreamCallHandler;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    handler: StreamCallHandler,
  ) {
    this.#handler = handler;
    this.body = new UpstreamStreamBody(handler);
  }

  async readJson(): Promise<{ body: unknown; text: string }> {
    const parts: Buffer[] = [];
    for (let next = await this.#handler.read(); next.done !== true; next = await this.#handler.read()) parts.push(next.value as Buffer);
    const text = Buffer.concat(parts).toString("utf8");
    return { body: parseJsonText(text), text };
  }

  cancel(): void {
    this.#handler.stop();
  }
}
