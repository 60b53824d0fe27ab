import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import type { AbortState } from "./map-transport-error.js";

/**
 * What the JSON and stream handlers share, on undici's controller handler API: the request's
 * controller once undici has given it a connection, and an abort that works before that too (a
 * request still queued for a connection is aborted as soon as it gets one, before anything is
 * sent). `abortState` records why the transport aborted the call itself, for the error mapping.
 */
export abstract class UpstreamCallHandler implements Dispatcher.DispatchHandler {
  readonly abortState: AbortState = { reason: null, limitMs: 0 };
  protected controller: Dispatcher.DispatchController | null = null;
  #pendingAbort: Error | null = null;

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // undici may start a request again on a new connection (a pipelined one ahead of it failed).
    if (this.#pendingAbort !== null) controller.abort(this.#pendingAbort);
    else this.controller = controller;
  }

  /**
   * Aborts the request with `error`; returns whether undici had started it (then it reports the
   * abort through `onResponseError`; else the caller must settle the call itself).
   */
  protected abortRequest(error: Error): boolean {
    if (this.controller !== null) {
      this.controller.abort(error);
      return true;
    }
    this.#pendingAbort ??= error;
    return false;
  }

  abstract onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void;
  abstract onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void;
  abstract onResponseEnd(controller: Dispatcher.DispatchController): void;
  /** `controller` is undefined when the request failed before it got a connection (connect error, closed pool). */
  abstract onResponseError(controller: Dispatcher.DispatchController | undefined, error: Error): void;
}
