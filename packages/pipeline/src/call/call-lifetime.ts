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
   * request. The call's one cancellation (see `CallAbort`): its `signal` is made only for an API
   * that takes one.
   */
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
  /**
   * The app's abort, aborted when the caller disconnects: the lifetime adopts it rather than
   * creating a second one and listening to the first. Its abort counts as `client_cancelled`.
   */
  abort?: CallAbort;
}): CallLifetime {
  return new Lifetime(options.deadline, options.abort);
}

type AbortCode = "client_cancelled" | "request_timeout";

/** A class rather than an object literal with closures: one hidden class, no closure per call. */
class Lifetime implements CallLifetime {
  readonly abort: CallAbort;
  private code: AbortCode | null = null;
  private rejectRace: ((error: GatewayError) => void) | null = null;
  private timer: NodeJS.Timeout | undefined = undefined;
  /** Stops listening to the adopted abort (at dispose: the app's abort may outlive the call). */
  private unsubscribe: (() => void) | null = null;

  constructor(deadline: number, adopted: CallAbort | undefined) {
    this.abort = adopted ?? new CallAbort();
    if (adopted !== undefined) {
      // The app aborts its own abort when the caller leaves: learn about it, first of its listeners.
      if (adopted.aborted) this.code = "client_cancelled";
      else
        this.unsubscribe = adopted.subscribe(() => {
          if (this.code === null) {
            this.code = "client_cancelled";
            this.rejectRace?.(new GatewayError("client_cancelled"));
          }
        });
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) this.end("request_timeout");
    else {
      this.timer = setTimeout(() => this.end("request_timeout"), remaining);
      this.timer.unref?.();
    }
  }

  abortCode(): AbortCode | null {
    return this.code;
  }

  cancel(): void {
    this.end("client_cancelled");
  }

  race<Result>(work: Promise<Result>): Promise<Result> {
    if (this.code !== null) {
      work.catch(() => undefined);
      return Promise.reject(new GatewayError(this.code));
    }
    return new Promise((resolve, reject) => {
      this.rejectRace = reject;
      work.then(
        (value) => {
          this.rejectRace = null;
          resolve(value);
        },
        (error: unknown) => {
          this.rejectRace = null;
          reject(error);
        },
      );
    });
  }

  streamStarted(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private end(reason: AbortCode): void {
    if (this.abort.aborted) return;
    this.code = reason;
    const error = new GatewayError(reason);
    this.abort.abort(error);
    this.rejectRace?.(error);
  }
}
