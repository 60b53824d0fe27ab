import { GatewayError } from "@gateway/errors";
import { CallAbort } from "@gateway/provider-adapters";

/**
 * The one deadline mechanism of an inference call: an abort for its whole life, aborted when
 * the caller leaves (499 `client_cancelled`) or, until the answer starts, when the request
 * deadline passes (408 `request_timeout`). Once a stream has started, the deadline no longer
 * applies (the upstream's first-byte, idle and duration timeouts do): a healthy long stream is
 * never cut by a total deadline.
 */
export interface CallLifetime {
  /**
   * Aborted when the caller disconnects or the gateway deadline passes; aborts the upstream
   * request. Created on first read: the call path hands providers {@link abort} instead.
   */
  readonly signal: AbortSignal;
  /** The same abort without an AbortSignal: what the provider context carries (see `CallAbort`). */
  readonly abort: CallAbort;
  /** Why the call was aborted: `client_cancelled`, `request_timeout`, or null while it is alive. */
  abortCode(): "client_cancelled" | "request_timeout" | null;
  /** Aborts the call as cancelled by the caller (the stream's consumer went away). */
  cancel(): void;
  /**
   * Settles like `work`, unless the lifetime is aborted first: then it rejects at once with
   * 499 `client_cancelled` or 408 `request_timeout`.
   */
  race<Result>(work: Promise<Result>): Promise<Result>;
  /** The answer started streaming: the request deadline stops applying (the caller's abort still does). */
  streamStarted(): void;
  /** Clears the deadline timer and the caller listener; call once the call ended. */
  dispose(): void;
}

/**
 * Links the caller's abort and the gateway deadline into one long-lived abort: the deadline
 * aborts with 408 `request_timeout`, the caller with 499 `client_cancelled`.
 */
export function createCallLifetime(options: {
  deadline: number;
  /** The caller's signal (the playground's): its abort counts as `client_cancelled`. */
  signal?: AbortSignal;
  /**
   * The app's own abort, aborted when the caller disconnects (instead of `signal`): the lifetime
   * adopts it rather than creating a second one and listening to the first. Its abort counts
   * as `client_cancelled`.
   */
  abort?: CallAbort;
}): CallLifetime {
  const callAbort = options.abort ?? new CallAbort();
  let code: "client_cancelled" | "request_timeout" | null = null;
  let rejectRace: ((error: GatewayError) => void) | null = null;
  const abort = (reason: "client_cancelled" | "request_timeout") => {
    if (callAbort.aborted) return;
    code = reason;
    const error = new GatewayError(reason);
    callAbort.abort(error);
    rejectRace?.(error);
  };
  const onCallerAbort = () => abort("client_cancelled");
  if (options.abort !== undefined) {
    // The app aborts its own abort when the caller leaves: learn about it, first of its listeners.
    if (callAbort.aborted) code = "client_cancelled";
    else
      callAbort.subscribe(() => {
        if (code === null) {
          code = "client_cancelled";
          rejectRace?.(new GatewayError("client_cancelled"));
        }
      });
  }
  const remaining = options.deadline - Date.now();
  let timer: NodeJS.Timeout | undefined;
  if (remaining <= 0) abort("request_timeout");
  else {
    timer = setTimeout(() => abort("request_timeout"), remaining);
    timer.unref?.();
  }
  if (options.signal) {
    if (options.signal.aborted) onCallerAbort();
    else options.signal.addEventListener("abort", onCallerAbort, { once: true });
  }
  return {
    get signal() {
      return callAbort.signal;
    },
    abort: callAbort,
    abortCode: () => code,
    cancel: () => abort("client_cancelled"),
    race(work) {
      if (code !== null) {
        work.catch(() => undefined);
        return Promise.reject(new GatewayError(code));
      }
      return new Promise((resolve, reject) => {
        rejectRace = reject;
        work.then(
          (value) => {
            rejectRace = null;
            resolve(value);
          },
          (error: unknown) => {
            rejectRace = null;
            reject(error);
          },
        );
      });
    },
    streamStarted() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      options.signal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
