/**
 * Parses a `Retry-After` value: seconds (number or numeric string) or an HTTP date.
 * Returns milliseconds from `now` (never negative), or `null` when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | number | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value * 1000 : null;
  const trimmed = value.trim();
  if (trimmed === "") return null;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // Anything else number-like ("-1", "1e3") is invalid; an HTTP date starts with a day name.
  if (!/^[A-Za-z]/.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** Options of {@link retryDelayMs}. */
export interface RetryDelayOptions {
  /** 1 for the first retry, 2 for the second, ... */
  attempt: number;
  /** The failed answer's `Retry-After` (seconds or HTTP date), if any. */
  retryAfter?: string | number | null;
  /** Base of the exponential backoff. Default 200 ms. */
  baseMs?: number;
  /** Cap of the exponential backoff (not of `Retry-After`). Default 5 000 ms. */
  maxMs?: number;
  /** Time left before the call's deadline; the delay never exceeds it. */
  remainingMs?: number;
  /** Uniform random in [0, 1). Default `Math.random`. */
  random?: () => number;
  /** Epoch ms, for HTTP-date `Retry-After`. Default `Date.now()`. */
  now?: number;
}

/**
 * How long to wait before a retry. Without `Retry-After`: full jitter,
 * `random() * min(maxMs, baseMs * 2^(attempt - 1))`. With a readable `Retry-After`: exactly
 * what it asks. Either way capped by `remainingMs`; a delay equal to `remainingMs` means the
 * wait would use up the deadline, so callers should fall back to the next target instead.
 */
export function retryDelayMs(options: RetryDelayOptions): number {
  const baseMs = options.baseMs ?? 200;
  const maxMs = options.maxMs ?? 5000;
  const random = options.random ?? Math.random;
  const retryAfterMs = parseRetryAfterMs(options.retryAfter, options.now ?? Date.now());
  let delay: number;
  if (retryAfterMs !== null) {
    delay = retryAfterMs;
  } else {
    const exponent = Math.max(0, Math.floor(options.attempt) - 1);
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(exponent, 30));
    delay = Math.floor(random() * ceiling);
  }
  if (options.remainingMs !== undefined) delay = Math.min(delay, Math.max(0, options.remainingMs));
  return Math.max(0, delay);
}
