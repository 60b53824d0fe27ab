import type { ZodError } from "zod";
import { GatewayError } from "./gateway-error.js";

/** A path segment as zod reports it. */
type PathSegment = PropertyKey;

/**
 * Renders a zod issue path as the `param` of an error: a lone array index stays an integer,
 * anything else becomes `a.b[2].c`.
 */
export function formatParamPath(path: readonly PathSegment[]): string | number | null {
  if (path.length === 0) return null;
  if (path.length === 1 && typeof path[0] === "number") return path[0];
  let result = "";
  for (const segment of path) {
    if (typeof segment === "number") result += `[${segment}]`;
    else result += result === "" ? String(segment) : `.${String(segment)}`;
  }
  return result;
}

/** Whether a value is a zod error (works across zod copies). */
export function isZodError(value: unknown): value is ZodError {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { name?: unknown }).name === "ZodError" &&
    Array.isArray((value as { issues?: unknown }).issues)
  );
}

/**
 * Turns a zod error into `invalid_request` with `param` set to the first failing path and
 * every issue listed in `details.issues`.
 */
export function fromZodError(error: ZodError, options: { paramPrefix?: readonly PathSegment[] } = {}): GatewayError {
  const prefix = options.paramPrefix ?? [];
  const issues = error.issues.map((issue) => ({
    path: formatParamPath([...prefix, ...issue.path]),
    code: issue.code,
    message: issue.message,
  }));
  const first = issues[0];
  const where = first?.path === null || first === undefined ? "" : ` at '${String(first.path)}'`;
  return new GatewayError("invalid_request", {
    message: first ? `Invalid request${where}: ${first.message}` : "Invalid request.",
    param: first?.path ?? null,
    details: { issues },
    cause: error,
  });
}
