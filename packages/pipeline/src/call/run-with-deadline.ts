import { GatewayError } from "@gateway/errors";

/** The signal and deadline handed to every stage of one call. */
export interface CallScope {
  /** Aborted when the caller disconnects or the gateway deadline passes. */
  signal: AbortSignal;
  /** Epoch ms of the gateway deadline. */
  deadline: number;
}

/**
 * Runs `work` under the gateway deadline: when `deadline` passes first, the call's signal is
 * aborted (cancelling upstream requests) and the result is 408 `request_timeout`; when the
 * caller's `signal` aborts, the result is 499 `client_cancelled`.
 */
export async function runWithDeadline<Result>(
  options: { deadline: number; signal?: AbortSignal },
  work: (scope: CallScope) => Promise<Result>,
): Promise<Result> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onCallerAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    const expire = () => {
      const error = new GatewayError("request_timeout");
      controller.abort(error);
      reject(error);
    };
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) expire();
    else timer = setTimeout(expire, remaining);
    if (options.signal) {
      onCallerAbort = () => {
        const error = new GatewayError("client_cancelled");
        controller.abort(error);
        reject(error);
      };
      if (options.signal.aborted) onCallerAbort();
      else options.signal.addEventListener("abort", onCallerAbort, { once: true });
    }
  });
  stopped.catch(() => undefined);
  try {
    return await Promise.race([work({ signal: controller.signal, deadline: options.deadline }), stopped]);
  } finally {
    if (timer) clearTimeout(timer);
    if (onCallerAbort) options.signal?.removeEventListener("abort", onCallerAbort);
  }
}
