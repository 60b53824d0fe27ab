import { strict as assert } from "node:assert";
import type { IncomingHttpHeaders } from "node:http";
import type { Dispatcher } from "undici";
import { GatewayError } from "@gateway/errors";
import { onCallerAbort } from "../call-abort.js";
import type { HttpJsonResponse } from "../http-transport.js";
import type { ProviderCallContext } from "../provider-adapter.js";
import { type AbortReason, cancelledError, mapTransportError, timeoutError } from "./map-transport-error.js";
import { parseJsonText } from "./parse-json-text.js";
import { toResponseHeaders } from "./to-response-headers.js";
import { UpstreamCallHandler } from "./upstream-call-handler.js";

/** Options of {@link JsonCallHandler}. */
export interface JsonCallHandlerOptions {
  /** The caller's context: its abort ends the call with 499. */
  context: Pick<ProviderCallContext, "abort">;
  /** Connection name for error messages. */
  provider: string;
  /** The call's one limit: the request deadline or the total timeout, whichever comes first. */
  timeout: { reason: Exclude<AbortReason, "client">; ms: number };
  /** Largest body read; a larger answer fails with 502 `upstream_error` (not retryable). */
  maxBodyBytes: number;
  /** Settles the call's promise. */
  resolve(response: HttpJsonResponse): void;
  reject(error: GatewayError): void;
}

/**
 * One JSON call on undici's controller API: collects the whole body, bounded by one timer and a
 * size limit, then settles once: resolved with the answer whatever its status, or rejected with a
 * GatewayError (network failure, a limit, the caller leaving).
 */
export class JsonCallHandler extends UpstreamCallHandler {
  readonly #options: JsonCallHandlerOptions;
  readonly #timer: NodeJS.Timeout;
  readonly #unsubscribe: () => void;
  #state: "waiting" | "reading" | "settled" = "waiting";
  #status = 0;
  #headers: Record<string, string> = {};
  readonly #chunks: Buffer[] = [];
  #size = 0;

  constructor(options: JsonCallHandlerOptions) {
    super();
    this.#options = options;
    const { reason, ms } = options.timeout;
    this.abortState.limitMs = ms;
    this.#unsubscribe = onCallerAbort(options.context, () => this.#abortFor("client", cancelledError(options.provider)));
    this.#timer = setTimeout(() => this.#abortFor(reason, timeoutError(reason, options.provider, ms)), ms);
  }

  /** Fails the call with what `dispatch` threw (it never started). */
  dispatchFailed(error: unknown): void {
    this.#settleWith(mapTransportError(error, this.abortState, this.#options.provider));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // 1xx: informational, the answer follows
    assert(this.#state === "waiting", "a JSON call's answer starts once");
    this.#state = "reading";
    this.#status = statusCode;
    this.#headers = toResponseHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#state !== "reading") return;
    this.#size += chunk.length;
    if (this.#size > this.#options.maxBodyBytes) {
      const { provider } = this.#options;
      controller.abort(new GatewayError("upstream_error", { message: `The answer of '${provider}' is larger than the gateway accepts.`, retryable: false, details: { provider } }));
      return;
    }
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.#state === "settled") return;
    assert(this.#state === "reading", "a JSON call ends after its answer started");
    this.#finish();
    const text = Buffer.concat(this.#chunks, this.#size).toString("utf8");
    this.#options.resolve({ status: this.#status, headers: this.#headers, body: parseJsonText(text), text });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.#settleWith(mapTransportError(error, this.abortState, this.#options.provider));
  }

  #abortFor(reason: AbortReason, error: GatewayError): void {
    if (this.#state === "settled") return;
    this.abortState.reason ??= reason;
    // Still queued for a connection: fail now; undici drops it unsent when its turn comes.
    if (!this.abortRequest(error)) this.#settleWith(error);
  }

  #settleWith(error: GatewayError): void {
    if (this.#state === "settled") return;
    this.#finish();
    this.#options.reject(error);
  }

  #finish(): void {
    this.#state = "settled";
    clearTimeout(this.#timer);
    this.#unsubscribe();
  }
}
