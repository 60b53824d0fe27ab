/**
 * Upstream timeouts of one connection, in milliseconds; an absent field takes the gateway's
 * global setting. JSON calls are bounded by `totalMs` (and the request deadline). Streams are
 * bounded by `firstByteMs` until the first event arrives, then by `idleMs` between events, and
 * by `maxDurationMs` overall when it is set (0: no limit), never by a total deadline, so a
 * healthy long stream (a reasoning model's output) is not cut.
 */
export interface ConnectionTimeouts {
  /** TCP and TLS connect. */
  connectMs?: number;
  /** JSON calls: the whole upstream call. */
  totalMs?: number;
  /** Streams: from sending the request until the first event. */
  firstByteMs?: number;
  /** Streams: the longest silence allowed between two events (any bytes count as a sign of life). */
  idleMs?: number;
  /** Streams: the longest a whole stream may last; 0 means no limit. */
  maxDurationMs?: number;
}

/** The names of {@link ConnectionTimeouts}, for validation and documentation. */
export const connectionTimeoutNames = ["connectMs", "totalMs", "firstByteMs", "idleMs", "maxDurationMs"] as const;
