import type { IncomingHttpHeaders } from "node:http";

/**
 * An answer's headers as undici parsed them (lowercase names; a repeated header as an array) in
 * the transport's shape: one string per name, repeated values joined with ", ". Rewrites the
 * object undici made for this answer rather than copying it (nothing else holds it). A
 * `__proto__` header is dropped.
 */
export function toResponseHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result = headers as Record<string, string | string[] | undefined>;
  for (const name in result) {
    const value = result[name];
    if (typeof value === "string") continue;
    if (Array.isArray(value)) result[name] = value.join(", ");
    else delete result[name];
  }
  if (Object.hasOwn(result, "__proto__")) delete result.__proto__;
  return result as Record<string, string>;
}
