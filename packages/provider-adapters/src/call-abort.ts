import type { ProviderCallContext } from "./provider-adapter.js";

/**
 * A call's cancellation that costs nothing until an `AbortSignal` is asked for. Creating an
 * AbortSignal takes about 4 us on Node 20 (an `AbortController` alone 40 ns: the signal is made
 * on first read), more than the rest of a call's abort bookkeeping together, and a gateway call
 * needs one only when it hands it to an API that takes a signal (`fetch`, an MCP client). The
 * HTTP transport listens through {@link CallAbort.subscribe} instead, so a plain call never
 * creates one.
 */
export class CallAbort {
  #aborted = false;
  #reason: unknown = undefined;
  #listeners: (() => void)[] | null = null;
  #controller: AbortController | null = null;

  /** Whether {@link abort} was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** A signal that follows this abort (aborted already if it is), created on first read. */
  get signal(): AbortSignal {
    if (this.#controller === null) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Aborts once (later calls do nothing): the signal, when one was created, with `reason`; then
   * each listener, in the order they subscribed. A listener that throws does not stop the others;
   * its error is rethrown on the next tick, as an EventTarget's listener errors are.
   */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = null;
    if (listeners === null) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }

  /**
   * Calls `listener` once, when the call is aborted; never when it already was (check
   * {@link aborted} first). Returns what unsubscribes it.
   */
  subscribe(listener: () => void): () => void {
    if (this.#aborted) return noop;
    (this.#listeners ??= []).push(listener);
    return () => {
      const listeners = this.#listeners;
      if (listeners === null) return;
      const index = listeners.indexOf(listener);
      if (index !== -1) listeners.splice(index, 1);
    };
  }
}

const noop = () => undefined;

/**
 * A CallAbort aborted when `signal` is (with its reason), for callers handed an AbortSignal by
 * their framework (the dashboard's playground, an MCP SDK request): the call then carries one
 * cancellation type, and listens to the signal once.
 */
export function callAbortFollowing(signal: AbortSignal): CallAbort {
  const abort = new CallAbort();
  if (signal.aborted) abort.abort(signal.reason);
  else signal.addEventListener("abort", () => abort.abort(signal.reason), { once: true });
  return abort;
}

/** Whether a call's caller is gone (no AbortSignal is created). */
export function callerAborted(context: Pick<ProviderCallContext, "abort">): boolean {
  return context.abort.aborted;
}

/** Calls `listener` once when the call's caller goes away; returns what stops listening. */
export function onCallerAbort(context: Pick<ProviderCallContext, "abort">, listener: () => void): () => void {
  return context.abort.subscribe(listener);
}
