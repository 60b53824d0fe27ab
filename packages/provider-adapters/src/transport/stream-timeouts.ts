import type { AbortReason } from "./map-transport-error.js";

/** The limits of one streamed call, in milliseconds (0 `maxDurationMs`: no limit). */
export interface StreamLimits {
  firstByteMs: number;
  idleMs: number;
  maxDurationMs: number;
}

/** Options of {@link StreamTimeouts}. */
export interface StreamTimeoutsOptions {
  limits: StreamLimits;
  /** Time left until the request deadline, when the call starts. */
  remainingMs: number;
  /** Called once a limit passes, with its reason and value. */
  onExpired(reason: Exclude<AbortReason, "client">, limitMs: number): void;
}

/**
 * The timers of one streamed call. One timer bounds the call at any time: until the headers, the
 * request deadline or the first-byte timeout (whichever is first); then the first-byte timeout
 * (counted from the start) until the first body chunk is read; then the idle timeout, refreshed by
 * every chunk read. A second timer bounds the whole stream when a maximum duration is set. Once
 * {@link clear}ed, no timer starts again: one left armed would hold the call for its duration.
 */
export class StreamTimeouts {
  readonly #limits: StreamLimits;
  readonly #onExpired: StreamTimeoutsOptions["onExpired"];
  readonly #startedAt = Date.now();
  #timer: NodeJS.Timeout;
  readonly #durationTimer: NodeJS.Timeout | undefined;
  #phase: "before-first-byte" | "idle" | "cleared" = "before-first-byte";

  constructor(options: StreamTimeoutsOptions) {
    const { limits, remainingMs, onExpired } = options;
    this.#limits = limits;
    this.#onExpired = onExpired;
    // The deadline's reason is reported with the first-byte limit, as the answer had not started.
    this.#timer = remainingMs < limits.firstByteMs
      ? setTimeout(() => onExpired("deadline", limits.firstByteMs), remainingMs)
      : setTimeout(() => onExpired("first-byte", limits.firstByteMs), limits.firstByteMs);
    this.#durationTimer = limits.maxDurationMs > 0 ? setTimeout(() => onExpired("duration", limits.maxDurationMs), limits.maxDurationMs) : undefined;
  }

  /** The answer's headers arrived: the request deadline no longer applies, the first-byte timeout still does. */
  headersArrived(): void {
    if (this.#phase !== "before-first-byte") return;
    clearTimeout(this.#timer);
    const { firstByteMs } = this.#limits;
    const left = Math.max(0, this.#startedAt + firstByteMs - Date.now());
    this.#timer = setTimeout(() => this.#onExpired("first-byte", firstByteMs), left);
  }

  /** A body chunk was read: the first one starts the idle timeout, later ones refresh it. */
  chunkRead(): void {
    if (this.#phase === "idle") {
      this.#timer.refresh();
      return;
    }
    if (this.#phase === "cleared") return;
    this.#phase = "idle";
    clearTimeout(this.#timer);
    const { idleMs } = this.#limits;
    this.#timer = setTimeout(() => this.#onExpired("idle", idleMs), idleMs);
  }

  /** Stops every timer for good (the answer is complete, failed, or nobody reads it any more). */
  clear(): void {
    if (this.#phase === "cleared") return;
    this.#phase = "cleared";
    clearTimeout(this.#timer);
    clearTimeout(this.#durationTimer);
  }
}
