import { GatewayError } from "./gateway-error.js";
import { fromZodError, isZodError } from "./from-zod-error.js";

/**
 * Turns any thrown value into a GatewayError. Known shapes (zod errors, body-parser errors,
 * Express's undecodable path parameters, aborts, a busy or unreachable database) get their proper code; anything else becomes a 500 `internal_error` with a generic
 * message, the original kept only as `cause` (never rendered).
 */
export function normalizeError(value: unknown): GatewayError {
  if (GatewayError.isInstance(value)) return value;
  if (isZodError(value)) return fromZodError(value);
  // Express's router could not percent-decode a path parameter (`/api/projects/%ZZ`); it marks the error 400.
  if (value instanceof URIError && (value as URIError & { status?: unknown }).status === 400) {
    return new GatewayError("invalid_request", { message: "The request path is not valid percent-encoding.", cause: value });
  }
  if (isDatabaseBusy(value)) {
    return new GatewayError("service_unavailable", { message: "The database is busy or unreachable; retry shortly.", retryAfter: 1, cause: value });
  }
  if (typeof value === "object" && value !== null) {
    const bodyParserType = (value as { type?: unknown }).type;
    // body-parser / raw-body errors carry a `type` and an `expose`d status.
    if (bodyParserType === "entity.too.large") {
      return new GatewayError("request_too_large", { cause: value });
    }
    if (bodyParserType === "entity.parse.failed") {
      return new GatewayError("invalid_request", { message: "The request body is not valid JSON.", cause: value });
    }
    if (
      bodyParserType === "encoding.unsupported" ||
      bodyParserType === "charset.unsupported" ||
      bodyParserType === "request.size.invalid"
    ) {
      return new GatewayError("invalid_request", { message: "The request body could not be read.", cause: value });
    }
    if (bodyParserType === "request.aborted") {
      return new GatewayError("client_cancelled", { cause: value });
    }
  }
  return new GatewayError("internal_error", { cause: value });
}

// Prisma's codes for a database that timed out, could not be reached, closed the connection, a
// full connection pool, or a transaction to retry (write conflict, deadlock); SQLite's lock and
// PostgreSQL's connection failures as their drivers report them.
const databaseBusyCodes = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2034", "SQLITE_BUSY", "SQLITE_LOCKED", "57P01", "57P03", "53300"]);

/** A database error that says "try again" rather than "this request is wrong" (answered 503). */
function isDatabaseBusy(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const code = (value as { code?: unknown }).code;
  return typeof code === "string" && databaseBusyCodes.has(code);
}
