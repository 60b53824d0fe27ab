/** Error codes of a connection that failed before or while the upstream answered (another attempt may reach it). */
const connectFailureCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
]);

/**
 * Whether a plain (non-gateway) error is a connect failure: its `code`, or its `cause`'s (up to
 * four levels), is one of `ECONNREFUSED`, `ECONNRESET`, `UND_ERR_CONNECT_TIMEOUT`, ... An abort
 * (`AbortError`) met on the way is not.
 */
export function isConnectFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth += 1) {
    const candidate = current as { name?: unknown; code?: unknown; cause?: unknown };
    if (candidate.name === "AbortError") return false;
    if (typeof candidate.code === "string" && connectFailureCodes.has(candidate.code)) return true;
    current = candidate.cause;
  }
  return false;
}
